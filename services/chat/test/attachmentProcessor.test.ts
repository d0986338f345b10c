/**
 * The attachment pool on the built output (its worker is the compiled attachmentWorker.js, as in production): real
 * files through the real worker, and the pool's own limits (time, memory, queue) with a worker that wraps the real one
 * and can also hang or eat memory on purpose, so that those limits are shown without depending on how fast this
 * machine reads a file.
 */
import { makeDocx, makePdf, makePng } from '@kasa/test-kit';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  ATTACHMENT_WORKER_FILE,
  AttachmentProcessor,
  processingSettings,
} from '../src/attachments/attachmentProcessor';
import type { ProcessingSettings } from '../src/attachments/fileLimits';
import { AttachmentsBusyError, FileTooComplexError } from '../src/attachments/processingErrors';
import { eventually, logger } from './support';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
/** Media types the wrapping worker acts on itself; any other goes to the real worker. */
const HANG = 'test/hang';
const HOG = 'test/hog';

const folder = mkdtempSync(path.join(tmpdir(), 'kasa-attachment-worker-'));
const WRAPPING_WORKER = path.join(folder, 'wrappingWorker.js');
writeFileSync(
  WRAPPING_WORKER,
  `const real = require(${JSON.stringify(ATTACHMENT_WORKER_FILE)}).default;
module.exports = async (job) => {
  if (job.mediaType === ${JSON.stringify(HANG)}) for (;;);
  if (job.mediaType === ${JSON.stringify(HOG)}) { const kept = []; for (;;) kept.push(new Array(100000).fill(kept.length)); }
  return real(job);
};
`,
);

const processors: AttachmentProcessor[] = [];
function pool(settings: Partial<ProcessingSettings> = {}, workerFile = ATTACHMENT_WORKER_FILE): AttachmentProcessor {
  const processor = new AttachmentProcessor(processingSettings(settings), logger, workerFile);
  processors.push(processor);
  return processor;
}
afterAll(async () => {
  await Promise.all(processors.map((processor) => processor.close()));
  rmSync(folder, { recursive: true, force: true });
});

/** The bytes in memory of their own, as an upload's body is (a small Buffer.from shares Node's pool). */
const fresh = (bytes: Buffer): Buffer => Buffer.from(new Uint8Array(bytes).buffer);
const outcomeOf = (work: Promise<unknown>) =>
  work.then(
    () => 'read',
    (err: unknown) => err,
  );

describe('the attachment pool', () => {
  it('reads documents and images in a worker and gives their bytes back', async () => {
    const processor = pool();
    const pdf = fresh(makePdf(['Cocoa exports rose.', 'Gold output fell.']));
    const read = await processor.process(pdf, 'document', 'application/pdf');
    expect(read.text).toMatchObject({ unit: 'page', count: 2, characters: 36 });
    expect(read.bytes.equals(makePdf(['Cocoa exports rose.', 'Gold output fell.']))).toBe(true);
    expect(read.sha256).toMatch(/^[0-9a-f]{64}$/);
    // The body was moved to the worker rather than copied: the caller's Buffer is empty now.
    expect(pdf.length).toBe(0);

    const docx = await processor.process(
      makeDocx([{ heading: 'Adinkra', paragraphs: ['Symbols.'] }]),
      'document',
      DOCX,
    );
    expect(docx.text).toMatchObject({ unit: 'section', characters: 16 });
    const image = await processor.process(makePng(40, 30), 'image', 'image/png');
    expect(image).toMatchObject({ width: 40, height: 30 });
    expect(Buffer.isBuffer(image.thumbnail)).toBe(true);
    expect(processor.load).toEqual({ running: 0, waiting: 0 });
  });

  it('keeps a damaged document with no text, and refuses one past a limit with 422 naming it', async () => {
    const processor = pool({ pdfPages: 2 });
    const damaged = await processor.process(Buffer.from('PK\u0003\u0004 damaged'), 'document', DOCX);
    expect(damaged.text).toBeUndefined();
    expect(damaged.bytes.toString()).toBe('PK\u0003\u0004 damaged');

    const refused = await outcomeOf(processor.process(makePdf(['a', 'b', 'c']), 'document', 'application/pdf'));
    expect(refused).toBeInstanceOf(FileTooComplexError);
    expect(refused).toMatchObject({
      status: 422,
      code: 'file_too_complex',
      message: 'This PDF has 3 pages; PDFs may have at most 2 pages.',
      details: { limit: 'pdfPages', max: 2, found: 3 },
    });
  });

  it('stops a file past the time limit, replaces its worker, and reads the next file', async () => {
    const processor = pool({ jobMs: 3_000, minThreads: 1, maxThreads: 1 }, WRAPPING_WORKER);
    const refused = await outcomeOf(processor.process(Buffer.from('x'), 'document', HANG));
    expect(refused).toBeInstanceOf(FileTooComplexError);
    expect(refused).toMatchObject({ status: 422, details: { limit: 'jobMs', max: 3_000 } });
    expect((refused as Error).message).toMatch(/took longer than 3 seconds, the most one file may take/);

    const next = await processor.process(Buffer.from('Medaase.'), 'document', 'text/plain');
    expect(next.text).toMatchObject({ characters: 8 });
  });

  it('stops a worker past its memory limit, replaces it, and reads the next file', async () => {
    const processor = pool({ workerMemoryMb: 32, minThreads: 1, maxThreads: 1 }, WRAPPING_WORKER);
    const refused = await outcomeOf(processor.process(Buffer.from('x'), 'document', HOG));
    expect(refused).toBeInstanceOf(FileTooComplexError);
    expect(refused).toMatchObject({ status: 422, details: { limit: 'workerMemoryMb', max: 32 } });
    expect((refused as Error).message).toMatch(/needed more than 32 MB of memory/);

    const next = await processor.process(Buffer.from('Medaase.'), 'document', 'text/plain');
    expect(next.text).toMatchObject({ characters: 8 });
  });

  it('answers 503 at once when every thread is busy and the queue is full', async () => {
    const processor = pool({ jobMs: 3_000, minThreads: 1, maxThreads: 1, maxQueue: 1 }, WRAPPING_WORKER);
    const hanging = outcomeOf(processor.process(Buffer.from('x'), 'document', HANG));
    await eventually(() => (processor.load.running === 1 ? true : undefined));
    const queued = processor.process(Buffer.from('Akwaaba.'), 'document', 'text/plain');
    expect(processor.load).toEqual({ running: 1, waiting: 1 });

    const busy = await outcomeOf(processor.process(Buffer.from('One more.'), 'document', 'text/plain'));
    expect(busy).toBeInstanceOf(AttachmentsBusyError);
    expect(busy).toMatchObject({ status: 503, retryAfterSeconds: 5 });

    // The queued file is read once the hanging one is stopped.
    expect(await hanging).toMatchObject({ details: { limit: 'jobMs' } });
    await expect(queued).resolves.toMatchObject({ text: { characters: 8 } });
  });

  it('answers 503 to a file that waited for a thread longer than the queue allows', async () => {
    const processor = pool({ jobMs: 3_000, maxThreads: 1, maxQueue: 5, queueWaitMs: 200 }, WRAPPING_WORKER);
    const hanging = outcomeOf(processor.process(Buffer.from('x'), 'document', HANG));
    await eventually(() => (processor.load.running === 1 ? true : undefined));
    const waited = await outcomeOf(processor.process(Buffer.from('Akwaaba.'), 'document', 'text/plain'));
    expect(waited).toBeInstanceOf(AttachmentsBusyError);
    expect(processor.load.waiting).toBe(0);
    await hanging;
  });

  it('answers the files still waiting with 503 when it closes', async () => {
    const processor = pool({ jobMs: 3_000, maxThreads: 1 }, WRAPPING_WORKER);
    const hanging = outcomeOf(processor.process(Buffer.from('x'), 'document', HANG));
    await eventually(() => (processor.load.running === 1 ? true : undefined));
    const waiting = outcomeOf(processor.process(Buffer.from('Akwaaba.'), 'document', 'text/plain'));
    await processor.close();
    expect(await waiting).toBeInstanceOf(AttachmentsBusyError);
    expect(await hanging).toBeInstanceOf(Error);
    expect(await outcomeOf(processor.process(Buffer.from('Later.'), 'document', 'text/plain'))).toBeInstanceOf(
      AttachmentsBusyError,
    );
  });
});
