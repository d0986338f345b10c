import { ATTACHMENT_LIMITS, ATTACHMENT_MEDIA_TYPES, type AttachmentKind } from '@kasa/contracts';

/** What an upload is, read from its bytes. */
export interface FileKind {
  kind: AttachmentKind;
  mediaType: string;
}

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** The types magic bytes decide, as `file-type` names them. */
const BY_MAGIC: Record<string, FileKind> = {
  'image/png': { kind: 'image', mediaType: 'image/png' },
  'image/jpeg': { kind: 'image', mediaType: 'image/jpeg' },
  'image/webp': { kind: 'image', mediaType: 'image/webp' },
  'image/gif': { kind: 'image', mediaType: 'image/gif' },
  'application/pdf': { kind: 'document', mediaType: 'application/pdf' },
  [DOCX]: { kind: 'document', mediaType: DOCX },
};

/** Every accepted type, for the 415's message. */
export const ACCEPTED_TYPES_TEXT =
  'PNG, JPEG, WebP or GIF images; PDF, DOCX, plain text (.txt) or markdown (.md) documents';

export const ACCEPTED_MEDIA_TYPES: readonly string[] = [
  ...ATTACHMENT_MEDIA_TYPES.image,
  ...ATTACHMENT_MEDIA_TYPES.document,
];

// file-type is ESM-only and this service is CommonJS: Node's import() loads it, once.
const importFileType = () => import('file-type');
let fileType: ReturnType<typeof importFileType> | undefined;
const loadFileType = () => (fileType ??= importFileType());

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Plain text has no magic bytes: valid UTF-8 with no NUL byte (a NUL never appears in text, often in binaries). */
export function isPlainText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Decides what an upload is from its bytes; the name and declared type only tell text from markdown (which have no
 * magic bytes) and never override what the bytes say. Undefined: not an accepted type.
 */
export async function detectFileKind(
  bytes: Uint8Array,
  name: string,
  declaredType: string | undefined,
): Promise<FileKind | undefined> {
  const { fileTypeFromBuffer } = await loadFileType();
  const detected = await fileTypeFromBuffer(bytes);
  if (detected) return BY_MAGIC[detected.mime];
  if (bytes.length === 0 || !isPlainText(bytes)) return undefined;
  const extension = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase();
  const declared = declaredType?.split(';')[0]?.trim().toLowerCase();
  if (extension === 'md' || extension === 'markdown' || declared === 'text/markdown')
    return { kind: 'document', mediaType: 'text/markdown' };
  if (extension === 'txt' || declared?.startsWith('text/')) return { kind: 'document', mediaType: 'text/plain' };
  return undefined;
}

/** The most bytes an attachment of this kind may have. */
export const maxBytesOf = (kind: AttachmentKind): number =>
  kind === 'image' ? ATTACHMENT_LIMITS.imageBytes : ATTACHMENT_LIMITS.documentBytes;

/**
 * A file name safe to store and show: no path, no control characters, at most ATTACHMENT_LIMITS.nameChars characters
 * (cut before the extension, which is kept).
 */
export function cleanFileName(raw: string): string {
  // eslint-disable-next-line no-control-regex
  const base = (raw.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  const name = base || 'file';
  const max = ATTACHMENT_LIMITS.nameChars;
  if (name.length <= max) return name;
  const extension = /\.[A-Za-z0-9]{1,10}$/.exec(name)?.[0] ?? '';
  return name.slice(0, max - extension.length) + extension;
}
