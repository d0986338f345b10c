import { fieldKey, fromFieldKey, lastDays } from './buckets';

describe('bucket keys', () => {
  it('stores any endpoint, key id, persona or language as one field name and reads it back', () => {
    for (const value of ['GET chat', 'a.b', '$where', '100%', '~', '', 'ksk_ab.$%~'])
      expect(fromFieldKey(fieldKey(value))).toBe(value);
    expect(fieldKey('a.b$c')).not.toMatch(/[.$]/);
    expect(fromFieldKey(fieldKey(null))).toBeNull();
    expect(fieldKey('~')).not.toBe(fieldKey(null));
  });

  it('lists the UTC days that end today, oldest first, across a month boundary', () => {
    expect(lastDays(new Date(Date.UTC(2026, 2, 1, 0, 0, 0)), 3)).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
    expect(lastDays(new Date(Date.UTC(2026, 2, 1, 23, 59, 59, 999)), 1)).toEqual(['2026-03-01']);
  });
});
