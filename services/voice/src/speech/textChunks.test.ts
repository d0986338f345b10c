import { splitIntoChunks } from './textChunks';

describe('splitIntoChunks', () => {
  it('keeps the first chunk short so that its audio is ready at once, then groups whole sentences', () => {
    const text =
      'Welcome to Kasa, the assistant that speaks your language and reads its answers aloud, wherever you are. ' +
      Array.from({ length: 20 }, (_, i) => `Sentence number ${i + 1} says something useful.`).join(' ');
    const chunks = splitIntoChunks(text);
    expect(chunks[0]).toBe('Welcome to Kasa, the assistant that speaks your language and reads its answers');
    expect(chunks[1]!.startsWith('aloud, wherever you are. Sentence number 1 says')).toBe(true);
    for (const chunk of chunks.slice(1)) expect(chunk.length).toBeLessThanOrEqual(400);
    expect(chunks.slice(1, -1).every((chunk) => chunk.endsWith('.'))).toBe(true);
    // Nothing is lost or reordered.
    expect(chunks.join(' ').replace(/\s+/g, ' ')).toBe(text.trim());
  });

  it('cuts a sentence longer than a chunk between words', () => {
    const words = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    const chunks = splitIntoChunks(words);
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(400);
    expect(chunks.join(' ')).toBe(words);
  });

  it('returns one chunk for a short text and none for whitespace', () => {
    expect(splitIntoChunks('Hello there.')).toEqual(['Hello there.']);
    expect(splitIntoChunks('   ')).toEqual([]);
  });
});
