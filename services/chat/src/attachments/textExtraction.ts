// Runs in the attachment worker (see attachmentWorker.ts): the shared packages are imported for their types only.
import { LimitExceeded, type FileLimits } from './fileLimits';
import { checkZip } from './zipLimits';

/** A page (PDF) or section (DOCX, text, markdown) of a document's text, numbered from 1, for citations. */
export interface TextPart {
  n: number;
  text: string;
}

/** What was read from a document: its parts in order, cut at ATTACHMENT_LIMITS.extractedChars (`extractedChars`). */
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

/**
 * Keeps parts in order until `maxChars`, fed one part at a time so that a reader can stop as soon as the bound is
 * reached; empty parts are dropped but keep their numbers (page 3 stays page 3).
 */
class BoundedText {
  private readonly parts: TextPart[] = [];
  private characters = 0;
  private truncated = false;
  private seen = 0;

  constructor(
    private readonly unit: ExtractedText['unit'],
    private readonly maxChars: number,
  ) {}

  /** Adds the next part; false once the text is cut (nothing after it is kept, so there is no need to read on). */
  add(raw: string): boolean {
    this.seen += 1;
    const text = tidy(raw);
    if (!text) return true;
    const room = this.maxChars - this.characters;
    if (room <= 0) {
      this.truncated = true;
      return false;
    }
    const kept = text.length > room ? text.slice(0, room) : text;
    this.parts.push({ n: this.seen, text: kept });
    this.characters += kept.length;
    if (kept.length < text.length) this.truncated = true;
    return !this.truncated;
  }

  /** `count`: the parts the document has, read or not. */
  result(count = this.seen): ExtractedText {
    return { unit: this.unit, parts: this.parts, count, characters: this.characters, truncated: this.truncated };
  }
}

function bounded(unit: ExtractedText['unit'], texts: string[], maxChars: number): ExtractedText {
  const text = new BoundedText(unit, maxChars);
  for (const raw of texts) if (!text.add(raw)) break;
  return text.result(texts.length);
}

/** A page's text as pdf.js gives it (unpdf's reading of a page): its runs in order, a newline where a line ends. */
const pageText = (items: Array<{ str?: string; hasEOL?: boolean }>): string =>
  items
    .filter((item) => item.str != null)
    .map((item) => item.str + (item.hasEOL ? '\n' : ''))
    .join('');

/**
 * A PDF's text, page by page (pdf.js through unpdf). The page count comes from the page tree before any page is read,
 * and a PDF with more than `pdfPages` pages is refused; then pages are read one at a time, each released before the
 * next, until the text reaches `extractedChars`. A scanned PDF has no text: its parts are empty.
 */
export async function extractPdfText(
  bytes: Uint8Array,
  limits: Pick<FileLimits, 'pdfPages' | 'extractedChars'>,
): Promise<ExtractedText> {
  const { getDocumentProxy } = await loadUnpdf();
  // pdf.js takes ownership of (and may detach) the buffer it reads: it gets a copy.
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  try {
    if (pdf.numPages > limits.pdfPages)
      throw new LimitExceeded({ limit: 'pdfPages', max: limits.pdfPages, found: pdf.numPages });
    const text = new BoundedText('page', limits.extractedChars);
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      try {
        if (!text.add(pageText((await page.getTextContent()).items as Array<{ str?: string; hasEOL?: boolean }>)))
          break;
      } finally {
        page.cleanup();
      }
    }
    return text.result(pdf.numPages);
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
 * are what a reader can find again. The archive is walked first (checkZip: entries, unpacked bytes, compression
 * ratio, counted while inflating); mammoth, which holds it all in memory, only reads what passed. Pictures are not
 * read at all. Mammoth's HTML is regular (one element per paragraph), so tags are simply removed.
 */
export async function extractDocxText(
  bytes: Uint8Array,
  limits: Pick<FileLimits, 'docxEntries' | 'docxUnpackedBytes' | 'docxCompressionRatio' | 'extractedChars'>,
): Promise<ExtractedText> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  await checkZip(buffer, limits);
  const reader = await loadMammoth();
  const { value: html } = await reader.convertToHtml(
    { buffer },
    // The default turns every picture into a base64 data URL in the HTML: bytes read, grown by a third, then dropped.
    { convertImage: reader.images.imgElement(async () => ({ src: '' })) },
  );
  const sections = html
    .split(/(?=<h[1-6][\s>])/i)
    .map((section) => decodeEntities(section.replace(/<\/(p|h[1-6]|li|tr)>/gi, '\n').replace(/<[^>]*>/g, '')));
  return bounded('section', sections, limits.extractedChars);
}

/** Plain text is one section; markdown has a section per heading (`#` to `######` at the start of a line). */
export function extractPlainText(
  bytes: Uint8Array,
  mediaType: 'text/plain' | 'text/markdown',
  limits: Pick<FileLimits, 'extractedChars'>,
): ExtractedText {
  const text = new TextDecoder('utf-8').decode(bytes).replace(/\r\n?/g, '\n');
  return bounded(
    'section',
    mediaType === 'text/markdown' ? text.split(/\n(?=#{1,6} )/) : [text],
    limits.extractedChars,
  );
}

/**
 * The text of a document of an accepted type, within `limits`: throws LimitExceeded for a document past one, another
 * error for one that cannot be read (damaged, encrypted).
 */
export async function extractText(bytes: Uint8Array, mediaType: string, limits: FileLimits): Promise<ExtractedText> {
  if (mediaType === 'application/pdf') return extractPdfText(bytes, limits);
  if (mediaType === 'text/plain' || mediaType === 'text/markdown') return extractPlainText(bytes, mediaType, limits);
  return extractDocxText(bytes, limits);
}
