import { personaExpertise } from './personaText';
import { translatorFor } from './testing';
import twi from './tw.json';

describe('personaExpertise', () => {
  const tw = translatorFor('tw', twi);

  it('translates the expertise the chat service sends for the six personas', () => {
    const english = personaExpertise(translatorFor(), { id: 'merla', expertise: 'Finance expert' });
    expect(english).toBe('Finance expert');
    expect(personaExpertise(tw, { id: 'merla', expertise: 'Finance expert' })).toBe(twi['persona.merla.expertise']);
    expect(twi['persona.merla.expertise']).not.toBe('Finance expert');
  });

  it('shows the service’s own words when they are not the ones the catalogue translates', () => {
    expect(personaExpertise(tw, { id: 'merla', expertise: 'Budgets and savings' })).toBe('Budgets and savings');
    expect(personaExpertise(tw, { id: 'kofi', expertise: 'Football' })).toBe('Football');
  });
});
