import { ATTACHMENT_LIMITS, ATTACHMENT_PROCESSING_LIMITS } from '@kasa/contracts';
import type { Logger } from '@kasa/service-kit';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Piscina } from 'piscina';
import type { AttachmentJob, AttachmentJobResult } from './attachmentWorker';
import type { FileLimits, ProcessingSettings, Refusal } from './fileLimits';
import { AttachmentsBusyError, FileTooComplexError } from './processingErrors';
import type { ExtractedText } from './textExtraction';

/** How much lower than the service's the workers' CPU priority is (Linux nice; see the pool's options). */
const WORKER_NICE = 5;

/**
 * The worker piscina runs: the compiled attachmentWorker.js beside this module's own compiled file. The service and
 * the integration tests run dist/, where it is; unit tests run src/ through swc, where there is no .js to start a
 * thread with, so the pool is tested from dist (services/chat/test/attachmentProcessor.test.ts).
 */
export const ATTACHMENT_WORKER_FILE = path.join(__dirname, 'attachmentWorker.js');

/** What reading a file gave, with its bytes back from the worker. */
export interface ProcessedFile {
  /** The file's bytes (the ones given to `process`, back from the worker). */
  bytes: Buffer;
  sha256: string;
  /** Documents: their text, when it could be read. */
  text?: ExtractedText;
  /** Images: their size when sharp could read it, and a thumbnail when it could make one. */
  width?: number;
  height?: number;
  thumbnail?: Buffer;
}

/** The Node error of a worker that ran out of its `resourceLimits`. */
const OUT_OF_MEMORY = 'ERR_WORKER_OUT_OF_MEMORY';

interface Waiting {
  admit: () => void;
  refuse: (err: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * Reads attachments (documents' text, images' size and thumbnail) in a bounded pool of worker threads, off the
 * service's event loop: `minThreads` to `maxThreads` threads, at most `maxQueue` files waiting (each for at most
 * `queueWaitMs`), a time limit per file (`jobMs`, after which its worker is stopped and replaced) and a memory limit per
 * worker (`workerMemoryMb` of V8 old generation; a worker past it dies and is replaced). The file limits (pages,
 * pixels, entries, unpacked bytes, ratio) are checked by the worker while it reads.
 *
 * Files are admitted here rather than queued inside piscina, so that a file's time limit starts when a thread takes
 * it, not while it waits behind others (its wait has its own bound, and a full queue answers 503 at once).
 */
export class AttachmentProcessor {
  private readonly pool: Promise<Piscina<AttachmentJob, AttachmentJobResult>>;
  private readonly fileLimits: FileLimits;
  private running = 0;
  private readonly waiting: Waiting[] = [];
  private closed = false;

  constructor(
    private readonly settings: ProcessingSettings,
    private readonly logger: Logger,
    workerFile = ATTACHMENT_WORKER_FILE,
  ) {
    if (!existsSync(workerFile))
      throw new Error(
        `the attachment worker ${workerFile} is missing: the pool runs the built output (npm run build:ts)`,
      );
    this.fileLimits = {
      docxEntries: settings.docxEntries,
      docxUnpackedBytes: settings.docxUnpackedBytes,
      docxCompressionRatio: settings.docxCompressionRatio,
      pdfPages: settings.pdfPages,
      imagePixels: settings.imagePixels,
      extractedChars: ATTACHMENT_LIMITS.extractedChars,
    };
    // sharp (libvips) is loaded by the main thread before any worker: on glibc Linux, a worker that loads it alone
    // unloads its shared libraries when it ends, and the next worker's sharp then fails (sharp's docs, issue 2263).
    this.pool = import('sharp')
      .catch(() => undefined)
      .then(() => {
        const pool = new Piscina<AttachmentJob, AttachmentJobResult>({
          filename: workerFile,
          minThreads: Math.min(settings.minThreads, settings.maxThreads),
          maxThreads: settings.maxThreads,
          // Never reached: no more than maxThreads files are handed to piscina at once (see admit).
          maxQueue: Math.max(settings.maxQueue, settings.maxThreads),
          concurrentTasksPerWorker: 1,
          idleTimeout: settings.idleTimeoutMs,
          // Reading files yields the CPU to the services' event loops (people waiting on short answers): at nice 5 a
          // worker gets about a quarter of a core that a request wants too, and all of an idle one.
          niceIncrement: WORKER_NICE,
          resourceLimits: {
            maxOldGenerationSizeMb: settings.workerMemoryMb,
            maxYoungGenerationSizeMb: settings.workerYoungMemoryMb,
          },
        });
        // A worker that fails with no file on it (e.g. while starting) is replaced by piscina; it is only logged.
        pool.on('error', (err: unknown) => this.logger.error({ err }, 'attachment worker failed'));
        return pool;
      });
    // Said at once rather than at the first upload (which gets the same error, as a 500).
    this.pool.catch((err: unknown) => this.logger.error({ err }, 'the attachment worker pool could not start'));
  }

  /**
   * Reads an uploaded file in a worker: a document's text (none when it cannot be read: damaged, encrypted), or an
   * image's size and thumbnail (none when sharp cannot read it). Throws FileTooComplexError (422) for a file past a
   * limit (checked while reading, or its time or memory), and AttachmentsBusyError (503) when the pool is full.
   *
   * `bytes` are moved to the worker when they own their memory (an upload's body does), and copied otherwise (a
   * small Buffer shares Node's pool): the caller must use the returned `bytes`, which are the same bytes back.
   */
  async process(bytes: Buffer, kind: 'document' | 'image', mediaType: string): Promise<ProcessedFile> {
    const owned =
      bytes.byteOffset === 0 &&
      bytes.byteLength === bytes.buffer.byteLength &&
      Object.prototype.toString.call(bytes.buffer) === '[object ArrayBuffer]';
    const job = { kind, mediaType, bytes: owned ? bytes : copyOf(bytes), limits: this.fileLimits };
    const { outcome, bytes: back, sha256 } = await this.run(job);
    if (outcome.status === 'refused') throw this.refused(outcome.refusal, mediaType);
    if (!back || !sha256) throw new Error('the attachment worker did not give the bytes back');
    const file: ProcessedFile = { bytes: Buffer.from(back.buffer, back.byteOffset, back.byteLength), sha256 };
    if (outcome.status === 'text') file.text = outcome.text;
    else if (outcome.status === 'unreadable')
      this.logger.info({ mediaType, reason: outcome.reason }, 'no text could be read from a document');
    else {
      const { width, height, thumbnail, problem } = outcome.image;
      if (problem) this.logger.debug({ mediaType, problem }, 'an image without a thumbnail');
      Object.assign(file, { width, height });
      // A Buffer arrives from another thread as a plain Uint8Array.
      if (thumbnail) file.thumbnail = Buffer.from(thumbnail.buffer, thumbnail.byteOffset, thumbnail.byteLength);
    }
    return file;
  }

  /** Files being read and waiting, for tests and logs. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /** Stops the workers (graceful shutdown, after HTTP has drained); files still waiting are answered 503. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const waiting of this.waiting.splice(0)) {
      clearTimeout(waiting.timer);
      waiting.refuse(new AttachmentsBusyError());
    }
    await (await this.pool).destroy();
  }

  private refused(refusal: Refusal, mediaType: string): FileTooComplexError {
    this.logger.info({ mediaType, ...refusal }, 'attachment refused: past a processing limit');
    return new FileTooComplexError(refusal, mediaType);
  }

  private async run(job: AttachmentJob): Promise<AttachmentJobResult> {
    await this.admit();
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new Error('time limit')), this.settings.jobMs);
    try {
      const pool = await this.pool;
      return await pool.run(job, { signal: deadline.signal, transferList: [job.bytes.buffer as ArrayBuffer] });
    } catch (err) {
      // piscina stops the worker of an aborted file and starts another; one past its memory dies and is replaced.
      if (deadline.signal.aborted) {
        this.logger.warn({ kind: job.kind, limitMs: this.settings.jobMs }, 'attachment worker stopped: time limit');
        return { outcome: { status: 'refused', refusal: { limit: 'jobMs', max: this.settings.jobMs } } };
      }
      if ((err as { code?: string })?.code === OUT_OF_MEMORY) {
        this.logger.warn({ kind: job.kind, limitMb: this.settings.workerMemoryMb }, 'attachment worker out of memory');
        return {
          outcome: { status: 'refused', refusal: { limit: 'workerMemoryMb', max: this.settings.workerMemoryMb } },
        };
      }
      throw err;
    } finally {
      clearTimeout(timer);
      this.release();
    }
  }

  /** Takes a thread for one file, or a place in the queue until one is free; AttachmentsBusyError when neither. */
  private admit(): Promise<void> {
    if (this.closed) return Promise.reject(new AttachmentsBusyError());
    if (this.running < this.settings.maxThreads) {
      this.running += 1;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.settings.maxQueue) return Promise.reject(new AttachmentsBusyError());
    return new Promise<void>((admit, refuse) => {
      const waiting: Waiting = {
        admit,
        refuse,
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiting), 1);
          refuse(new AttachmentsBusyError());
        }, this.settings.queueWaitMs),
      };
      this.waiting.push(waiting);
    });
  }

  /** Hands the thread to the next file waiting, or frees it. */
  private release(): void {
    const next = this.waiting.shift();
    if (!next) {
      this.running -= 1;
      return;
    }
    clearTimeout(next.timer);
    next.admit();
  }
}

/** A copy of the bytes in an ArrayBuffer of their own, which can be moved to the worker. */
function copyOf(bytes: Buffer): Buffer {
  const copy = Buffer.allocUnsafeSlow(bytes.byteLength);
  bytes.copy(copy);
  return copy;
}

/** The pool's settings: ATTACHMENT_PROCESSING_LIMITS, with any given (the environment's, see config.ts) instead. */
export const processingSettings = (overrides: Partial<ProcessingSettings> = {}): ProcessingSettings => ({
  ...ATTACHMENT_PROCESSING_LIMITS,
  ...overrides,
});
