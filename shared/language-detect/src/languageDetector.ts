import { COMMON_WORDS } from './commonWords';
import {
  CODE_ALIASES,
  DETECTABLE_LANGUAGES,
  DISTINCTIVE_LETTERS,
  VIETNAMESE_VOWELS,
  type DetectableLanguage,
} from './detectableLanguages';
import { countScripts, dominantScript, type ScriptName } from './scripts';

/** What the caller knows besides the text: the user's chosen language, the browser's locale, recent messages. */
export interface DetectionHints {
  userLanguage?: string;
  browserLocale?: string;
  recent?: string[];
}

export interface LanguageGuess {
  /** BCP 47 code, e.g. `en`, `tw`, `gaa`. */
  language: string;
  /** 0–1; the guesses of one answer add up to at most 1. */
  confidence: number;
}

export interface DetectionResult extends LanguageGuess {
  alternatives: LanguageGuess[];
}

/** The part of franc-all the detector uses (franc-all is ESM-only; it is loaded with import()). */
type FrancAll = (value: string, options: { only: string[]; minLength: number }) => [string, number][];

/**
 * Weights of the evidence, in log-odds units. The statistical model matters more the longer the text; the word
 * lists and letters decide short messages; priors decide what the text cannot (a greeting shared by several
 * languages, a message of digits). The one bias without hints is a slight lean to English, the most common
 * language of messages to Kasa.
 */
const WEIGHTS = {
  franc: 6,
  /** Letters at which the statistical model gets its full weight; below, it fades (a trigram model needs text). */
  francFullAt: 120,
  word: 1.6,
  /** A word found only once its diacritics are removed (tonal languages are often typed without them). */
  bareWord: 1.1,
  letter: 1.2,
  maxLettersCounted: 4,
  userLanguage: 1.2,
  browserLocale: 0.6,
  recentEach: 0.5,
  recentMax: 1,
  english: 0.3,
};

const MAX_ALTERNATIVES = 3;
const MAX_TEXT = 2_000;

const stripMarks = (word: string): string => word.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');

/** Words in the order they appear, lower-cased; apostrophes inside a word are kept (j'ai, don't). */
function wordsOf(text: string): string[] {
  return (text
    .normalize('NFC')
    .toLowerCase()
    .replace(/’/g, "'")
    .match(/[\p{L}\p{M}]+(?:'[\p{L}\p{M}]+)*/gu) ?? []) as string[];
}

/** Links, e-mail addresses, mentions, code and numbers say nothing about the language around them. */
function withoutNoise(text: string): string {
  return text
    .slice(0, MAX_TEXT)
    .replace(/`[^`]*`/g, ' ')
    .replace(/\bhttps?:\/\/\S+/gi, ' ')
    .replace(/\S+@\S+\.\S+/g, ' ')
    .replace(/[@#][\p{L}\p{N}_]+/gu, ' ')
    .replace(/\p{N}+/gu, ' ');
}

/**
 * Detects the language of short chat messages among DETECTABLE_LANGUAGES: the script first, then, where a script
 * is shared, a trigram model (franc-all, restricted to the candidates) with word lists and distinctive letters,
 * then priors from the hints. Create it with `LanguageDetector.create()`; `detect` is synchronous and cheap.
 */
export class LanguageDetector {
  private readonly byCode = new Map<string, DetectableLanguage>();
  private readonly byScript = new Map<ScriptName, DetectableLanguage[]>();
  /** word → the languages whose lists have it, exactly as written and without diacritics. */
  private readonly words = new Map<string, string[]>();
  private readonly bareWords = new Map<string, string[]>();

  private constructor(private readonly francAll: FrancAll) {
    for (const language of DETECTABLE_LANGUAGES) {
      this.byCode.set(language.code, language);
      this.byCode.set(language.franc, language);
      const group = this.byScript.get(language.script) ?? [];
      group.push(language);
      this.byScript.set(language.script, group);
    }
    for (const [code, list] of Object.entries(COMMON_WORDS)) {
      for (const word of new Set(wordsOf(list))) {
        add(this.words, word, code);
        add(this.bareWords, stripMarks(word), code);
      }
    }
  }

  static async create(): Promise<LanguageDetector> {
    const franc = (await import('franc-all')) as { francAll: FrancAll };
    return new LanguageDetector(franc.francAll);
  }

  /** The BCP 47 codes this detector can answer with. */
  get languages(): string[] {
    return DETECTABLE_LANGUAGES.map((l) => l.code);
  }

  /** The detector's code for a language tag (`en-GB` → `en`, `ak` → `tw`), or undefined if it cannot detect it. */
  codeFor(tag: string | undefined): string | undefined {
    if (!tag) return undefined;
    const primary = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
    const code = CODE_ALIASES[primary] ?? primary;
    return this.byCode.get(code)?.code;
  }

  detect(text: string, hints: DetectionHints = {}): DetectionResult {
    const scores = this.evidence(text);
    if (scores.size === 0) return this.fromHintsAlone(hints);
    this.addPriors(scores, hints);
    return toResult(scores);
  }

  /** Log-odds per candidate language from the text alone. */
  private evidence(rawText: string): Map<string, number> {
    const text = withoutNoise(rawText);
    const script = dominantScript(countScripts(text));
    const candidates = script ? (this.byScript.get(script) ?? []) : [];
    const scores = new Map<string, number>();
    if (candidates.length === 0) return scores;
    if (candidates.length === 1) {
      scores.set(candidates[0]!.code, 6);
      return scores;
    }
    for (const candidate of candidates) scores.set(candidate.code, 0);
    this.addStatisticalModel(scores, text, candidates);
    this.addWords(scores, text);
    addLetters(scores, text);
    return scores;
  }

  private addStatisticalModel(scores: Map<string, number>, text: string, candidates: DetectableLanguage[]): void {
    const letters = text.replace(/[^\p{L}]/gu, '').length;
    if (letters < 2) return;
    const ranked = this.francAll(text, { only: candidates.map((c) => c.franc), minLength: 1 });
    const values = ranked.map(([, value]) => value);
    const lowest = Math.min(...values);
    const spread = 1 - lowest || 1;
    const weight = WEIGHTS.franc * Math.min(1, letters / WEIGHTS.francFullAt);
    for (const [franc, value] of ranked) {
      const code = this.byCode.get(franc)?.code;
      if (code && scores.has(code)) scores.set(code, scores.get(code)! + (weight * (value - lowest)) / spread);
    }
  }

  private addWords(scores: Map<string, number>, text: string): void {
    for (const word of wordsOf(text)) {
      const parts = word.includes("'") ? [word, ...elisionParts(word)] : [word];
      for (const part of parts) {
        const exact = this.words.get(part)?.filter((code) => scores.has(code));
        if (exact?.length) {
          for (const code of exact) scores.set(code, scores.get(code)! + WEIGHTS.word / exact.length);
          break;
        }
        // Two-letter words without their marks collide too often (ők → ok) to count.
        const bare = part.length > 2 ? this.bareWords.get(stripMarks(part))?.filter((code) => scores.has(code)) : [];
        if (bare?.length) {
          for (const code of bare) scores.set(code, scores.get(code)! + WEIGHTS.bareWord / bare.length);
          break;
        }
      }
    }
  }

  private addPriors(scores: Map<string, number>, hints: DetectionHints): void {
    // A prior only counts among the languages the text's script allows: it tips a close call, never the script.
    const bump = (code: string | undefined, amount: number) => {
      if (code && scores.has(code)) scores.set(code, scores.get(code)! + amount);
    };
    bump('en', WEIGHTS.english);
    bump(this.codeFor(hints.userLanguage), WEIGHTS.userLanguage);
    bump(this.codeFor(hints.browserLocale), WEIGHTS.browserLocale);
    let recent = 0;
    for (const message of (hints.recent ?? []).slice(-10)) {
      const guess = toResult(this.evidence(message));
      const amount = Math.min(WEIGHTS.recentEach * guess.confidence, WEIGHTS.recentMax - recent);
      if (amount <= 0) break;
      recent += amount;
      bump(guess.language, amount);
    }
  }

  /** Text with no letters to go by (digits, emoji): the hints' language, else English, with a low confidence. */
  private fromHintsAlone(hints: DetectionHints): DetectionResult {
    const recent = (hints.recent ?? []).map((m) => toResult(this.evidence(m))).find((g) => g.confidence > 0);
    const language = this.codeFor(hints.userLanguage) ?? this.codeFor(hints.browserLocale) ?? recent?.language ?? 'en';
    return { language, confidence: language === 'en' && !hints.userLanguage ? 0.1 : 0.3, alternatives: [] };
  }
}

function add(index: Map<string, string[]>, word: string, code: string): void {
  const codes = index.get(word) ?? [];
  if (!codes.includes(code)) codes.push(code);
  index.set(word, codes);
}

/** `l'abonnement` → `l'` and `abonnement`; `s'il` → `s'` and `il`. */
function elisionParts(word: string): string[] {
  const at = word.indexOf("'");
  return [word.slice(0, at + 1), word.slice(at + 1)].filter((part) => part.length > 1);
}

function addLetters(scores: Map<string, number>, text: string): void {
  const perLanguage = new Map<string, number>();
  for (const char of text.normalize('NFC').toLowerCase()) {
    const codes = DISTINCTIVE_LETTERS[char]?.split(' ') ?? (VIETNAMESE_VOWELS.test(char) ? ['vi'] : undefined);
    if (!codes) continue;
    const present = codes.filter((code) => scores.has(code));
    for (const code of present) perLanguage.set(code, (perLanguage.get(code) ?? 0) + 1 / present.length);
  }
  for (const [code, count] of perLanguage) {
    scores.set(code, scores.get(code)! + WEIGHTS.letter * Math.min(count, WEIGHTS.maxLettersCounted));
  }
}

/** Softmax over the log-odds: the best guess, its confidence and the next best. */
function toResult(scores: Map<string, number>): DetectionResult {
  const entries = [...scores.entries()].filter(([code]) => !code.startsWith('~'));
  if (entries.length === 0) return { language: 'en', confidence: 0, alternatives: [] };
  const top = Math.max(...entries.map(([, score]) => score));
  const exp = entries.map(([code, score]) => [code, Math.exp(score - top)] as const);
  const total = exp.reduce((sum, [, value]) => sum + value, 0);
  const ranked = exp
    .map(([language, value]) => ({ language, confidence: round(value / total) }))
    .sort((a, b) => b.confidence - a.confidence);
  const [best, ...rest] = ranked;
  return { ...best!, alternatives: rest.slice(0, MAX_ALTERNATIVES).filter((g) => g.confidence >= 0.01) };
}

const round = (value: number): number => Math.round(value * 1000) / 1000;
