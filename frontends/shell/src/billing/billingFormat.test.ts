import { billingFormatsFor } from './billingFormat';

describe('billingFormatsFor', () => {
  it('writes whole amounts without cents and others with them, in their currency', () => {
    const en = billingFormatsFor('en');
    expect(en.money(29, 'USD')).toBe('$29');
    expect(en.money(4.5, 'USD')).toBe('$4.50');
    expect(en.money(350, 'GHS')).toMatch(/350/);
    expect(en.money(350, 'GHS')).not.toMatch(/\$/);
  });

  it('writes a day in the interface language', () => {
    const day = new Date(2026, 3, 10, 12);
    expect(billingFormatsFor('en').date(day)).toBe('April 10, 2026');
    expect(billingFormatsFor('fr').date(day)).toBe('10 avril 2026');
  });
});
