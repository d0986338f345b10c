/** The first chunk is kept short so that its audio is ready at once; the rest are longer (fewer engine starts). */
const FIRST_CHUNK_CHARS = 80;
const CHUNK_CHARS = 400;

/**
 * Splits text into chunks to synthesize one after the other: whole sentences (Intl.Segmenter, which knows the
 * sentence rules of many languages), grouped up to a size; a sentence longer than that is cut after a comma or
 * similar, else between words.
 */
export function splitIntoChunks(text: string, language = 'en'): string[] {
  const segmenter = new Intl.Segmenter(safeLocale(language), { granularity: 'sentence' });
  const sentences = [...segmenter.segment(text)].map((s) => s.segment.trim()).filter(Boolean);
  const pieces = sentences.flatMap((sentence) => cut(sentence, CHUNK_CHARS));
  if (pieces.length === 0) return [];
  const [first, ...afterFirst] = cut(pieces[0]!, FIRST_CHUNK_CHARS);
  const chunks = [first!];
  let current = '';
  for (const piece of [...afterFirst, ...pieces.slice(1)]) {
    if (current && current.length + 1 + piece.length > CHUNK_CHARS) {
      chunks.push(current);
      current = '';
    }
    current = current ? `${current} ${piece}` : piece;
  }
  if (current) chunks.push(current);
  return chunks;
}

/** Cuts a long sentence into pieces of at most `max` characters, preferring clause breaks, then spaces. */
function cut(sentence: string, max: number): string[] {
  const pieces: string[] = [];
  let rest = sentence;
  while (rest.length > max) {
    const window = rest.slice(0, max);
    const clause = Math.max(...[',', ';', ':', '،', '，', '、', ' -'].map((mark) => window.lastIndexOf(mark)));
    const space = window.lastIndexOf(' ');
    const at = clause > max / 3 ? clause + 1 : space > max / 3 ? space : max;
    pieces.push(rest.slice(0, at).trim());
    rest = rest.slice(at).trim();
  }
  if (rest) pieces.push(rest);
  return pieces;
}

function safeLocale(language: string): string {
  try {
    return Intl.getCanonicalLocales(language)[0] ?? 'en';
  } catch {
    return 'en';
  }
}
