import { makePdf, makeZip } from '@kasa/test-kit';

/**
 * Files made to cost their reader far more than their size, for the isolation tests and bench: a Word document that
 * unpacks a thousand times over (a "zip bomb" in DOCX clothing) and a PDF with thousands of pages. Both are valid
 * files of their kind, so the chat service recognises them from their bytes and has to decide, while reading them,
 * that they are too costly.
 */

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const WORD = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const RELATIONSHIPS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const OFFICE_DOCUMENT = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/**
 * A Word document whose `word/document.xml` is `unpackedBytes` (about) of one paragraph repeated: valid Office Open
 * XML that deflate packs about a thousand to one (8 MB of text in about 8 KB). Nothing about it is malformed; only
 * reading it costs far more than its size.
 */
export function makeDocxBomb(unpackedBytes = 8 * 1024 * 1024): Buffer {
  const paragraph = '<w:p><w:r><w:t>Akwaaba. Kasa reads this sentence again and again and again.</w:t></w:r></w:p>';
  const head = `${XML_HEAD}<w:document xmlns:w="${WORD}"><w:body>`;
  const foot = '</w:body></w:document>';
  const repeats = Math.max(1, Math.ceil((unpackedBytes - head.length - foot.length) / paragraph.length));
  const files = {
    '[Content_Types].xml':
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
      `<Default Extension="xml" ContentType="application/xml"/>` +
      `<Override PartName="/word/document.xml" ` +
      `ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    '_rels/.rels':
      `${XML_HEAD}<Relationships xmlns="${RELATIONSHIPS}">` +
      `<Relationship Id="rId1" Type="${OFFICE_DOCUMENT}/officeDocument" Target="word/document.xml"/></Relationships>`,
    'word/document.xml': head + paragraph.repeat(repeats) + foot,
  };
  const parts = Object.entries(files).map(([name, xml]) => ({ name, data: Buffer.from(xml, 'utf8') }));
  return makeZip(parts, { deflate: true });
}

/** A real PDF of `pages` pages (one short line each, with its own content stream): about 250 bytes a page. */
export function makeManyPagePdf(pages = 2_000): Buffer {
  return makePdf(Array.from({ length: pages }, (_, i) => `Page ${i + 1} of ${pages}.`));
}
