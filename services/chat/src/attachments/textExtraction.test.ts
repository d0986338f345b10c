import { makeDocx } from '@kasa/test-kit';
import JSZip from 'jszip';
import { LimitExceeded, type FileLimits, type Refusal } from './fileLimits';
import { extractDocxText, extractPlainText, extractText } from './textExtraction';

const MB = 1024 * 1024;
const LIMITS: FileLimits = {
  docxEntries: 1_000,
  docxUnpackedBytes: 50 * MB,
  docxCompressionRatio: 100,
  pdfPages: 1_000,
  imagePixels: 40_000_000,
  extractedChars: 200_000,
};
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

// PDFs are read by pdf.js, an ES module that jest's sandbox cannot import from src: their tests run on the built
// output, in services/chat/test/pdfText.test.ts.

/** A Word document (as Word lays one out, zipped by jszip) whose document.xml repeats `paragraph` `times` times. */
async function repeatedDocx(paragraph: string, times: number): Promise<Buffer> {
  const zip = new JSZip();
  const main = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
  const rels = 'http://schemas.openxmlformats.org/package/2006/relationships';
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      `<Override PartName="/word/document.xml" ContentType="${DOCX}.main+xml"/></Types>`,
  );
  zip.file(
    '_rels/.rels',
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${rels}"><Relationship Id="rId1" ` +
      'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" ' +
      'Target="word/document.xml"/></Relationships>',
  );
  const body = `<w:p><w:r><w:t xml:space="preserve">${paragraph}</w:t></w:r></w:p>`.repeat(times);
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${main}"><w:body>${body}</w:body></w:document>`,
  );
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 9 } });
}

async function refusalOf(reading: Promise<unknown>): Promise<Refusal> {
  const outcome = await reading.then(
    () => new Error('the document was read'),
    (err: unknown) => err,
  );
  if (outcome instanceof LimitExceeded) return outcome.refusal;
  throw outcome;
}

describe('extractDocxText', () => {
  it('reads a Word document section by section (a section starts at each heading)', async () => {
    const docx = makeDocx([
      { heading: 'Markets', paragraphs: ['Kejetia is one of the largest markets in West Africa.'] },
      { heading: 'Transport', paragraphs: ['Trotros leave from Kejetia station.'] },
    ]);
    const text = await extractDocxText(docx, LIMITS);
    expect(text.parts).toEqual([
      { n: 1, text: 'Markets\nKejetia is one of the largest markets in West Africa.' },
      { n: 2, text: 'Transport\nTrotros leave from Kejetia station.' },
    ]);
    expect(text).toMatchObject({ unit: 'section', count: 2, truncated: false });
  });

  it('refuses a document.xml of megabytes of repeated text packed into kilobytes, before mammoth reads it', async () => {
    const bomb = await repeatedDocx('All work and no play makes Jack a dull boy. ', 50_000);
    expect(bomb.length).toBeLessThan(40 * 1024);
    expect(await refusalOf(extractDocxText(bomb, LIMITS))).toEqual({ limit: 'docxCompressionRatio', max: 100 });
    expect(
      await refusalOf(extractDocxText(bomb, { ...LIMITS, docxCompressionRatio: 1e6, docxUnpackedBytes: MB })),
    ).toEqual({ limit: 'docxUnpackedBytes', max: MB });
  });

  it('reads the same document when the limits allow it, keeping at most extractedChars characters', async () => {
    const docx = await repeatedDocx('All work and no play makes Jack a dull boy. ', 2_000);
    const text = await extractDocxText(docx, { ...LIMITS, docxCompressionRatio: 1e6, extractedChars: 1_000 });
    expect(text).toMatchObject({ characters: 1_000, truncated: true });
  });

  it('fails (not a limit) on a damaged Word document', async () => {
    const outcome = await extractDocxText(Buffer.from('PK\u0003\u0004 damaged'), LIMITS).catch((err: unknown) => err);
    expect(outcome).toBeInstanceOf(Error);
    expect(outcome).not.toBeInstanceOf(LimitExceeded);
  });
});

describe('extractPlainText and extractText', () => {
  it('reads markdown per heading and plain text as one section, within extractedChars', async () => {
    const markdown = extractPlainText(
      Buffer.from('# Akwaaba\nWelcome.\n\n# Adinkra\nSymbols.'),
      'text/markdown',
      LIMITS,
    );
    expect(markdown.parts.map((part) => part.text)).toEqual(['# Akwaaba\nWelcome.', '# Adinkra\nSymbols.']);
    const cut = extractPlainText(Buffer.from('Medaase paa.'), 'text/plain', { extractedChars: 7 });
    expect(cut).toMatchObject({ parts: [{ n: 1, text: 'Medaase' }], characters: 7, truncated: true });
  });

  it('picks the reader by media type', async () => {
    await expect(extractText(Buffer.from('Hi'), 'text/plain', LIMITS)).resolves.toMatchObject({ characters: 2 });
    await expect(extractText(Buffer.from('# A\nb'), 'text/markdown', LIMITS)).resolves.toMatchObject({ count: 1 });
    await expect(extractText(makeDocx([{ heading: 'A', paragraphs: ['b'] }]), DOCX, LIMITS)).resolves.toMatchObject({
      unit: 'section',
    });
  });
});
