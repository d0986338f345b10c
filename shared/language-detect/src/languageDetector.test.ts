import { evaluateDetector, loadEvaluationSet } from './evaluation';
import { LanguageDetector } from './languageDetector';

let detector: LanguageDetector;
beforeAll(async () => {
  detector = await LanguageDetector.create();
});

describe('language detection on short chat messages', () => {
  it('gets at least 90 % of the evaluation set right, across 30+ languages including six African ones', () => {
    const set = loadEvaluationSet();
    const report = evaluateDetector(detector, set);
    expect(report.languages).toBeGreaterThanOrEqual(30);
    for (const language of ['tw', 'ha', 'gaa', 'ee', 'yo', 'sw']) {
      expect(set.messages[language]!.length).toBeGreaterThanOrEqual(10);
    }
    expect(report.overall).toBeGreaterThanOrEqual(0.9);
    // No language is sacrificed for the average.
    for (const language of report.perLanguage)
      expect([language.language, language.accuracy >= 0.7]).toEqual([language.language, true]);
  });

  it.each([
    ['Hello', 'en'],
    ['hi', 'en'],
    ['How do I get an API key?', 'en'],
    ['Is Kasa free?', 'en'],
    ['Bonjour', 'fr'],
    ['Asante sana', 'sw'],
    ['Medaase', 'tw'],
    ['Ɛte sɛn? Wo din de sɛn?', 'tw'],
    ['Akpe kakaka', 'ee'],
    ['Na gode', 'ha'],
    ['Ẹ ṣé', 'yo'],
    ['Oyiwaladɔŋŋ', 'gaa'],
    ['Как дела?', 'ru'],
    ['ありがとう', 'ja'],
    ['谢谢', 'zh'],
  ])('reads %j as %s', (text, expected) => {
    expect(detector.detect(text).language).toBe(expected);
  });

  it('ignores links, numbers and mentions, which say nothing about the language', () => {
    expect(detector.detect('@ama https://kasa.example/docs 12345 merci beaucoup pour tout').language).toBe('fr');
  });

  it('lets the user’s language and recent messages decide what the text cannot', () => {
    expect(detector.detect('ok').language).toBe('en');
    expect(detector.detect('ok', { userLanguage: 'fr-FR' }).language).toBe('fr');
    expect(detector.detect('Hola', { browserLocale: 'ca-ES' }).language).toBe('ca');
    expect(detector.detect('ok', { recent: ['Mepɛ sɛ mesua Borɔfo kasa', 'Medaase paa'] }).language).toBe('tw');
  });

  it('does not let a prior overrule clear evidence or the script', () => {
    expect(detector.detect('How do I get an API key?', { userLanguage: 'sw' }).language).toBe('en');
    expect(detector.detect('Привет, как дела?', { userLanguage: 'en' }).language).toBe('ru');
  });

  it('answers from the hints alone, with a low confidence, when the text has no letters', () => {
    expect(detector.detect('👍 123', { userLanguage: 'tw' })).toEqual({
      language: 'tw',
      confidence: 0.3,
      alternatives: [],
    });
    expect(detector.detect('👍').confidence).toBeLessThan(0.2);
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
