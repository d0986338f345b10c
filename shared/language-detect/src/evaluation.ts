import fs from 'node:fs';
import path from 'node:path';
import type { LanguageDetector } from './languageDetector';

/** The evaluation set: short chat messages by expected language (shared/language-detect/eval/short-messages.json). */
export interface EvaluationSet {
  messages: Record<string, string[]>;
}

export interface LanguageAccuracy {
  language: string;
  messages: number;
  correct: number;
  accuracy: number;
  /** Wrong answers: expected → what came out, with the message. */
  misses: { text: string; detected: string }[];
}

export interface EvaluationReport {
  languages: number;
  messages: number;
  correct: number;
  /** Correct answers over all messages. */
  overall: number;
  /** The mean of the per-language accuracies (every language weighs the same). */
  macro: number;
  perLanguage: LanguageAccuracy[];
}

export const EVALUATION_SET_PATH = path.resolve(__dirname, '../eval/short-messages.json');

export function loadEvaluationSet(file = EVALUATION_SET_PATH): EvaluationSet {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as EvaluationSet;
}

/** Runs the detector on every message of the set, without hints, and scores it per language and overall. */
export function evaluateDetector(detector: LanguageDetector, set: EvaluationSet): EvaluationReport {
  const perLanguage: LanguageAccuracy[] = Object.entries(set.messages).map(([language, texts]) => {
    const misses = texts
      .map((text) => ({ text, detected: detector.detect(text).language }))
      .filter((result) => result.detected !== language);
    const correct = texts.length - misses.length;
    return { language, messages: texts.length, correct, accuracy: correct / texts.length, misses };
  });
  const messages = perLanguage.reduce((sum, l) => sum + l.messages, 0);
  const correct = perLanguage.reduce((sum, l) => sum + l.correct, 0);
  return {
    languages: perLanguage.length,
    messages,
    correct,
    overall: correct / messages,
    macro: perLanguage.reduce((sum, l) => sum + l.accuracy, 0) / perLanguage.length,
    perLanguage,
  };
}
