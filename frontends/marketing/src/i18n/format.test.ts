import { formatsFor, intlLocales } from './format';

describe('formatsFor', () => {
  it('shows prices as the pages always have in English', () => {
    const en = formatsFor('en');
    expect(en.price(29)).toBe('$29');
    expect(en.price(0)).toBe('$0');
    expect(en.price(4.5)).toBe('$4.50');
  });

  it('shows an amount in the currency it was paid in', () => {
    const en = formatsFor('en');
    expect(en.money(29, 'USD')).toBe('$29');
    expect(en.money(350, 'GHS')).toMatch(/^GH(₵|S)\s?350$/);
    expect(en.money(4.5, 'KES')).toMatch(/4\.50$/);
  });

  it('follows the interface language’s way of writing a price and a list', () => {
    const fr = formatsFor('fr');
    expect(fr.price(199).replace(/\s/g, ' ')).toBe('199 $US');
    expect(fr.list(['Appels', 'Voix'])).toBe('Appels et Voix');
    expect(formatsFor('en').list(['Extra API calls', 'Premium voices'])).toBe('Extra API calls, Premium voices');
  });

  it('names languages in the interface language, and shows a code Intl cannot read as it came', () => {
    expect(formatsFor('en').languageName('fr')).toBe('French');
    expect(formatsFor('fr').languageName('en')).toBe('anglais');
    expect(formatsFor('en').languageName('not a code!')).toBe('not a code!');
  });

  it('asks Intl for Akan when the interface is in Twi', () => {
    expect(intlLocales('tw')).toEqual(['tw', 'ak']);
  });
});
