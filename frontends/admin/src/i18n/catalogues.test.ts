import arabic from './ar.json';
import french from './fr.json';
import { translatorFor } from './testing';
import yoruba from './yo.json';

describe('the console’s messages', () => {
  it('count in English, French, Arabic and Yoruba as each language does', () => {
    const en = translatorFor('en');
    expect(en('person.callsPerMonth', { count: 1 })).toBe('1 call');
    expect(en('person.callsPerMonth', { count: 1000 })).toBe('1,000 calls');
    expect(en('sales.lastAskedValue', { date: '24 Nov 2026', count: 3 })).toBe('24 Nov 2026 · asked 3 times');
    expect(en('person.keys', { count: 0 })).toBe('API keys');

    const fr = translatorFor('fr', french);
    expect(fr('sales.granted', { email: 'a@b.c', count: 1, date: '1 déc.' })).toBe(
      'a@b.c a Enterprise avec 1 place jusqu’au 1 déc..',
    );
    expect(fr('sales.granted', { email: 'a@b.c', count: 25, date: '1 déc.' })).toContain('25 places');

    const ar = translatorFor('ar', arabic);
    expect(ar('person.callsPerMonth', { count: 2 })).toBe('استدعاءان');
    expect(ar('person.callsPerMonth', { count: 3 })).toMatch(/استدعاءات$/);

    expect(en('providers.attempts', { count: 1, rate: '0%' })).toBe('1 attempt, 0% failed');
    expect(en('providers.attempts', { count: 12, rate: '25%' })).toBe('12 attempts, 25% failed');
    expect(ar('providers.attempts', { count: 2, rate: '50%' })).toBe('محاولتان، فشل منها 50%');
    expect(fr('providers.attempts', { count: 3, rate: '0 %' })).toBe('3 tentatives, 0 % d’échecs');

    expect(en('usage.callsValue', { count: 1 })).toBe('1 call');
    expect(en('usage.callsValue', { count: 12345 })).toBe('12,345 calls');
    expect(fr('usage.callsValue', { count: 2 })).toBe('2 appels');
    expect(ar('usage.callsValue', { count: 2 })).toBe('استدعاءان');

    const yo = translatorFor('yo', yoruba);
    expect(yo('sales.lastAskedValue', { date: 'X', count: 1 })).toBe('X · ó béèrè lẹ́ẹ̀kan');
  });
});
