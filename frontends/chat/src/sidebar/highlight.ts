/**
 * Search hits: which parts of a text match the words of a query, ignoring case and accents ("yoruba" marks
 * "Yorùbá"). The result is plain text segments, which React renders as text (a <mark> around the matches), so
 * nothing in a message can become markup.
 */
export interface Segment {
  text: string;
  match: boolean;
}

interface Folded {
  /** The text in lower case without accents. */
  text: string;
  /** For each UTF-16 unit of `text`: where its character starts and ends in the original. */
  starts: number[];
  ends: number[];
}

const MARKS = /\p{M}/gu;

function fold(original: string): Folded {
  const folded: Folded = { text: '', starts: [], ends: [] };
  let at = 0;
  for (const char of original) {
    const plain = char.normalize('NFD').replace(MARKS, '').toLowerCase();
    const end = at + char.length;
    if (plain === '') {
      // A combining accent written on its own belongs to the letter before it.
      if (folded.ends.length > 0) folded.ends[folded.ends.length - 1] = end;
    } else {
      for (let i = 0; i < plain.length; i++) {
        folded.starts.push(at);
        folded.ends.push(end);
      }
      folded.text += plain;
    }
    at = end;
  }
  return folded;
}

/** The query's words, folded, without repeats. */
export function queryWords(query: string): string[] {
  return [...new Set(fold(query).text.split(/\s+/).filter(Boolean))];
}

/** Where the query's words occur in `text`: [start, end) ranges of the original, sorted and merged. */
export function matchRanges(text: string, query: string): Array<[number, number]> {
  const folded = fold(text);
  const ranges: Array<[number, number]> = [];
  for (const word of queryWords(query)) {
    for (let at = folded.text.indexOf(word); at >= 0; at = folded.text.indexOf(word, at + word.length))
      ranges.push([folded.starts[at]!, folded.ends[at + word.length - 1]!]);
  }
  ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: Array<[number, number]> = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([...range]);
  }
  return merged;
}

/** `text` cut into the parts that match the query's words and the parts between them. */
export function highlight(text: string, query: string): Segment[] {
  const segments: Segment[] = [];
  let at = 0;
  for (const [start, end] of matchRanges(text, query)) {
    if (start > at) segments.push({ text: text.slice(at, start), match: false });
    segments.push({ text: text.slice(start, end), match: true });
    at = end;
  }
  if (at < text.length || segments.length === 0) segments.push({ text: text.slice(at), match: false });
  return segments;
}

/** How much of a message a search result shows. */
const EXCERPT_LENGTH = 80;

/** About 80 characters of the message around its first match, so the result shows why it matched. */
export function excerpt(content: string, query: string): string {
  const flat = content.replace(/\s+/g, ' ').trim();
  const first = matchRanges(flat, query)[0];
  if (!first || flat.length <= EXCERPT_LENGTH) return flat.slice(0, EXCERPT_LENGTH);
  const start = Math.max(0, first[0] - 30);
  const end = start + EXCERPT_LENGTH;
  return `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`;
}
