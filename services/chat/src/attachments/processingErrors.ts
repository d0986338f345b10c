import { ErrorCode, formatByteSize } from '@kasa/contracts';
import { HttpError } from '@kasa/service-kit';
import type { Refusal } from './fileLimits';

const count = (n: number) => n.toLocaleString('en-US');
/** "40 megapixels", or "1,000 pixels" below a tenth of a megapixel (limits set that low by a test or an operator). */
const pixelCount = (pixels: number) =>
  pixels >= 100_000 ? `${count(Math.round(pixels / 100_000) / 10)} megapixels` : `${count(pixels)} pixels`;

/** "PDF", "Word document", "image"...: what a person calls the file. */
export function fileNoun(mediaType: string): string {
  if (mediaType === 'application/pdf') return 'PDF';
  if (mediaType.startsWith('application/vnd.openxmlformats')) return 'Word document';
  if (mediaType.startsWith('image/')) return 'image';
  return 'document';
}

/** The sentence that tells a person which limit their file ran into, and what the limit is. */
export function describeRefusal(refusal: Refusal, mediaType: string): string {
  const noun = fileNoun(mediaType);
  const { max, found } = refusal;
  const retry = 'It was not stored; a smaller or simpler file may go through.';
  switch (refusal.limit) {
    case 'docxEntries':
      return `This Word document holds more than ${count(max)} files inside; Word documents may hold at most ${count(max)}.`;
    case 'docxUnpackedBytes':
      return (
        `This Word document unpacks to more than ${formatByteSize(max)}; ` +
        `Word documents may unpack to at most ${formatByteSize(max)}.`
      );
    case 'docxCompressionRatio':
      return (
        `This Word document unpacks to more than ${count(max)} times its packed size, as zip bombs do; ` +
        `Word documents may unpack to at most ${count(max)} times their size.`
      );
    case 'pdfPages':
      return `This PDF has ${count(found ?? max + 1)} pages; PDFs may have at most ${count(max)} pages.`;
    case 'imagePixels': {
      const { width, height } = refusal;
      const size =
        width !== undefined && height !== undefined
          ? `${count(width)} × ${count(height)} pixels${found !== undefined && found >= 100_000 ? ` (${pixelCount(found)})` : ''}`
          : `more than ${pixelCount(max)}`;
      return `This image is ${size}; images may have at most ${pixelCount(max)}.`;
    }
    case 'jobMs':
      return `Reading this ${noun} took longer than ${count(max / 1000)} seconds, the most one file may take. ${retry}`;
    case 'workerMemoryMb':
      return `Reading this ${noun} needed more than ${count(max)} MB of memory, the most one file may use. ${retry}`;
  }
}

/**
 * 422 `file_too_complex`: a file within the size limit that costs too much to read. Nothing was stored and the
 * person's allowance was not charged; `details` names the limit and its value.
 */
export class FileTooComplexError extends HttpError {
  constructor(
    readonly refusal: Refusal,
    mediaType: string,
  ) {
    super(422, ErrorCode.fileTooComplex, describeRefusal(refusal, mediaType), {
      limit: refusal.limit,
      max: refusal.max,
      ...(refusal.found !== undefined ? { found: refusal.found } : {}),
    });
  }
}

/** Seconds a client is told to wait (Retry-After) when every worker is busy and the queue is full. */
export const BUSY_RETRY_AFTER_SECONDS = 5;

/**
 * 503 with Retry-After: every worker of this replica is reading a file and the queue is full (or a file waited too
 * long for a worker). It is 503, not 429, because it says nothing about the caller: the replica's shared pool is
 * busy (with anyone's files), so trying again shortly (or on another replica) is right; 429 would tell clients that
 * they themselves sent too much, which is the per-person limit's answer.
 */
export class AttachmentsBusyError extends HttpError {
  readonly retryAfterSeconds = BUSY_RETRY_AFTER_SECONDS;
  constructor() {
    super(
      503,
      ErrorCode.upstreamUnavailable,
      `Too many files are being read right now. Please try again in ${BUSY_RETRY_AFTER_SECONDS} seconds.`,
      { retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS },
    );
  }
}
