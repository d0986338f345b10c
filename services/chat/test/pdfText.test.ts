/**
 * Reading PDFs within the page limit, on the built output (pdf.js is an ES module that jest's sandbox cannot load from
 * src, while the built code gets Node's own import, as in production). In-process: the worker pool is tested in
 * attachmentProcessor.test.ts.
 */
import { makePdf } from '@kasa/test-kit';
import { LimitExceeded, type FileLimits, type Refusal } from '../src/attachments/fileLimits';
import { extractPdfText, extractText } from '../src/attachments/textExtraction';

const LIMITS: FileLimits = {
  docxEntries: 1_000,
  docxUnpackedBytes: 50 * 1024 * 1024,
  docxCompressionRatio: 100,
  pdfPages: 1_000,
  imagePixels: 40_000_000,
  extractedChars: 200_000,
};

/**
 * A PDF of `pages` pages written out here in minimal PDF syntax: every page shows the same line from one shared
 * content stream, as the small many-page PDFs that held the service up did (2,000 pages in about 300 KB).
 */
function manyPagePdf(pages: number, line = 'The same line on every page.'): Buffer {
  const stream = `BT /F1 12 Tf 72 720 Td (${line}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${Array.from({ length: pages }, (_, i) => `${5 + i} 0 R`).join(' ')}] /Count ${pages} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    ...Array.from(
      { length: pages },
      () =>
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>',
    ),
  ];
  let body = '%PDF-1.4\n';
  const offsets = objects.map((object, i) => {
    const offset = body.length;
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

async function refusalOf(reading: Promise<unknown>): Promise<Refusal> {
  const outcome = await reading.then(
    () => new Error('the document was read'),
    (err: unknown) => err,
  );
  if (outcome instanceof LimitExceeded) return outcome.refusal;
  throw outcome;
}

describe('extractPdfText', () => {
  it('reads a PDF page by page', async () => {
    const text = await extractPdfText(makePdf(['Cocoa exports rose.', '', 'Gold output fell.']), LIMITS);
    expect(text).toEqual({
      unit: 'page',
      parts: [
        { n: 1, text: 'Cocoa exports rose.' },
        { n: 3, text: 'Gold output fell.' },
      ],
      count: 3,
      characters: 36,
      truncated: false,
    });
  });

  it('refuses a PDF with more pages than allowed, from its page tree, before reading any page', async () => {
    const pdf = manyPagePdf(2_000);
    // The size of the 2,000-page PDF that held the service up for 2.5 to 3.7 seconds.
    expect(pdf.length).toBeLessThan(350_000);
    expect(await refusalOf(extractPdfText(pdf, LIMITS))).toEqual({ limit: 'pdfPages', max: 1_000, found: 2_000 });
    expect(await refusalOf(extractPdfText(manyPagePdf(4), { ...LIMITS, pdfPages: 3 }))).toEqual({
      limit: 'pdfPages',
      max: 3,
      found: 4,
    });
  });

  it('reads a PDF at the page limit', async () => {
    const text = await extractPdfText(manyPagePdf(3), { ...LIMITS, pdfPages: 3 });
    expect(text.parts.map((part) => part.n)).toEqual([1, 2, 3]);
    expect(text.count).toBe(3);
  });

  it('stops reading pages once the text reaches its bound, and says the text was cut', async () => {
    const line = 'x'.repeat(40);
    const text = await extractPdfText(manyPagePdf(50, line), { ...LIMITS, extractedChars: 100 });
    expect(text.parts).toEqual([
      { n: 1, text: line },
      { n: 2, text: line },
      { n: 3, text: 'x'.repeat(20) },
    ]);
    expect(text).toMatchObject({ count: 50, characters: 100, truncated: true });
  });

  it('fails (not a limit) on a damaged PDF', async () => {
    const outcome = await extractPdfText(Buffer.from('%PDF-1.4\nnothing here'), LIMITS).catch((err: unknown) => err);
    // pdf.js's own error, from Node's module loader (another realm than the test's Error).
    expect(outcome).toMatchObject({ name: 'InvalidPDFException' });
    expect(outcome).not.toBeInstanceOf(LimitExceeded);
  });
});

describe('extractText', () => {
  it('reads a PDF as pages, within the page limit', async () => {
    await expect(extractText(manyPagePdf(2), 'application/pdf', LIMITS)).resolves.toMatchObject({ unit: 'page' });
    expect(await refusalOf(extractText(manyPagePdf(2), 'application/pdf', { ...LIMITS, pdfPages: 1 }))).toMatchObject({
      limit: 'pdfPages',
    });
  });
});
