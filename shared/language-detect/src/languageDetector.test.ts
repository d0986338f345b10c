import { evaluateDetector, loadEvaluationSet } from './evaluation';
import { LanguageDetector } from './languageDetector';
import { evaluatePublic, loadPublicSet, shortMessageOf, type PublicEvaluation } from './publicEvaluation';

let detector: LanguageDetector;
let heldout: PublicEvaluation;
beforeAll(async () => {
  detector = await LanguageDetector.create();
  heldout = evaluatePublic(detector, 'heldout');
}, 120_000);

describe('language detection on public text it was not calibrated on (eval/public/heldout.json)', () => {
  it('covers 60+ languages, the six African ones among them', () => {
    expect(heldout.languages).toBeGreaterThanOrEqual(60);
    const set = loadPublicSet('heldout');
    for (const language of ['tw', 'ha', 'gaa', 'ee', 'yo', 'sw']) expect(set.sentences[language]!.length).toBe(200);
  });

  it('gets at least 95 % of short messages (3–6 words) right, averaged over languages', () => {
    // Budget 95 %; measured 97.8 %.
    expect(heldout.short.macro).toBeGreaterThanOrEqual(0.97);
  });

  it('gets the six African languages right on short messages', () => {
    // Budget 97 %; measured 97.3 % (Twi 96.5, Ewe 94.5, Ga 97.5: cut to a few words, news about foreign names and
    // Bible genealogies are the hard cases). Detection is deterministic, so the floor is the budget.
    expect(heldout.short.african).toBeGreaterThanOrEqual(0.97);
    const accuracy = (code: string) => heldout.short.perLanguage.find((l) => l.language === code)!.accuracy;
    for (const code of ['tw', 'ee', 'gaa']) expect([code, accuracy(code) >= 0.93]).toEqual([code, true]);
  });

  it('does not let Twi, Ewe or Ga claim other languages’ short messages', () => {
    // Measured precision: Twi 96.4 %, Ewe 94.9 %, Ga 99.0 %.
    const precision = (code: string) => heldout.short.perLanguage.find((l) => l.language === code)!.precision;
    for (const code of ['tw', 'ee', 'gaa']) expect([code, precision(code) >= 0.94]).toEqual([code, true]);
  });

  it('gets at least 98 % of whole sentences right, and 98 % of the African ones', () => {
    expect(heldout.full.macro).toBeGreaterThanOrEqual(0.98);
    expect(heldout.full.african).toBeGreaterThanOrEqual(0.99);
  });

  it('is right about 99 % of the time when it says it is sure', () => {
    expect(heldout.short.sureAccuracy).toBeGreaterThanOrEqual(0.985);
  });

  it('cuts sentences to 3–6 words the same way every time', () => {
    const sentence = 'Ɔkaa sɛ ekuo nketewa nkasaho dwumadie bɛkɔ so wɔ Borɔfo kasa mu';
    const cut = shortMessageOf(sentence);
    expect(cut).toBe(shortMessageOf(sentence));
    expect(cut.split(' ').length).toBeGreaterThanOrEqual(3);
    expect(cut.split(' ').length).toBeLessThanOrEqual(6);
  });
});

describe('language detection on short chat messages', () => {
  it('still gets the project’s own message set right', () => {
    const report = evaluateDetector(detector, loadEvaluationSet());
    expect(report.overall).toBeGreaterThanOrEqual(0.9);
  });

  it.each([
    ['How do I get an API key?', 'en'],
    ['Is Kasa free?', 'en'],
    ['Bonjour', 'fr'],
    ['Asante sana', 'sw'],
    ['Ɛte sɛn? Wo din de sɛn?', 'tw'],
    ['Akpe kakaka', 'ee'],
    ['Na gode', 'ha'],
    ['Ẹ ṣé', 'yo'],
    ['Oyiwaladɔŋŋ', 'gaa'],
    ['ありがとう', 'ja'],
    ['谢谢', 'zh'],
  ])('reads %j as %s', (text, expected) => {
    expect(detector.detect(text).language).toBe(expected);
  });

  it('is right, or says it is not sure, on two-word greetings it finds hard', () => {
    for (const [text, expected] of [
      ['Medaase', 'tw'],
      ['Как дела?', 'ru'],
    ] as const) {
      const result = detector.detect(text);
      expect([text, result.language === expected || !result.reliable]).toEqual([text, true]);
    }
  });

  it('tells Twi, Ewe and Ga apart by the letter pairs only some of them spell with', () => {
    const evidence = detector.evidence('Kɛkɛ ni amɛtsɔ shika lɛ');
    if (!evidence || 'single' in evidence) throw new Error('expected Latin-script evidence');
    // ts and sh are Ga spellings (ts Ewe too); Twi writes neither.
    expect(evidence.features.get('gaa')!.foreignSpelling).toBe(0);
    expect(evidence.features.get('ee')!.foreignSpelling).toBe(1);
    expect(evidence.features.get('tw')!.foreignSpelling).toBe(2);
    // ɛ is a letter of Twi, Ewe and Ga only: it counts against every other candidate.
    expect(evidence.features.get('en')!.foreignLetter).toBeGreaterThan(0);
    expect(evidence.features.get('gaa')!.foreignLetter).toBe(0);
  });

  it('reads Somali as Somali, not Tagalog', () => {
    for (const text of [
      'Waxaan ahay arday oo wax baranaya',
      'Magaaladu waa ay weyn tahay',
      'Maxaad samaynaysaa maanta?',
    ])
      expect([text, detector.detect(text).language]).toEqual([text, 'so']);
  });

  it('reads short Hausa as Hausa, not English', () => {
    expect(detector.detect('To wannan shi ne').language).toBe('ha');
    expect(detector.detect('Ina son in koyi Turanci').language).toBe('ha');
  });

  it('says it is not sure when the text cannot tell, instead of a confident wrong guess', () => {
    const ok = detector.detect('ok');
    expect(ok.reliable).toBe(false);
    const emoji = detector.detect('👍');
    expect(emoji.reliable).toBe(false);
    expect(emoji.confidence).toBeLessThan(0.2);
    const clear = detector.detect('Je voudrais réserver une table pour deux personnes');
    expect(clear).toMatchObject({ language: 'fr', reliable: true });
  });

  it('lets what is known about the writer decide a text that says little, still not sure', () => {
    const hints = { userLanguage: 'sw', recent: ['Asante sana kwa msaada wako leo'] };
    expect(detector.detect('ok', hints)).toMatchObject({ language: 'sw', reliable: false });
    expect(detector.detect('Hello', { userLanguage: 'en' })).toMatchObject({ language: 'en', reliable: false });
    // Clear text keeps its own language whatever the hints say.
    expect(detector.detect('Je voudrais réserver une table pour deux personnes', hints).language).toBe('fr');
  });

  it('lets the session so far break a tie the text cannot', () => {
    const alone = detector.detect('Det er en god idé');
    const [first, second] = [alone.language, alone.alternatives[0]?.language];
    expect(new Set([first, second])).toEqual(new Set(['da', 'nb']));
    const other = first === 'da' ? 'nb' : 'da';
    expect(detector.detect('Det er en god idé', { sessionLanguage: other }).language).toBe(other);
  });

  it('ignores links, numbers and mentions, which say nothing about the language', () => {
    expect(detector.detect('@ama https://kasa.example/docs 12345 merci beaucoup pour tout').language).toBe('fr');
  });

  it('does not let a prior overrule clear evidence or the script', () => {
    expect(detector.detect('How do I get an API key?', { userLanguage: 'sw' }).language).toBe('en');
    expect(detector.detect('Привет, как дела?', { userLanguage: 'en' }).language).toBe('ru');
    expect(detector.detect('Je voudrais réserver une table', { sessionLanguage: 'en' }).language).toBe('fr');
  });

  it('answers from the hints alone, never sure, when the text has no letters', () => {
    expect(detector.detect('👍 123', { userLanguage: 'tw' })).toEqual({
      language: 'tw',
      confidence: 0.3,
      reliable: false,
      alternatives: [],
    });
  });

  it('gives a confidence between 0 and 1 and alternatives that are less likely', () => {
    const result = detector.detect('Je voudrais réserver une table');
    expect(result.confidence).toBeGreaterThan(0.5);
    expect(result.confidence).toBeLessThanOrEqual(1);
    for (const alternative of result.alternatives)
      expect(alternative.confidence).toBeLessThanOrEqual(result.confidence);
  });

  it('maps language tags and old codes to its own codes, and says when it cannot detect a language', () => {
    expect(detector.codeFor('en-GB')).toBe('en');
    expect(detector.codeFor('ak')).toBe('tw');
    expect(detector.codeFor('iw')).toBe('he');
    expect(detector.codeFor('gaa')).toBe('gaa');
    expect(detector.codeFor('xh')).toBeUndefined();
  });
});
