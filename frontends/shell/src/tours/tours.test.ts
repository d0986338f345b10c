import {
  completeTour,
  EMPTY_GUIDANCE,
  GUIDANCE_STORAGE_KEY,
  loadGuidance,
  sameGuidance,
  shouldAutoStart,
  skipTour,
  toGuidance,
} from './guidanceState';
import { placeCard, type Rect } from './placement';
import { TOURS, tourById } from './tours';

const overlaps = (a: Rect, b: Rect) =>
  a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;

describe('guidance state', () => {
  it('records completion and marks the welcome as seen', () => {
    const state = completeTour(EMPTY_GUIDANCE, 'chat');
    expect(state).toEqual({ hasSeenWelcome: true, completedTours: ['chat'], skippedTours: [] });
    expect(completeTour(state, 'chat').completedTours).toEqual(['chat']);
  });

  it('remembers a skipped tour, and counts skipping the welcome tour as having seen it', () => {
    expect(skipTour(EMPTY_GUIDANCE, 'welcome')).toEqual({
      hasSeenWelcome: true,
      completedTours: [],
      skippedTours: ['welcome'],
    });
    const skipped = skipTour(EMPTY_GUIDANCE, 'developer');
    expect(skipped).toEqual({ hasSeenWelcome: false, completedTours: [], skippedTours: ['developer'] });
    expect(skipTour(skipped, 'developer')).toEqual(skipped);
  });

  it('keeps a completed tour completed when it is skipped later from the Help menu, and completing clears a skip', () => {
    const completed = completeTour(EMPTY_GUIDANCE, 'chat');
    expect(skipTour(completed, 'chat')).toEqual(completed);
    const skipped = skipTour(EMPTY_GUIDANCE, 'chat');
    expect(completeTour(skipped, 'chat')).toEqual({ hasSeenWelcome: true, completedTours: ['chat'], skippedTours: [] });
  });

  it('reads guidance from the server’s answer the same way, dropping unknown tours', () => {
    expect(
      toGuidance({ hasSeenWelcome: true, completedTours: ['chat', 'later'], skippedTours: ['developer'] }),
    ).toEqual({
      hasSeenWelcome: true,
      completedTours: ['chat'],
      skippedTours: ['developer'],
    });
    expect(toGuidance(null)).toEqual(EMPTY_GUIDANCE);
    expect(sameGuidance(toGuidance({ skippedTours: ['chat'] }), skipTour(EMPTY_GUIDANCE, 'chat'))).toBe(true);
    expect(sameGuidance(EMPTY_GUIDANCE, skipTour(EMPTY_GUIDANCE, 'chat'))).toBe(false);
  });

  it('reads only known tours from storage and survives garbage', () => {
    const storage = (value: string | null) => ({ getItem: () => value, setItem: () => {}, removeItem: () => {} });
    expect(loadGuidance(storage(JSON.stringify({ hasSeenWelcome: true, completedTours: ['chat', 'evil'] })))).toEqual({
      hasSeenWelcome: true,
      completedTours: ['chat'],
      skippedTours: [],
    });
    expect(loadGuidance(storage('{oops'))).toEqual(EMPTY_GUIDANCE);
    expect(loadGuidance(storage(null))).toEqual(EMPTY_GUIDANCE);
    expect(GUIDANCE_STORAGE_KEY).toBe('kasa_guidance');
  });
});

describe('automatic start', () => {
  const welcome = tourById('welcome')!;
  const chat = tourById('chat')!;

  it('starts the welcome tour on a first visit to / only, signed in or not', () => {
    expect(shouldAutoStart(EMPTY_GUIDANCE, welcome, { pathname: '/', signedIn: false })).toBe(true);
    expect(shouldAutoStart(EMPTY_GUIDANCE, welcome, { pathname: '/pricing', signedIn: false })).toBe(false);
    expect(
      shouldAutoStart({ ...EMPTY_GUIDANCE, hasSeenWelcome: true }, welcome, { pathname: '/', signedIn: false }),
    ).toBe(false);
  });

  it('starts the chat tour on /chat for a signed-in person until completed', () => {
    expect(shouldAutoStart(EMPTY_GUIDANCE, chat, { pathname: '/chat', signedIn: true })).toBe(true);
    expect(shouldAutoStart(EMPTY_GUIDANCE, chat, { pathname: '/chat/abc', signedIn: true })).toBe(true);
    expect(shouldAutoStart(EMPTY_GUIDANCE, chat, { pathname: '/chat', signedIn: false })).toBe(false);
    expect(shouldAutoStart(completeTour(EMPTY_GUIDANCE, 'chat'), chat, { pathname: '/chat', signedIn: true })).toBe(
      false,
    );
    expect(shouldAutoStart(skipTour(EMPTY_GUIDANCE, 'chat'), chat, { pathname: '/chat/abc', signedIn: true })).toBe(
      false,
    );
  });

  it('uses the delays of the spec', () => {
    expect(TOURS.map((t) => [t.id, t.delayMs])).toEqual([
      ['welcome', 2000],
      ['chat', 1500],
      ['developer', 1500],
    ]);
  });
});

describe('card placement', () => {
  const card = { width: 384, height: 220 };

  it('puts the card below a navigation link on a desktop, without covering it', () => {
    const target = { top: 12, left: 300, width: 80, height: 36 };
    const place = placeCard({ target, card, viewport: { width: 1280, height: 800 }, preferred: 'bottom', gap: 14 });
    expect(place.side).toBe('bottom');
    expect(overlaps({ ...place, ...card }, target)).toBe(false);
  });

  it('keeps the card inside a 375 px phone and off its target', () => {
    const target = { top: 700, left: 300, width: 60, height: 40 };
    const viewport = { width: 375, height: 812 };
    const narrowCard = { width: 351, height: 240 };
    const place = placeCard({ target, card: narrowCard, viewport, preferred: 'right', gap: 14 });
    expect(place.left).toBeGreaterThanOrEqual(12);
    expect(place.left + narrowCard.width).toBeLessThanOrEqual(375 - 12);
    expect(overlaps({ ...place, ...narrowCard }, target)).toBe(false);
  });

  it('centres the card when there is no target', () => {
    const place = placeCard({
      target: null,
      card,
      viewport: { width: 1280, height: 800 },
      preferred: 'bottom',
      gap: 14,
    });
    expect(place).toEqual({ top: 290, left: 448, side: 'center' });
  });
});
