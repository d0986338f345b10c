import { createRequire } from 'node:module';

// Orama's stop words and stemmers ship CommonJS builds (dist/*.cjs) beside their ESM ones, but their exports
// map gives TypeScript only the ESM declarations, which a CommonJS service may not import statically: loaded with
// require, typed as their declarations say.
const load = createRequire(__filename);
const stemmerOf = (language: string) => (load(`@orama/stemmers/${language}`) as { stemmer: Stem }).stemmer;
const stopWordsOf = (language: string) => (load(`@orama/stopwords/${language}`) as { stopwords: string[] }).stopwords;
type Stem = (word: string) => string;

/** How the words of one language are made into search terms, for indexing and for questions alike. */
export interface Analyzer {
  /** The primary language subtag it is for (`en`, `fr`), or `und` for the plain one. */
  language: string;
  /** The text's words as written (letters and digits), in order. */
  tokenize(text: string): string[];
  /** A word as a search term (lower-cased, stemmed, accents removed), or null for a stop word or a single letter. */
  processTerm(word: string): string | null;
}

/** Accents removed ("coût" → "cout"): people often type without them. */
const fold = (word: string): string => word.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');

/**
 * Words that say how a question is asked rather than what it is about, on top of the library's stop words (the
 * usual function words). Retrieval weighs a word the notes never use as the question's most telling one (that is
 * how "What is the capital of Mongolia?" stays unanswered), so asking words the notes happen not to use ("Which SDKs
 * are available?", "I feel dizzy") must not count: without them "Can you tell me how much Pro costs?" searches
 * "pro cost".
 */
const QUESTION_WORDS: Record<string, string> = {
  en:
    'tell know explain please want need like way ways kind sort ok okay hi hello hey thanks thank also every just ' +
    'get got much many say does anything something someone use using available possible feel feeling help problem ' +
    'best good better work works working happen happens find show make take go look see mean able really actually ' +
    'thing things lot new right wrong idea ideas advice tip tips',
  fr:
    'comment pourquoi combien quoi quand dire dis dites savoir peux pouvez puis veux voudrais merci bonjour salut ' +
    'svp stp fait faire faut chose choses disponible possible aide aider problème meilleur bon bonne marche ' +
    'fonctionne trouver voir vraiment conseil conseils idée',
};

/** Stop words and stemmers where the libraries have the language; other languages get the plain analyzer. */
const LANGUAGES: Record<string, { stopWords: string[]; stem: Stem }> = {
  en: { stopWords: stopWordsOf('english'), stem: stemmerOf('english') },
  fr: { stopWords: stopWordsOf('french'), stem: stemmerOf('french') },
};

function stopSetOf(language: string): Set<string> {
  const words = [...(LANGUAGES[language]?.stopWords ?? []), ...(QUESTION_WORDS[language]?.split(/\s+/) ?? [])];
  // Both as written and without accents, since a word is checked before it is folded.
  return new Set(words.flatMap((w) => [w.toLowerCase(), fold(w.toLowerCase())]));
}

function tokenize(text: string): string[] {
  return text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

const analyzers = new Map<string, Analyzer>();

/**
 * The analyzer of a language: lower-case, that language's stop words (and the question words above), its stemmer,
 * accents removed last (the stemmers expect them). `alsoStop` adds another language's stop words: a question written
 * in French and searched in English notes should not count "la" and "de" as words the notes fail to match.
 */
export function analyzerFor(language: string, alsoStop?: string): Analyzer {
  const key = `${language}+${alsoStop ?? ''}`;
  const known = analyzers.get(key);
  if (known) return known;
  const stem = LANGUAGES[language]?.stem ?? ((word: string) => word);
  const stop = stopSetOf(language);
  if (alsoStop && alsoStop !== language) for (const word of stopSetOf(alsoStop)) stop.add(word);
  const analyzer: Analyzer = {
    language: LANGUAGES[language] ? language : 'und',
    tokenize,
    processTerm(word) {
      const lower = word.toLowerCase();
      if (lower.length < 2 || stop.has(lower) || stop.has(fold(lower))) return null;
      const term = fold(stem(lower));
      return term.length < 2 ? null : term;
    },
  };
  analyzers.set(key, analyzer);
  return analyzer;
}

/** The distinct search terms of a text, in order of first appearance. */
export function termsOf(text: string, analyzer: Analyzer): string[] {
  const terms = analyzer.tokenize(text).map((word) => analyzer.processTerm(word));
  return [...new Set(terms.filter((t): t is string => t !== null))];
}
