import { MIN_RELEVANCE, PassageIndex, type Passage } from './passageIndex';
import { analyzerFor, type Analyzer } from './textAnalyzer';

/** A document the person attached, as the system prompt carries it: its name and its labelled parts. */
export interface AttachedDocument {
  name: string;
  /** Each page or section with its citation label as the prompt wrote it, e.g. `[report.pdf, p. 2]`. */
  parts: { label: string; text: string }[];
}

/** A passage of a document that answers the question, with the label to cite it by. */
export interface DocumentQuote {
  text: string;
  label: string;
  relevance: number;
}

// The document prompt's format (src/attachments/documentPrompt.ts): a block per document, a label line before each
// part's text, and the prompt's own notes on a line of their own. Read back here because the offline provider has
// no model to read it; offlineProvider.test.ts builds its prompts with documentsPrompt itself, so a change there shows.
const DOCUMENT_BLOCK = /<document name="([^"]*)">\n([\s\S]*?)\n<\/document>/g;
const PART_LABEL = /^\[.+, (?:p\.|§) \d+\]$/;
const PROMPT_NOTE = /^\((?:No text could be read from this document|The rest of this document is left out)\b.*\)$/;

/** The documents in a system prompt, with their parts; none when it carries no documents. */
export function documentsIn(system: string): AttachedDocument[] {
  return [...system.matchAll(DOCUMENT_BLOCK)].map(([, name = '', body = '']) => {
    const parts: AttachedDocument['parts'] = [];
    for (const line of body.split('\n')) {
      if (PART_LABEL.test(line)) parts.push({ label: line, text: '' });
      else if (!PROMPT_NOTE.test(line.trim()) && parts.length > 0) parts[parts.length - 1]!.text += `${line}\n`;
    }
    return { name, parts: parts.filter((p) => p.text.trim().length > 0) };
  });
}

/** The longest passage quoted; a longer sentence (a table, a page without full stops) is cut at words. */
const MAX_PASSAGE = 400;
/** A second and third passage are quoted only when they score at least this share of the best. */
const NEAR_BEST = 0.5;

function segmenter(language: string): Intl.Segmenter {
  try {
    return new Intl.Segmenter(language, { granularity: 'sentence' });
  } catch {
    return new Intl.Segmenter('en', { granularity: 'sentence' });
  }
}

/**
 * Whether a line runs on into the next: PDF pages break sentences across lines ("The budget owner is" / "Ama
 * Mensah."). A line that ends a sentence does not; nor does a heading or a list item, which ends with a word that means
 * something and is followed by a capital ("Budget" / "The budget owner is Ama Mensah.").
 */
function runsOn(line: string, next: string, analyzer: Analyzer): boolean {
  if (/[.!?:;…]["”’)\]]*$/.test(line)) return false;
  if (/[,\-–—(]$/.test(line) || /^[\p{Ll}\p{N}]/u.test(next)) return true;
  const last = analyzer.tokenize(line).at(-1);
  return last !== undefined && analyzer.processTerm(last) === null;
}

/** A part's text as quotable passages: its sentences, each within MAX_PASSAGE characters. */
function passagesOf(text: string, language: string): string[] {
  const analyzer = analyzerFor(language);
  const units: string[] = [];
  for (const paragraph of text.split(/\n\s*\n/)) {
    const lines = paragraph
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    let unit = '';
    for (const [i, line] of lines.entries()) {
      unit = unit ? `${unit} ${line}` : line;
      const next = lines[i + 1];
      if (next === undefined || !runsOn(line, next, analyzer)) {
        units.push(unit);
        unit = '';
      }
    }
  }
  const sentences = units.flatMap((unit) => [...segmenter(language).segment(unit)].map((s) => s.segment.trim()));
  return sentences.filter(Boolean).flatMap((sentence) => {
    if (sentence.length <= MAX_PASSAGE) return [sentence];
    const pieces: string[] = [];
    let piece = '';
    for (const word of sentence.split(/\s+/)) {
      if (piece && piece.length + word.length + 1 > MAX_PASSAGE) {
        pieces.push(piece);
        piece = '';
      }
      piece = piece ? `${piece} ${word}` : word;
    }
    if (piece) pieces.push(piece);
    return pieces;
  });
}

interface DocumentPassage extends Passage {
  label: string;
}

/**
 * The passages of the documents that best answer a question (BM25+ over their sentences, the same retrieval and the
 * same bar as the notes), best first, at most `limit`; none when no passage answers it. `language`: the person's,
 * whose stop words and stemmer are used where Kasa has them (English otherwise).
 */
export function quotesFor(
  question: string,
  documents: AttachedDocument[],
  language = 'en',
  limit = 3,
): DocumentQuote[] {
  if (documents.length === 0) return [];
  // A person's document is most likely in their language; where Kasa has no analyzer for it, English's.
  const analysis = analyzerFor(language).language === 'und' ? 'en' : language;
  const passages: DocumentPassage[] = documents.flatMap((doc, d) =>
    doc.parts.flatMap((part, p) =>
      passagesOf(part.text, analysis).map((text, i) => ({ id: `${d}:${p}:${i}`, text, label: part.label })),
    ),
  );
  const index = new PassageIndex(passages, analysis);
  const hits = index.search(question, language).filter((h) => h.relevance >= MIN_RELEVANCE);
  const best = hits[0];
  if (!best) return [];
  const quotes = new Map<string, DocumentQuote>();
  for (const hit of hits.filter((h) => h.score >= best.score * NEAR_BEST)) {
    // A line repeated on every page (a header) is quoted once, with its first page.
    if (!quotes.has(hit.passage.text))
      quotes.set(hit.passage.text, { text: hit.passage.text, label: hit.passage.label, relevance: hit.relevance });
  }
  return [...quotes.values()].slice(0, limit);
}
