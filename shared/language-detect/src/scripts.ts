/**
 * Writing systems, recognised by Unicode script property. Most scripts belong to one language among those Kasa
 * detects (Hangul is Korean, Thai is Thai, ...); the others (Latin, Cyrillic, Arabic, Devanagari) need the
 * statistical model and the word lists to choose among their languages.
 */
export type ScriptName =
  | 'Latin'
  | 'Cyrillic'
  | 'Arabic'
  | 'Devanagari'
  | 'Greek'
  | 'Hebrew'
  | 'Hangul'
  | 'Kana'
  | 'Han'
  | 'Thai'
  | 'Ethiopic'
  | 'Bengali'
  | 'Tamil'
  | 'Telugu'
  | 'Kannada'
  | 'Malayalam'
  | 'Gujarati'
  | 'Gurmukhi'
  | 'Georgian'
  | 'Armenian'
  | 'Sinhala'
  | 'Khmer'
  | 'Lao'
  | 'Myanmar';

const SCRIPT_PATTERNS: [ScriptName, RegExp][] = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Hangul', /\p{Script=Hangul}/u],
  ['Kana', /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ['Han', /\p{Script=Han}/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Ethiopic', /\p{Script=Ethiopic}/u],
  ['Bengali', /\p{Script=Bengali}/u],
  ['Tamil', /\p{Script=Tamil}/u],
  ['Telugu', /\p{Script=Telugu}/u],
  ['Kannada', /\p{Script=Kannada}/u],
  ['Malayalam', /\p{Script=Malayalam}/u],
  ['Gujarati', /\p{Script=Gujarati}/u],
  ['Gurmukhi', /\p{Script=Gurmukhi}/u],
  ['Georgian', /\p{Script=Georgian}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Sinhala', /\p{Script=Sinhala}/u],
  ['Khmer', /\p{Script=Khmer}/u],
  ['Lao', /\p{Script=Lao}/u],
  ['Myanmar', /\p{Script=Myanmar}/u],
];

const LETTER = /\p{L}/u;

/** How many letters of each script the text has (marks, digits, punctuation and emoji are not counted). */
export function countScripts(text: string): Map<ScriptName, number> {
  const counts = new Map<ScriptName, number>();
  for (const char of text) {
    if (!LETTER.test(char)) continue;
    const match = SCRIPT_PATTERNS.find(([, pattern]) => pattern.test(char));
    if (match) counts.set(match[0], (counts.get(match[0]) ?? 0) + 1);
  }
  return counts;
}

/**
 * The script the text is mostly written in. Japanese mixes kana with Han characters (kanji): any kana makes Han
 * text Japanese. A Latin word inside another script ("Pro", "API") does not outvote the rest.
 */
export function dominantScript(counts: Map<ScriptName, number>): ScriptName | undefined {
  const kana = counts.get('Kana') ?? 0;
  const han = counts.get('Han') ?? 0;
  const merged = new Map(counts);
  if (kana > 0) {
    merged.set('Kana', kana + han);
    merged.delete('Han');
  }
  let best: ScriptName | undefined;
  let bestCount = 0;
  for (const [script, count] of merged) {
    // Latin counts half, so that product names in Latin letters do not decide the script of a message.
    const weight = script === 'Latin' ? count / 2 : count;
    if (weight > bestCount) {
      best = script;
      bestCount = weight;
    }
  }
  return best;
}
