import { formatsFor, NONE } from './format';
import french from './fr.json';
import { translatorFor } from './testing';

describe('formatsFor', () => {
  const en = formatsFor('en', translatorFor());
  const fr = formatsFor('fr', translatorFor('fr', french));

  it('shows figures as the portal always has in English', () => {
    expect(en.count(1234567)).toBe('1,234,567');
    expect(en.count(undefined)).toBe(NONE);
    expect(en.percent(99.9)).toBe('99.9%');
    expect(en.percent(100)).toBe('100%');
    expect(en.percent(Number.NaN)).toBe(NONE);
    expect(en.oneDecimal(10 / 3)).toBe('3.3');
    expect(en.duration(812.4)).toBe('812 ms');
    expect(en.duration(1234)).toBe('1.2 s');
    expect(en.milliseconds(12345)).toBe('12345');
    expect(en.list(['chat', 'speak', 'listen'])).toBe('chat, speak, listen');
  });

  it('shows dates with the day first, and says never without one', () => {
    expect(en.shortDate('2026-11-23')).toBe('23 Nov');
    expect(en.month('2026-11')).toBe('November 2026');
    expect(en.dateTime(null)).toBe('never');
    expect(en.dateTime('not a date')).toBe('not a date');
    expect(en.dateTime('2026-11-23T10:05:00Z')).toMatch(/^23 Nov 2026, \d\d:05$/);
  });

  it('follows the interface language’s numbers, dates and words', () => {
    expect(fr.count(1234567)).toMatch(/^1\s234\s567$/);
    expect(fr.percent(99.5)).toMatch(/^99,5\s%$/);
    expect(fr.oneDecimal(2.5)).toBe('2,5');
    expect(fr.duration(1234)).toBe('1,2 s');
    expect(fr.month('2026-11')).toBe('novembre 2026');
    expect(fr.dateTime(undefined)).toBe(french['common.never']);
    expect(fr.list(['discuter', 'parler', 'écouter'])).toBe('discuter, parler et écouter');
  });
});
