import { makeDocx, makePng } from '@kasa/test-kit';
import JSZip from 'jszip';
import { createHash } from 'node:crypto';
import { valueSymbol } from 'piscina';
import runAttachmentJob, { type AttachmentJob, type AttachmentJobResult } from './attachmentWorker';
import type { FileLimits } from './fileLimits';

const LIMITS: FileLimits = {
  docxEntries: 1_000,
  docxUnpackedBytes: 50 * 1024 * 1024,
  docxCompressionRatio: 100,
  pdfPages: 1_000,
  imagePixels: 40_000_000,
  extractedChars: 200_000,
};
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** Runs the worker's task in this thread; what piscina would post back (the value of a moved answer). */
async function run(job: Omit<AttachmentJob, 'limits'>, limits = LIMITS): Promise<AttachmentJobResult> {
  const answer = (await runAttachmentJob({ ...job, limits })) as unknown as Record<symbol, unknown>;
  return (valueSymbol in answer ? answer[valueSymbol] : answer) as AttachmentJobResult;
}

describe('the attachment worker’s task', () => {
  it('answers a document’s text with its bytes and their SHA-256', async () => {
    const docx = makeDocx([{ heading: 'Markets', paragraphs: ['Kejetia.'] }]);
    const result = await run({ kind: 'document', mediaType: DOCX, bytes: docx });
    expect(result.outcome).toMatchObject({ status: 'text', text: { unit: 'section', characters: 16 } });
    expect(Buffer.from(result.bytes!).equals(docx)).toBe(true);
    expect(result.sha256).toBe(createHash('sha256').update(docx).digest('hex'));
  });

  it('answers an image’s size and thumbnail', async () => {
    const result = await run({ kind: 'image', mediaType: 'image/png', bytes: makePng(40, 30) });
    expect(result.outcome).toMatchObject({ status: 'image', image: { width: 40, height: 30 } });
    expect(result.outcome.status === 'image' && result.outcome.image.thumbnail?.length).toBeGreaterThan(0);
  });

  it('answers which limit a file ran into, as data, and gives no bytes back', async () => {
    const zip = new JSZip();
    zip.file('word/document.xml', '<w:p>Akwaaba</w:p>'.repeat(200_000));
    const bomb = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    expect(await run({ kind: 'document', mediaType: DOCX, bytes: bomb })).toEqual({
      outcome: { status: 'refused', refusal: { limit: 'docxCompressionRatio', max: 100 } },
    });
    expect(
      await run({ kind: 'image', mediaType: 'image/png', bytes: makePng(10, 10) }, { ...LIMITS, imagePixels: 99 }),
    ).toEqual({
      outcome: { status: 'refused', refusal: { limit: 'imagePixels', max: 99, found: 100, width: 10, height: 10 } },
    });
  });

  it('answers a damaged document as unreadable, with its bytes (it is kept without text)', async () => {
    const damaged = Buffer.from('PK\u0003\u0004 not a whole archive');
    const result = await run({ kind: 'document', mediaType: DOCX, bytes: damaged });
    expect(result.outcome).toMatchObject({ status: 'unreadable', reason: expect.any(String) });
    expect(Buffer.from(result.bytes!).equals(damaged)).toBe(true);
  });
});
