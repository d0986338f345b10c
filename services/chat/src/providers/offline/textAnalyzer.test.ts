import { analyzerFor, termsOf } from './textAnalyzer';

describe('analyzerFor', () => {
  it('drops English stop words and asking words, and stems what is left', () => {
    expect(termsOf('Can you tell me how I can save money each month?', analyzerFor('en'))).toEqual([
      'save',
      'monei',
      'month',
    ]);
    // The forms of one word are one term: a question about "saving" finds notes about "savings".
    const en = analyzerFor('en');
    expect(new Set(['save', 'saving', 'savings'].map((w) => en.processTerm(w)))).toEqual(new Set(['save']));
    expect(en.processTerm('Headaches')).toBe(en.processTerm('headache'));
  });

  it('reads French with French stop words and stemming, with or without accents', () => {
    const fr = analyzerFor('fr');
    expect(termsOf('Quelle est la capitale du Sénégal ?', fr)).toEqual(termsOf('capitale senegal', fr));
    expect(fr.processTerm('économies')).toBe(fr.processTerm('economie'));
  });

  it('keeps every word of a language it has no stop words or stemmer for, lower-cased', () => {
    const tw = analyzerFor('tw');
    expect(tw.language).toBe('und');
    expect(termsOf('Ɛte sɛn? Mepɛ sɛ mesua Twi', tw)).toEqual(['ɛte', 'sɛn', 'mepɛ', 'sɛ', 'mesua', 'twi']);
  });

  it('drops the stop words of the person’s language too when asked, as for a French question over English notes', () => {
    expect(termsOf('la capitale de Ghana', analyzerFor('en'))).toContain('la');
    expect(termsOf('la capitale de Ghana', analyzerFor('en', 'fr'))).not.toContain('la');
  });
});
