// The task of the attachment pool's worker threads (piscina loads the built attachmentWorker.js and calls its
// default export once per file). It imports only what reading a file needs: no database, no broker, no logger.
import { createHash } from 'node:crypto';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { LimitExceeded, type FileLimits, type Refusal } from './fileLimits';
import { extractText, type ExtractedText } from './textExtraction';
import { readImage, type ImageFacts } from './thumbnail';

/** One file to read: a document's text, or an image's size and thumbnail. */
export interface AttachmentJob {
  kind: 'document' | 'image';
  mediaType: string;
  /** Moved to the worker (not copied), and moved back with the answer. */
  bytes: Uint8Array;
  limits: FileLimits;
}

/**
 * What reading the file gave. Outcomes are data, not thrown errors: an error's class and fields do not survive the
 * trip between threads, and `refused` must reach the service as exactly which limit and value.
 */
export type JobOutcome =
  | { status: 'text'; text: ExtractedText }
  | { status: 'image'; image: ImageFacts }
  | { status: 'refused'; refusal: Refusal }
  /** A document that cannot be read (damaged, encrypted): kept without text. */
  | { status: 'unreadable'; reason: string };

/** The outcome and, unless the file was refused, its bytes (moved back) and their SHA-256. */
export interface AttachmentJobResult {
  outcome: JobOutcome;
  bytes?: Uint8Array;
  sha256?: string;
}

async function read(job: AttachmentJob): Promise<JobOutcome> {
  try {
    if (job.kind === 'image') return { status: 'image', image: await readImage(job.bytes, job.limits) };
    return { status: 'text', text: await extractText(job.bytes, job.mediaType, job.limits) };
  } catch (err) {
    if (err instanceof LimitExceeded) return { status: 'refused', refusal: err.refusal };
    return { status: 'unreadable', reason: err instanceof Error ? err.message : String(err) };
  }
}

export default async function runAttachmentJob(job: AttachmentJob): Promise<AttachmentJobResult> {
  const outcome = await read(job);
  if (outcome.status === 'refused') return { outcome };
  // Hashed here too: up to 20 MB of SHA-256 is worth keeping off the service's event loop.
  const sha256 = createHash('sha256').update(job.bytes).digest('hex');
  const result: AttachmentJobResult = { outcome, bytes: job.bytes, sha256 };
  // The bytes go back the way they came, moved rather than copied; what arrives is `result`.
  return move({ [transferableSymbol]: [job.bytes.buffer], [valueSymbol]: result }) as unknown as AttachmentJobResult;
}
