import { ATTACHMENT_LIMITS } from '@kasa/contracts';

/** A page (PDF) or section (DOCX, text, markdown) of a document's text, numbered from 1, for citations. */
export interface TextPart {
  n: number;
  text: string;
}

/** What was read from a document: its parts in order, cut at ATTACHMENT_LIMITS.extractedChars. */
export interface ExtractedText {
  /** `page` for PDFs, `section` for the others: how a citation names a part. */
  unit: 'page' | 'section';
  parts: TextPart[];
  /** Pages (PDF) or sections the document has, text or not. */
  count: number;
  characters: number;
  /** True when the text went on past the bound and was cut. */
  truncated: boolean;
}

// mammoth (and the zip and XML libraries under it) loads with the first DOCX, not with the service.
const importMammoth = () => import('mammoth').then((module) => module.default);
let mammoth: ReturnType<typeof importMammoth> | undefined;
const loadMammoth = () => (mammoth ??= importMammoth());

// unpdf (pdf.js, serverless build) is ESM-only: Node's import() loads it once.
const importUnpdf = () => import('unpdf');
let unpdf: ReturnType<typeof importUnpdf> | undefined;
const loadUnpdf = () => (unpdf ??= importUnpdf());

/** Whitespace runs made one space, lines kept; what a prompt needs of a page. */
const tidy = (text: string): string =>
  text
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

/** Keeps parts in order until the bound; empty parts are dropped but keep their numbers (page 3 stays page 3). */
function bounded(unit: ExtractedText['unit'], texts: string[]): ExtractedText {
  const parts: TextPart[] = [];
  let characters = 0;
  let truncated = false;
  for (const [index, raw] of texts.entries()) {
    const text = tidy(raw);
    if (!text) continue;
    const room = ATTACHMENT_LIMITS.extractedChars - characters;
    if (room <= 0) {
      truncated = true;
      break;
    }
    const kept = text.length > room ? text.slice(0, room) : text;
    if (kept.length < text.length) truncated = true;
    parts.push({ n: index + 1, text: kept });
    characters += kept.length;
  }
  return { unit, parts, count: texts.length, characters, truncated };
}

/** A PDF's text, page by page (pdf.js through unpdf). A scanned PDF has none: its parts are empty. */
export async function extractPdfText(bytes: Uint8Array): Promise<ExtractedText> {
  const { getDocumentProxy, extractText } = await loadUnpdf();
  // pdf.js takes ownership of (and may detach) the buffer it reads: it gets a copy.
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  try {
    const { text } = await extractText(pdf, { mergePages: false });
    return bounded('page', text);
  } finally {
    await pdf.destroy();
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
const decodeEntities = (html: string): string =>
  html.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, entity: string) => {
    if (entity[0] === '#') {
      const code = entity[1]?.toLowerCase() === 'x' ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return ENTITIES[entity.toLowerCase()] ?? all;
  });

/**
 * A DOCX's text (mammoth), in sections that start at each heading: Word documents have no fixed pages, and headings
 * are what a reader can find again. Mammoth's HTML is regular (one element per paragraph), so tags are simply removed.
 */
export async function extractDocxText(bytes: Uint8Array): Promise<ExtractedText> {
  const { value: html } = await (await loadMammoth()).convertToHtml({ buffer: Buffer.from(bytes) });
  const sections = html
    .split(/(?=<h[1-6][\s>])/i)
    .map((section) => decodeEntities(section.replace(/<\/(p|h[1-6]|li|tr)>/gi, '\n').replace(/<[^>]*>/g, '')));
  return bounded('section', sections);
}

/** Plain text is one section; markdown has a section per heading (`#` to `######` at the start of a line). */
export function extractPlainText(bytes: Uint8Array, mediaType: 'text/plain' | 'text/markdown'): ExtractedText {
  const text = new TextDecoder('utf-8').decode(bytes).replace(/\r\n?/g, '\n');
  return bounded('section', mediaType === 'text/markdown' ? text.split(/\n(?=#{1,6} )/) : [text]);
}

/** The text of a document of an accepted type. */
export async function extractText(bytes: Uint8Array, mediaType: string): Promise<ExtractedText> {
  if (mediaType === 'application/pdf') return extractPdfText(bytes);
  if (mediaType === 'text/plain' || mediaType === 'text/markdown') return extractPlainText(bytes, mediaType);
  return extractDocxText(bytes);
}
