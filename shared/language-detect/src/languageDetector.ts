import { CALIBRATION } from './calibration';
import { COMMON_WORDS } from './commonWords';
import { CORPUS_WORDS } from './corpusWordData';
import { wordsOf } from './corpusWords';
import {
  CODE_ALIASES,
  DETECTABLE_LANGUAGES,
  DISTINCTIVE_LETTERS,
  KWA_DIGRAPHS,
  KWA_LANGUAGES,
  KWA_SUFFIXES,
  MARKED_SPELLINGS,
  VIETNAMESE_VOWELS,
  type DetectableLanguage,
} from './detectableLanguages';
import { cld2Code, eldCode, loadModels, type Models } from './models';
import { countScripts, dominantScript, type ScriptName } from './scripts';

/** What the caller knows besides the text: the user's chosen language, the browser's locale, the session so far. */
export interface DetectionHints {
  userLanguage?: string;
  browserLocale?: string;
  /** The person's latest messages in this session, oldest first: each one's detected language counts a little. */
  recent?: string[];
  /** The language this session has been in so far (e.g. of the previous replies): tips close calls towards it. */
  sessionLanguage?: string;
}

export interface LanguageGuess {
  /** BCP 47 code, e.g. `en`, `tw`, `gaa`. */
  language: string;
  /** 0–1, a calibrated probability; the guesses of one answer add up to at most 1. */
  confidence: number;
}

export interface DetectionResult extends LanguageGuess {
  /**
   * False when the detector is not sure: the confidence is below the threshold calibrated on public text (see
   * CALIBRATION.notSureBelow). `language` is then only the best guess, and callers should not act on it (the
   * chat service lets the reply mirror the message instead).
   */
  reliable: boolean;
  alternatives: LanguageGuess[];
}

/** The evidence the calibration weighs, per candidate language (see tools/tune.js). */
export const FEATURES = [
  'franc',
  'francLong',
  'francAlone',
  'eld',
  'eldTop',
  'eldUnknown',
  'eldMiss',
  'cld2',
  'cld2Top',
  'cld2Unknown',
  'word',
  'bareWord',
  'corpusWord',
  'letter',
  'foreignLetter',
  'unseenLetter',
  'foreignSpelling',
  'noLetter',
] as const;
export type FeatureName = (typeof FEATURES)[number];
export type Features = Record<FeatureName, number>;

/** What a text says about each candidate of its script; `single` when the script alone decides. */
export type Evidence = { single: string } | { candidates: string[]; features: Map<string, Features> };

/** Priors in log-odds units: they tip close calls only, never the script or clear evidence. */
const PRIORS = {
  userLanguage: 1.2,
  browserLocale: 0.6,
  sessionLanguage: 1.8,
  recentEach: 0.5,
  recentMax: 1,
};

/** Letters at which franc's trigram model gets its full weight (`francLong`); below, it fades. */
const FRANC_FULL_AT = 100;
const MAX_LETTERS_COUNTED = 4;
const MAX_ALTERNATIVES = 3;
const MAX_TEXT = 2_000;

/** The tune split's word lists as tools/tune.js wrote them (space-separated). */
const CORPUS_WORD_LISTS = Object.fromEntries(
  Object.entries(CORPUS_WORDS).map(([code, words]) => [code, words.split(' ')]),
);

const stripMarks = (word: string): string => word.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');

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

const emptyFeatures = (): Features => Object.fromEntries(FEATURES.map((name) => [name, 0])) as Features;

/**
 * Detects the language of short chat messages among DETECTABLE_LANGUAGES. The script decides first where it can;
 * in a shared script (Latin, Cyrillic, Arabic, Devanagari) three models — franc-all, eld and CLD2, each limited to
 * the script's candidates — and the word lists and distinctive letters give evidence that a calibration learned on
 * public text (eval/public/tune.json) weighs into a probability per language. Below a calibrated confidence the
 * answer says it is not sure. Hints (the user's language, the session so far) tip close calls only. Create it
 * with `LanguageDetector.create()`; `detect` is synchronous and takes well under a millisecond on a chat message.
 */
export class LanguageDetector {
  private readonly byCode = new Map<string, DetectableLanguage>();
  private readonly byScript = new Map<ScriptName, DetectableLanguage[]>();
  /** word → the languages whose lists have it, exactly as written and without diacritics. */
  private readonly words = new Map<string, string[]>();
  private readonly bareWords = new Map<string, string[]>();
  /** word → the languages whose tune-split list (corpusWords.ts) has it. */
  private readonly corpusWords = new Map<string, string[]>();

  private constructor(
    private readonly models: Models,
    corpusWordLists: Record<string, readonly string[]> = CORPUS_WORD_LISTS,
  ) {
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
    for (const [code, list] of Object.entries(corpusWordLists)) {
      if (!this.byCode.has(code)) continue;
      for (const word of new Set(list)) add(this.corpusWords, word, code);
    }
  }

  static async create(): Promise<LanguageDetector> {
    return new LanguageDetector(await loadModels());
  }

  /** The same models with other corpus word lists (tools/tune.js: lists made from the other half of the tune split). */
  withCorpusWords(lists: Record<string, readonly string[]>): LanguageDetector {
    return new LanguageDetector(this.models, lists);
  }

  /** The BCP 47 codes this detector can answer with. */
  get languages(): string[] {
    return DETECTABLE_LANGUAGES.map((l) => l.code);
  }

  /** Whether CLD2's native module loaded (without it the detector runs on franc-all and eld alone). */
  get usesCld2(): boolean {
    return this.models.cld2 !== undefined;
  }

  /** The detector's code for a language tag (`en-GB` → `en`, `ak` → `tw`), or undefined if it cannot detect it. */
  codeFor(tag: string | undefined): string | undefined {
    if (!tag) return undefined;
    const primary = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
    const code = CODE_ALIASES[primary] ?? primary;
    return this.byCode.get(code)?.code;
  }

  detect(text: string, hints: DetectionHints = {}): DetectionResult {
    const scores = this.scores(text);
    if (scores.size === 0) return this.fromHintsAlone(hints);
    const alone = toResult(scores);
    this.addPriors(scores, hints);
    const hinted = toResult(scores);
    if (alone.reliable || hinted.reliable) return hinted;
    // The text alone says little ("ok", "Hello"): what is known about the writer decides among the languages its
    // script allows, still marked not sure.
    const known = this.knownLanguage(hints, scores);
    if (!known || known === hinted.language) return hinted;
    const confidence = hinted.alternatives.find((a) => a.language === known)?.confidence ?? 0;
    return {
      language: known,
      confidence: Math.max(confidence, 0.3),
      reliable: false,
      alternatives: [
        { language: hinted.language, confidence: hinted.confidence },
        ...hinted.alternatives.filter((a) => a.language !== known),
      ].slice(0, MAX_ALTERNATIVES),
    };
  }

  /** The writer's language as the hints tell it (session, choice, recent messages, browser), if the script allows it. */
  private knownLanguage(hints: DetectionHints, allowed: Map<string, number>): string | undefined {
    const recent = (hints.recent ?? [])
      .map((message) => toResult(this.scores(message)))
      .filter((guess) => guess.reliable)
      .at(-1)?.language;
    return [
      this.codeFor(hints.sessionLanguage),
      this.codeFor(hints.userLanguage),
      recent,
      this.codeFor(hints.browserLocale),
    ].find((code): code is string => code !== undefined && allowed.has(code));
  }

  /** The evidence per candidate, before calibration (used to calibrate; see tools/tune.js). */
  evidence(rawText: string): Evidence | undefined {
    const text = withoutNoise(rawText);
    const script = dominantScript(countScripts(text));
    const candidates = script ? (this.byScript.get(script) ?? []) : [];
    if (candidates.length === 0) return undefined;
    if (candidates.length === 1) return { single: candidates[0]!.code };
    const features = new Map(candidates.map((c) => [c.code, emptyFeatures()]));
    this.addFranc(features, text, candidates);
    this.addEld(features, text);
    this.addCld2(features, text);
    this.addWords(features, text);
    addLetters(features, text);
    addKwaSpelling(features, text);
    // Letters of a language eld or CLD2 does not know: those models' votes go to a neighbour, so each model that is
    // blind to it counts for it here.
    for (const f of features.values()) if (f.letter > 0) f.unseenLetter = f.eldUnknown + f.cld2Unknown;
    return { candidates: candidates.map((c) => c.code), features };
  }

  /** Calibrated log-odds per candidate language from the text alone. */
  private scores(text: string): Map<string, number> {
    const evidence = this.evidence(text);
    const scores = new Map<string, number>();
    if (!evidence) return scores;
    if ('single' in evidence) {
      scores.set(evidence.single, 8);
      return scores;
    }
    for (const code of evidence.candidates) {
      const features = evidence.features.get(code)!;
      let score = CALIBRATION.bias[code] ?? 0;
      for (const name of FEATURES) score += CALIBRATION.weights[name] * features[name];
      scores.set(code, score);
    }
    return scores;
  }

  private addFranc(features: Map<string, Features>, text: string, candidates: DetectableLanguage[]): void {
    const letters = text.replace(/[^\p{L}]/gu, '').length;
    if (letters < 2) return;
    const ranked = this.models.franc(text, { only: candidates.map((c) => c.franc), minLength: 1 });
    const values = ranked.map(([, value]) => value);
    const lowest = Math.min(...values);
    const spread = 1 - lowest || 1;
    for (const [franc, value] of ranked) {
      const code = this.byCode.get(franc)?.code;
      const f = code ? features.get(code) : undefined;
      if (!f) continue;
      const relative = (value - lowest) / spread;
      f.franc = relative;
      f.francLong = relative * Math.min(1, letters / FRANC_FULL_AT);
      // Where neither other model knows the language (Ewe, Ga), franc's word is all there is.
      const eldKnows = this.models.eldKnown.has(eldCode(code!));
      const cld2Knows = this.models.cld2Known.has(cld2Code(code!));
      f.francAlone = eldKnows || cld2Knows ? 0 : relative;
    }
  }

  private addEld(features: Map<string, Features>, text: string): void {
    const known = [...features.keys()].filter((code) => this.models.eldKnown.has(eldCode(code)));
    for (const code of features.keys()) if (!known.includes(code)) features.get(code)!.eldUnknown = 1;
    const scores = this.models.eld.detect(text).getScores();
    // How well the best of eld's own languages fits (about 0.8 on its languages' short text, about 0.5 on
    // languages it does not know): a poor fit is evidence for the candidates eld cannot see.
    const bestFit = Math.max(0, ...Object.values(scores));
    for (const code of features.keys()) if (!known.includes(code)) features.get(code)!.eldMiss = 1 - bestFit;
    let top = 0;
    for (const code of known) top = Math.max(top, scores[eldCode(code)] ?? 0);
    if (top <= 0) return;
    let topMarked = false;
    for (const code of known) {
      const value = scores[eldCode(code)] ?? 0;
      features.get(code)!.eld = value / top;
      if (value === top && !topMarked) {
        features.get(code)!.eldTop = 1;
        topMarked = true;
      }
    }
  }

  private addCld2(features: Map<string, Features>, text: string): void {
    const cld2 = this.models.cld2;
    if (!cld2) return;
    for (const [code, f] of features) if (!this.models.cld2Known.has(cld2Code(code))) f.cld2Unknown = 1;
    let result: Cld2Answer;
    try {
      result = cld2.detect(text, true, '', '', '', '', true);
    } catch {
      return; // CLD2 names no language for some inputs (too little text): no evidence from it.
    }
    result.languages.forEach((language, index) => {
      const f = features.get(this.fromCld2(language.code));
      if (!f) return;
      f.cld2 += language.percent / 100;
      if (index === 0) f.cld2Top = result.reliable ? 1 : 0.5;
    });
  }

  private fromCld2(code: string): string {
    if (code === 'ak') return 'tw';
    if (code === 'no') return 'nb';
    if (code === 'iw') return 'he';
    return code;
  }

  private addWords(features: Map<string, Features>, text: string): void {
    for (const word of wordsOf(text)) {
      const listedBy = this.corpusWords.get(word)?.filter((code) => features.has(code));
      if (listedBy?.length) for (const code of listedBy) features.get(code)!.corpusWord += 1 / listedBy.length;
      const parts = word.includes("'") ? [word, ...elisionParts(word)] : [word];
      for (const part of parts) {
        const exact = this.words.get(part)?.filter((code) => features.has(code));
        if (exact?.length) {
          for (const code of exact) features.get(code)!.word += 1 / exact.length;
          break;
        }
        // Two-letter words without their marks collide too often (ők → ok) to count.
        const bare = part.length > 2 ? this.bareWords.get(stripMarks(part))?.filter((code) => features.has(code)) : [];
        if (bare?.length) {
          for (const code of bare) features.get(code)!.bareWord += 1 / bare.length;
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
    bump(this.codeFor(hints.userLanguage), PRIORS.userLanguage);
    bump(this.codeFor(hints.browserLocale), PRIORS.browserLocale);
    bump(this.codeFor(hints.sessionLanguage), PRIORS.sessionLanguage);
    let recent = 0;
    for (const message of (hints.recent ?? []).slice(-10)) {
      const guess = toResult(this.scores(message));
      const amount = Math.min(PRIORS.recentEach * guess.confidence, PRIORS.recentMax - recent);
      if (amount <= 0) break;
      recent += amount;
      bump(guess.language, amount);
    }
  }

  /** Text with no letters to go by (digits, emoji): the hints' language, else English, never reliable. */
  private fromHintsAlone(hints: DetectionHints): DetectionResult {
    const recent = (hints.recent ?? []).map((m) => toResult(this.scores(m))).find((g) => g.confidence > 0);
    const language =
      this.codeFor(hints.userLanguage) ??
      this.codeFor(hints.sessionLanguage) ??
      this.codeFor(hints.browserLocale) ??
      recent?.language ??
      'en';
    const confidence = language === 'en' && !hints.userLanguage ? 0.1 : 0.3;
    return { language, confidence, reliable: false, alternatives: [] };
  }
}

type Cld2Answer = { reliable: boolean; languages: { code: string; percent: number }[] };

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

function addLetters(features: Map<string, Features>, text: string): void {
  const perLanguage = new Map<string, number>();
  const foreign = new Map<string, number>();
  for (const char of text.normalize('NFC').toLowerCase()) {
    const codes = DISTINCTIVE_LETTERS[char]?.split(' ') ?? (VIETNAMESE_VOWELS.test(char) ? ['vi'] : undefined);
    if (!codes) continue;
    const present = codes.filter((code) => features.has(code));
    if (present.length === 0) continue;
    for (const code of present) perLanguage.set(code, (perLanguage.get(code) ?? 0) + 1 / present.length);
    // A letter a language's spelling does not use speaks against it (ɔ in a "Slovenian" text).
    for (const code of features.keys()) if (!present.includes(code)) foreign.set(code, (foreign.get(code) ?? 0) + 1);
  }
  for (const [code, count] of perLanguage) features.get(code)!.letter = Math.min(count, MAX_LETTERS_COUNTED);
  // Twi, Ewe, Ga and Yoruba write one of their own letters in nearly every phrase: none at all speaks against them.
  for (const code of MARKED_SPELLINGS) {
    const f = features.get(code);
    if (f && !perLanguage.has(code)) f.noLetter = 1;
  }
  for (const [code, count] of foreign) features.get(code)!.foreignLetter = Math.min(count, MAX_LETTERS_COUNTED);
}

/**
 * Among Twi, Ewe and Ga: each letter pair of KWA_DIGRAPHS and each word ending of KWA_SUFFIXES counts against those
 * of the three that do not use it.
 */
function addKwaSpelling(features: Map<string, Features>, text: string): void {
  const kwa = KWA_LANGUAGES.filter((code) => features.has(code));
  if (kwa.length === 0) return;
  const lower = text.normalize('NFC').toLowerCase();
  for (const [pair, users] of Object.entries(KWA_DIGRAPHS)) {
    const codes = users.split(' ');
    let at = lower.indexOf(pair);
    while (at >= 0) {
      for (const code of kwa) if (!codes.includes(code)) features.get(code)!.foreignSpelling += 1;
      at = lower.indexOf(pair, at + pair.length);
    }
  }
  for (const word of wordsOf(lower)) {
    if (word.length < 4) continue;
    for (const [ending, users] of Object.entries(KWA_SUFFIXES)) {
      if (!word.endsWith(ending)) continue;
      const codes = users.split(' ');
      for (const code of kwa) if (!codes.includes(code)) features.get(code)!.foreignSpelling += 1;
    }
  }
  for (const code of kwa) {
    const f = features.get(code)!;
    f.foreignSpelling = Math.min(f.foreignSpelling, MAX_LETTERS_COUNTED);
  }
}

/** Softmax over the log-odds: the best guess, its confidence, whether it is sure, and the next best. */
function toResult(scores: Map<string, number>): DetectionResult {
  const entries = [...scores.entries()];
  if (entries.length === 0) return { language: 'en', confidence: 0, reliable: false, alternatives: [] };
  const top = Math.max(...entries.map(([, score]) => score));
  const exp = entries.map(([code, score]) => [code, Math.exp(score - top)] as const);
  const total = exp.reduce((sum, [, value]) => sum + value, 0);
  const ranked = exp
    .map(([language, value]) => ({ language, confidence: round(value / total) }))
    .sort((a, b) => b.confidence - a.confidence);
  const [best, ...rest] = ranked;
  return {
    ...best!,
    reliable: best!.confidence >= CALIBRATION.notSureBelow,
    alternatives: rest.slice(0, MAX_ALTERNATIVES).filter((g) => g.confidence >= 0.01),
  };
}

const round = (value: number): number => Math.round(value * 1000) / 1000;
