import { z } from './zod';

const MB = 1024 * 1024;

/**
 * What the chat keeps of images and documents sent with messages (Pro and Enterprise). The upload route's body limit
 * (`BODY_LIMITS.attachments`) is the larger of the two per-kind limits; the chat service checks the kind's own limit
 * once the bytes tell what the file is.
 */
export const ATTACHMENT_LIMITS = {
  /** The largest image (PNG, JPEG, WebP, GIF). */
  imageBytes: 10 * MB,
  /** The largest document (PDF, DOCX, plain text, markdown). */
  documentBytes: 20 * MB,
  /** Attachments one person may keep at once (deleting one, or the session it was sent in, frees its place). */
  perPersonCount: 200,
  /** Bytes one person may keep at once, all attachments together. */
  perPersonBytes: 500 * MB,
  /** Attachments one message may carry. */
  perMessage: 4,
  /** The most characters of text kept from one document (its pages or sections, in order, cut at this bound). */
  extractedChars: 200_000,
  /** The longest file name kept (longer names are cut, keeping the extension). */
  nameChars: 200,
} as const;

/**
 * How much reading one attachment may cost the chat service (documents' text, images' size and thumbnail): each file
 * is read in a pool of worker threads, and these limits are checked while it is read, not afterwards. A file past one
 * is refused with 422 `file_too_complex` and nothing is stored. The chat service's environment may override each
 * (see its README); these are the defaults.
 */
export const ATTACHMENT_PROCESSING_LIMITS = {
  /** Files inside a Word document (a DOCX is a zip archive); Word writes a dozen or two. */
  docxEntries: 1_000,
  /** Bytes a Word document may unpack to, all its files together (pictures included, which barely compress). */
  docxUnpackedBytes: 50 * MB,
  /**
   * How many times its packed size a Word document, or any file in it, may unpack to (past the first 100 KB of
   * that file); text compresses about 5 to 20 times, a zip bomb thousands of times.
   */
  docxCompressionRatio: 100,
  /** Pages of a PDF (read from its page tree before any page is read). */
  pdfPages: 1_000,
  /** Pixels (width × height) of an image; sharp refuses to decode more (its `limitInputPixels`). */
  imagePixels: 40_000_000,
  /** The longest one file may take to read, in a worker; over it the worker is stopped and replaced. */
  jobMs: 15_000,
  /** The V8 heap (old generation) of each worker; a file that needs more stops the worker, which is replaced. */
  workerMemoryMb: 256,
  /** The V8 young generation of each worker. */
  workerYoungMemoryMb: 32,
  /**
   * Worker threads the pool keeps running, and the most it starts (this machine kind has two cores). None is kept:
   * an idle worker exits after `idleTimeoutMs`, and its heap (up to `workerMemoryMb`) goes back to the system with it.
   */
  minThreads: 0,
  /**
   * One by default: a worker with pdf.js, mammoth and sharp loaded is 60–90 MB, and on the embedded default's two cores
   * a second one would compete with the services rather than help them (a deployment sets more: k8s/base/chat).
   */
  maxThreads: 1,
  /** Files waiting for a worker; one more is answered 503 with Retry-After (the replica is busy, try again). */
  maxQueue: 8,
  /** The longest a file waits for a worker before it is answered 503 with Retry-After. */
  queueWaitMs: 10_000,
  /** How long a worker with nothing to read stays before it exits (starting one again takes about 0.1 s). */
  idleTimeoutMs: 15_000,
} as const;

/** The media types an upload may turn out to be, decided from its bytes (never from the declared Content-Type). */
export const ATTACHMENT_MEDIA_TYPES = {
  image: ['image/png', 'image/jpeg', 'image/webp', 'image/gif'],
  document: [
    'application/pdf',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'text/plain',
    'text/markdown',
  ],
} as const;

export const AttachmentKind = z.enum(['image', 'document']).openapi('AttachmentKind');
export type AttachmentKind = z.infer<typeof AttachmentKind>;

/** An attachment's id: 128 random bits as base64url (22 characters), so that an address cannot be guessed. */
export const AttachmentId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{22}$/, 'must be a 22-character attachment id')
  .openapi('AttachmentId');
export const AttachmentIdParam = z.object({ id: AttachmentId });

/** `POST /api/chat/attachments?name=`: the file's name (the body is the file's bytes). */
export const UploadAttachmentQuery = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, 'name is required (the file name, e.g. ?name=photo.png)')
      .max(255, 'name must be at most 255 characters'),
  })
  .strict();
export type UploadAttachmentQuery = z.infer<typeof UploadAttachmentQuery>;

/** An uploaded attachment as its owner sees it. */
export const Attachment = z
  .object({
    id: AttachmentId,
    kind: AttachmentKind,
    name: z.string(),
    /** What the bytes are (decided from them). */
    mediaType: z.string(),
    size: z.number().int().nonnegative(),
    createdAt: z.string().datetime(),
    /** Documents: the pages (PDF) or sections (DOCX, text) the extracted text has; 0 when it has none. */
    pages: z.number().int().nonnegative().optional(),
    /** Documents: the characters of text extracted (0: nothing could be read, e.g. a scanned PDF). */
    characters: z.number().int().nonnegative().optional(),
    /** Images: `GET /api/chat/attachments/{id}/thumbnail` answers a small preview. */
    hasThumbnail: z.boolean(),
  })
  .openapi('Attachment');
export type Attachment = z.infer<typeof Attachment>;

/** An attachment as a message carries it (in the session view and the answers of send and edit). */
export const MessageAttachment = z
  .object({
    id: AttachmentId,
    kind: AttachmentKind,
    name: z.string(),
    mediaType: z.string(),
    size: z.number().int().nonnegative(),
  })
  .openapi('MessageAttachment');
export type MessageAttachment = z.infer<typeof MessageAttachment>;

/** `attachmentIds` of a message: at most ATTACHMENT_LIMITS.perMessage, no id twice. */
export const AttachmentIds = z
  .array(AttachmentId)
  .max(ATTACHMENT_LIMITS.perMessage, `a message carries at most ${ATTACHMENT_LIMITS.perMessage} attachments`)
  .refine((ids) => new Set(ids).size === ids.length, 'an attachment is listed twice');
