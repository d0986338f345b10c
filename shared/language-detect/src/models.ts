/**
 * The three statistical models the detector combines, each loaded once: franc-all (trigrams, 400+ languages, knows
 * Twi, Ewe and Ga), eld (Nito-ELD, n-grams over 60 languages, strong on short European text) and CLD2 (Google's
 * Compact Language Detector, native, 160+ languages). Each answers for the candidates the text's script allows;
 * a model that does not know a candidate says so (see `knows`), and the calibration learned how far to trust each.
 */
import { createRequire } from 'node:module';

type FrancAll = (value: string, options: { only: string[]; minLength: number }) => [string, number][];

interface EldResult {
  language: string;
  getScores: () => Record<string, number>;
}
interface Eld {
  detect: (text: string) => EldResult;
  info: () => { Languages: Record<number, string> };
}

interface Cld2Result {
  reliable: boolean;
  languages: { code: string; percent: number }[];
}
/** The synchronous entry of the `cld` package's native module (its JS wrapper only offers the async one). */
interface Cld2 {
  LANGUAGES: Record<string, string>;
  DETECTED_LANGUAGES: string[];
  detect: (
    text: string,
    isPlainText: boolean,
    languageHint: string,
    encodingHint: string,
    tldHint: string,
    httpHint: string,
    bestEffort: boolean,
  ) => Cld2Result;
}

/** Where our codes differ from a model's (eld has Malay for Indonesian and `no`; CLD2 calls Twi `ak`). */
const ELD_CODES: Record<string, string> = { nb: 'no', id: 'ms' };
const CLD2_CODES: Record<string, string> = { tw: 'ak', nb: 'no', he: 'iw' };

export interface Models {
  franc: FrancAll;
  eld: Eld;
  /** Absent when the native module could not be loaded; the detector then runs on the other two. */
  cld2: Cld2 | undefined;
  eldKnown: Set<string>;
  cld2Known: Set<string>;
}

export async function loadModels(): Promise<Models> {
  const franc = ((await import('franc-all')) as { francAll: FrancAll }).francAll;
  // The smallest of eld's databases: each service that detects holds it (+87 MB; the large one is +400 MB for the
  // same accuracy here, see the README).
  const eld = ((await import('eld/extrasmall')) as unknown as { eld: Eld }).eld;
  let cld2: Cld2 | undefined;
  try {
    cld2 = createRequire(__filename)('cld/build/Release/cld') as Cld2;
  } catch {
    cld2 = undefined;
  }
  const eldKnown = new Set(Object.values(eld.info().Languages));
  const cld2Known = new Set((cld2?.DETECTED_LANGUAGES ?? []).map((name) => cld2!.LANGUAGES[name]!));
  return { franc, eld, cld2, eldKnown, cld2Known };
}

export const eldCode = (code: string): string => ELD_CODES[code] ?? code;
export const cld2Code = (code: string): string => CLD2_CODES[code] ?? code;
