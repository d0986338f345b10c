import frame from '../i18n/en.json';
import pages from '../i18n/pages/en.json';
import { TOUR_STEPS } from './tourSteps';
import { TOURS } from './tours';

const messages = { ...frame, ...pages } as Record<string, string>;

describe('guided tour messages', () => {
  it('has every tour step’s text in the English catalogue, word for word', () => {
    for (const [tourId, steps] of Object.entries(TOUR_STEPS)) {
      for (const step of steps) {
        expect(messages[`tour.${tourId}.${step.id}.title`]).toBe(step.title);
        expect(messages[`tour.${tourId}.${step.id}.description`]).toBe(step.description);
        expect(messages[`tour.${tourId}.${step.id}.action`]).toBe(step.action);
      }
    }
  });

  it('has every tour’s name and description in the English catalogue', () => {
    for (const tour of TOURS) {
      expect(messages[`tours.${tour.id}.name`]).toBe(tour.name);
      expect(messages[`tours.${tour.id}.description`]).toBe(tour.description);
    }
  });
});
