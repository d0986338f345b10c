// Loaded by the attachment worker: type imports only from the shared packages, so that a worker thread does not load
// the contracts' schemas or the service kit (and their memory) to read one file.
import type { ATTACHMENT_PROCESSING_LIMITS } from '@kasa/contracts';

/** What reading one file may cost, and how the pool that reads files is sized (defaults: ATTACHMENT_PROCESSING_LIMITS). */
export type ProcessingSettings = { [K in keyof typeof ATTACHMENT_PROCESSING_LIMITS]: number };

/** The limits a worker checks while it reads a file, and the most text it keeps (ATTACHMENT_LIMITS.extractedChars). */
export type FileLimits = Pick<
  ProcessingSettings,
  'docxEntries' | 'docxUnpackedBytes' | 'docxCompressionRatio' | 'pdfPages' | 'imagePixels'
> & { extractedChars: number };

/** The limits a file can run into: those checked while reading, and the job's time and memory. */
export type LimitName = Exclude<keyof FileLimits, 'extractedChars'> | 'jobMs' | 'workerMemoryMb';

/** Which limit a file ran into: its maximum, and what the file has where that was read (pages, pixels...). */
export interface Refusal {
  limit: LimitName;
  max: number;
  found?: number;
  /** Images: their size, for the message. */
  width?: number;
  height?: number;
}

/**
 * Thrown in a worker by a check that found a file past a limit; the worker answers it as data (an error's class does
 * not survive the trip between threads).
 */
export class LimitExceeded extends Error {
  constructor(readonly refusal: Refusal) {
    super(`past the ${refusal.limit} limit (${refusal.max})`);
    this.name = 'LimitExceeded';
  }
}
