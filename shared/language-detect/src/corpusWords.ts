/**
 * Each language's most frequent words in the tune split of the public evaluation set (eval/public/tune.json), as a
 * second, data-driven word list beside the hand-made one of commonWords.ts: the hand-made lists hold what people
 * type to an assistant ("please", "how"), these hold what the language's own running text repeats (Ewe `ke`, `be`,
 * `na`; Hausa `dai`, `kada`). Only words the corpus also writes in lower case count, so names ("Yakob", "Laurent")
 * never become evidence for a language.
 *
 * tools/tune.js writes the lists of the whole tune split to corpusWordData.ts. To calibrate, it measures each half of
 * the tune split with lists made from the other half, so that the calibration learns how much such a list is worth
 * on text it was not made from.
 */

/** Words a language's list keeps at most, and how many of its sentences must use a word for it to be kept. */
export const CORPUS_WORD_LIMITS = { perLanguage: 400, minSentences: 2 };

/** Words in the order they appear, lower-cased; apostrophes inside a word are kept (j'ai, don't). */
export function wordsOf(text: string): string[] {
  return (text
    .normalize('NFC')
    .toLowerCase()
    .replace(/’/g, "'")
    .match(/[\p{L}\p{M}]+(?:'[\p{L}\p{M}]+)*/gu) ?? []) as string[];
}

/** The words of a text as written (case kept), split like `wordsOf`. */
const writtenWordsOf = (text: string): string[] =>
  (text
    .normalize('NFC')
    .replace(/’/g, "'")
    .match(/[\p{L}\p{M}]+(?:'[\p{L}\p{M}]+)*/gu) ?? []) as string[];

/**
 * For each language, its `perLanguage` words used by the most sentences (at least `minSentences`), among the words
 * the language's sentences also write in lower case.
 */
export function corpusWordLists(
  sentencesByLanguage: Record<string, string[]>,
  limits = CORPUS_WORD_LIMITS,
): Record<string, string[]> {
  const lists: Record<string, string[]> = {};
  for (const [language, sentences] of Object.entries(sentencesByLanguage)) {
    const sentencesUsing = new Map<string, number>();
    const writtenLower = new Set<string>();
    for (const sentence of sentences) {
      for (const word of writtenWordsOf(sentence)) if (word === word.toLowerCase()) writtenLower.add(word);
      for (const word of new Set(wordsOf(sentence))) sentencesUsing.set(word, (sentencesUsing.get(word) ?? 0) + 1);
    }
    lists[language] = [...sentencesUsing]
      .filter(([word, count]) => count >= limits.minSentences && writtenLower.has(word))
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, limits.perLanguage)
      .map(([word]) => word);
  }
  return lists;
}
