import { crc32, deflateRawSync, deflateSync } from 'node:zlib';

/**
 * A real PNG, written out byte by byte (signature, IHDR, IDAT, IEND): `width`×`height` pixels of one RGB colour.
 * For tests that upload an image and need the server to recognise it by its bytes.
 */
export function makePng(width = 4, height = 3, rgb: [number, number, number] = [200, 40, 40]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A real PDF with one page per string (Helvetica, one line each), with a correct cross-reference table. */
export function makePdf(pages: string[]): Buffer {
  const escape = (text: string) => text.replace(/([()\\])/g, '\\$1');
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 4 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  pages.forEach((text, i) => {
    const stream = `BT /F1 18 Tf 72 720 Td (${escape(text)}) Tj ET`;
    objects[4 + i * 2] =
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] ' +
      `/Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`;
    objects[5 + i * 2] = `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`;
  });
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = Buffer.byteLength(body, 'latin1');
    body += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) body += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A ZIP archive of `files`, in order, each stored as is (method 0), with a central directory. */
/**
 * A ZIP archive of `files`, in order, with a central directory: stored as they are, or deflated at the highest level
 * (`deflate`: what a "zip bomb" needs, a part that unpacks a thousand times over).
 */
export function makeZip(files: { name: string; data: Buffer }[], options: { deflate?: boolean } = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of files) {
    const fileName = Buffer.from(name, 'utf8');
    const packed = options.deflate ? deflateRawSync(data, { level: 9 }) : data;
    // Version 2.0, no flags, stored (0) or deflated (8), 1980-01-01 00:00, CRC-32, sizes, name length, no extra field.
    const fields = Buffer.alloc(26);
    fields.writeUInt16LE(20, 0);
    fields.writeUInt16LE(options.deflate ? 8 : 0, 4);
    fields.writeUInt16LE(0x21, 8);
    fields.writeUInt32LE(crc32(data), 10);
    fields.writeUInt32LE(packed.length, 14);
    fields.writeUInt32LE(data.length, 18);
    fields.writeUInt16LE(fileName.length, 22);
    const local = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), fields, fileName, packed]);
    const tail = Buffer.alloc(14); // no comment, disk 0, no attributes, then where the local header is
    tail.writeUInt32LE(offset, 10);
    centrals.push(Buffer.concat([Buffer.from([0x50, 0x4b, 0x01, 0x02]), Buffer.from([20, 0]), fields, tail, fileName]));
    locals.push(local);
    offset += local.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const xmlText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const RELATIONSHIPS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const OFFICE_DOCUMENT = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const WORD = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const WORD_TYPES = 'application/vnd.openxmlformats-officedocument.wordprocessingml';

/**
 * A real DOCX (Office Open XML, a ZIP written out here): each section a Heading 1 paragraph followed by its
 * paragraphs. Readers that cut a document at its headings (the chat service's) find one part a section.
 */
export function makeDocx(sections: { heading: string; paragraphs: string[] }[]): Buffer {
  const paragraph = (text: string, style?: string) =>
    `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}` +
    `<w:r><w:t xml:space="preserve">${xmlText(text)}</w:t></w:r></w:p>`;
  const body = sections
    .map(({ heading, paragraphs }) => [paragraph(heading, 'Heading1'), ...paragraphs.map((p) => paragraph(p))].join(''))
    .join('');
  const files = {
    // First, as Word writes it: what identifies the package as a Word document.
    '[Content_Types].xml':
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
      `<Default Extension="xml" ContentType="application/xml"/>` +
      `<Override PartName="/word/document.xml" ContentType="${WORD_TYPES}.document.main+xml"/>` +
      `<Override PartName="/word/styles.xml" ContentType="${WORD_TYPES}.styles+xml"/></Types>`,
    '_rels/.rels':
      `${XML_HEAD}<Relationships xmlns="${RELATIONSHIPS}">` +
      `<Relationship Id="rId1" Type="${OFFICE_DOCUMENT}/officeDocument" Target="word/document.xml"/></Relationships>`,
    'word/_rels/document.xml.rels':
      `${XML_HEAD}<Relationships xmlns="${RELATIONSHIPS}">` +
      `<Relationship Id="rId1" Type="${OFFICE_DOCUMENT}/styles" Target="styles.xml"/></Relationships>`,
    // The style's name ("heading 1") is what readers map to a heading.
    'word/styles.xml':
      `${XML_HEAD}<w:styles xmlns:w="${WORD}">` +
      `<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style></w:styles>`,
    'word/document.xml': `${XML_HEAD}<w:document xmlns:w="${WORD}"><w:body>${body}</w:body></w:document>`,
  };
  return makeZip(Object.entries(files).map(([name, xml]) => ({ name, data: Buffer.from(xml, 'utf8') })));
}
