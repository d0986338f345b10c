import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { LanguageDetector } from './languageDetector';

/**
 * The public evaluation set (eval/public/, see SOURCES.md): sentences from public corpora (Tatoeba, MAFAND news,
 * Wikipedia, Bible, UD treebanks), split once by a hash of the text into `tune` (the calibration learns from it)
 * and `heldout` (read only by the bench and the budget test, never by tools/tune.js).
 */
export type PublicSplit = 'tune' | 'heldout';

export interface PublicSet {
  split: PublicSplit;
  sources: Record<string, string>;
  sentences: Record<string, string[]>;
}

export const AFRICAN_LANGUAGES = ['tw', 'ha', 'gaa', 'ee', 'yo', 'sw'] as const;

export const publicSetPath = (split: PublicSplit): string => path.resolve(__dirname, `../eval/public/${split}.json`);

export function loadPublicSet(split: PublicSplit): PublicSet {
  return JSON.parse(fs.readFileSync(publicSetPath(split), 'utf8')) as PublicSet;
}

/** FNV-1a over the UTF-8 bytes: the same split and the same cut on every machine. */
export function textHash(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash >>> 0;
}

const UNSEGMENTED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const HAN_OR_KANA = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/**
 * A sentence cut like a chat message: its first 3–6 words (3 + hash % 4). Scripts written without spaces count a
 * word as 2 characters (Chinese, Japanese) or 4 (Thai, Lao, Khmer, Burmese).
 */
export function shortMessageOf(sentence: string): string {
  const words = 3 + (textHash(sentence) % 4);
  const tokens = sentence.split(/\s+/);
  if (UNSEGMENTED.test(sentence) && tokens.length < words + 2) {
    return [...sentence].slice(0, words * (HAN_OR_KANA.test(sentence) ? 2 : 4)).join('');
  }
  return tokens.slice(0, words).join(' ');
}

export interface LanguageFigures {
  language: string;
  source: string;
  texts: number;
  /** Right answers over this language's texts. */
  accuracy: number;
  /** Right answers over every answer naming this language (1 when none did). */
  precision: number;
  /** Share of this language's texts answered as not sure (reliable: false). */
  notSure: number;
}

export interface FormFigures {
  /** Mean of the per-language accuracies. */
  macro: number;
  /** The same over the six African languages Kasa names (Twi, Hausa, Ga, Ewe, Yoruba, Swahili). */
  african: number;
  /** Share of all answers that said not sure, and the accuracy of the answers that were sure. */
  notSure: number;
  sureAccuracy: number;
  perLanguage: LanguageFigures[];
  /** Most frequent mistakes: expected → answered. */
  confusions: { expected: string; detected: string; count: number }[];
}

export interface PublicEvaluation {
  split: PublicSplit;
  languages: number;
  sentences: number;
  short: FormFigures;
  full: FormFigures;
  latencyMs: { p50: number; p99: number; max: number };
}

function figures(
  detector: LanguageDetector,
  set: PublicSet,
  form: (sentence: string) => string,
  latencies: number[],
): FormFigures {
  const answered = new Map<string, { right: number; total: number }>();
  const confusions = new Map<string, number>();
  const perLanguage: LanguageFigures[] = [];
  let notSure = 0;
  let sure = 0;
  let sureRight = 0;
  let total = 0;
  const rows: [string, string, boolean][] = [];
  for (const [language, sentences] of Object.entries(set.sentences)) {
    for (const sentence of sentences) {
      const text = form(sentence);
      const started = performance.now();
      const result = detector.detect(text);
      latencies.push(performance.now() - started);
      rows.push([language, result.language, result.reliable]);
    }
  }
  for (const [expected, detected, reliable] of rows) {
    const a = answered.get(detected) ?? { right: 0, total: 0 };
    a.total += 1;
    if (detected === expected) a.right += 1;
    answered.set(detected, a);
    if (detected !== expected) {
      const key = `${expected}→${detected}`;
      confusions.set(key, (confusions.get(key) ?? 0) + 1);
    }
    total += 1;
    if (!reliable) notSure += 1;
    else {
      sure += 1;
      if (detected === expected) sureRight += 1;
    }
  }
  for (const [language, sentences] of Object.entries(set.sentences)) {
    const mine = rows.filter(([expected]) => expected === language);
    const right = mine.filter(([, detected]) => detected === language).length;
    const named = answered.get(language);
    perLanguage.push({
      language,
      source: set.sources[language] ?? '',
      texts: sentences.length,
      accuracy: right / mine.length,
      precision: named && named.total > 0 ? named.right / named.total : 1,
      notSure: mine.filter(([, , reliable]) => !reliable).length / mine.length,
    });
  }
  const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
  return {
    macro: mean(perLanguage.map((l) => l.accuracy)),
    african: mean(
      perLanguage.filter((l) => (AFRICAN_LANGUAGES as readonly string[]).includes(l.language)).map((l) => l.accuracy),
    ),
    notSure: notSure / total,
    sureAccuracy: sure ? sureRight / sure : 1,
    perLanguage,
    confusions: [...confusions.entries()]
      .map(([key, count]) => {
        const [expected, detected] = key.split('→') as [string, string];
        return { expected, detected, count };
      })
      .sort((a, b) => b.count - a.count),
  };
}

/** Scores the detector (no hints) on a split, each sentence once cut to 3–6 words and once in full. */
export function evaluatePublic(detector: LanguageDetector, split: PublicSplit = 'heldout'): PublicEvaluation {
  const set = loadPublicSet(split);
  const latencies: number[] = [];
  const short = figures(detector, set, shortMessageOf, latencies);
  const full = figures(detector, set, (s) => s, latencies);
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    split,
    languages: Object.keys(set.sentences).length,
    sentences: Object.values(set.sentences).reduce((sum, list) => sum + list.length, 0),
    short,
    full,
    latencyMs: { p50: at(0.5), p99: at(0.99), max: latencies[latencies.length - 1] ?? 0 },
  };
}
