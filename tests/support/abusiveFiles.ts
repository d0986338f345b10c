import { makePdf } from '@kasa/test-kit';
import { crc32, deflateRawSync } from 'node:zlib';

/**
 * Files made to cost their reader far more than their size, for the isolation tests and bench: a Word document that
 * unpacks a thousand times over (a "zip bomb" in DOCX clothing) and a PDF with thousands of pages. Both are valid
 * files of their kind, so the chat service recognises them from their bytes and has to decide, while reading them,
 * that they are too costly.
 */

/** A ZIP archive of `files`, in order, each deflated at the highest level, with a central directory. */
function deflatedZip(files: { name: string; data: Buffer }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of files) {
    const fileName = Buffer.from(name, 'utf8');
    const packed = deflateRawSync(data, { level: 9 });
    // Version 2.0, no flags, deflate (8), 1980-01-01 00:00, CRC-32, packed and unpacked sizes, name length, no extra.
    const fields = Buffer.alloc(26);
    fields.writeUInt16LE(20, 0);
    fields.writeUInt16LE(8, 4);
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
  return deflatedZip(Object.entries(files).map(([name, xml]) => ({ name, data: Buffer.from(xml, 'utf8') })));
}

/** A real PDF of `pages` pages (one short line each, with its own content stream): about 250 bytes a page. */
export function makeManyPagePdf(pages = 2_000): Buffer {
  return makePdf(Array.from({ length: pages }, (_, i) => `Page ${i + 1} of ${pages}.`));
}
