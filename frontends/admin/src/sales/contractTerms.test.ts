import { contractEnd, defaultEndDay, parseSeats, tomorrow } from './contractTerms';

describe('an Enterprise contract’s terms', () => {
  const now = new Date('2026-11-24T10:00:00Z');

  it('takes seats as a whole number within the API’s limit', () => {
    expect(parseSeats('25')).toBe(25);
    expect(parseSeats(' 7 ')).toBe(7);
    for (const wrong of ['', '0', '-3', '2.5', 'ten', '100001']) expect(parseSeats(wrong)).toBeNull();
  });

  it('ends at the last moment of the chosen day, which must be after today', () => {
    expect(contractEnd('2027-11-24', now)).toBe('2027-11-24T23:59:59.999Z');
    expect(contractEnd('2026-11-25', now)).toBe('2026-11-25T23:59:59.999Z');
    expect(contractEnd('2026-11-24', now)).toBeNull();
    expect(contractEnd('2026-02-30', now)).toBeNull();
    expect(contractEnd('soon', now)).toBeNull();
  });

  it('proposes a year from today and allows tomorrow at the earliest', () => {
    expect(defaultEndDay(now)).toBe('2027-11-24');
    expect(tomorrow(now)).toBe('2026-11-25');
  });
});
