import type { CallOptions, HttpClient } from '../http.js';
import type { Attachment, AttachmentFile } from '../types.js';

/** What `attachments.upload` takes besides the file: its name, and the call's options. */
export interface UploadAttachmentOptions extends CallOptions {
  /** The file's name (1 to 255 characters), e.g. `photo.png`: it is shown with the message and on download. */
  name: string;
}

const attachmentPath = (id: string) => `/api/chat/attachments/${encodeURIComponent(id)}`;

/** The media type of a Content-Type header, without its parameters (`text/plain; charset=utf-8` → `text/plain`). */
function mediaTypeOf(contentType: string | null): string {
  return (contentType ?? 'application/octet-stream').split(';')[0]!.trim().toLowerCase();
}

/** The file name of a Content-Disposition header: RFC 5987's exact `filename*` first, else the plain `filename`. */
export function fileNameOf(disposition: string | null): string | undefined {
  if (!disposition) return undefined;
  const encoded = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition);
  if (encoded) {
    try {
      return decodeURIComponent(encoded[1]!.trim());
    } catch {
      // A malformed encoding: fall back to the plain name.
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"/i.exec(disposition) ?? /filename\s*=\s*([^;]+)/i.exec(disposition);
  return plain ? plain[1]!.trim() : undefined;
}

/**
 * Images (PNG, JPEG, WebP, GIF; up to 10 MB) and documents (PDF, DOCX, plain text, markdown; up to 20 MB) to send
 * with messages: upload one, then pass its id in `attachmentIds` of `chat.messages.send` (or `stream`, `edit`).
 * Pro and Enterprise: a Free account gets a 403 `forbidden` naming Pro. The API decides what a file is from its bytes:
 * other types are a 415 `unsupported_media_type`, a file over its kind's limit a 413 `payload_too_large`, and an
 * account that keeps as many attachments as it may (200 files, 500 MB) a 409 `conflict` (delete some first).
 * Only their owner can read or delete them.
 */
export class AttachmentsResource {
  constructor(private readonly http: HttpClient) {}

  /** POST /api/chat/attachments?name= with the file as the body → the stored attachment (201). */
  upload(data: Blob | Uint8Array | ArrayBuffer, options: UploadAttachmentOptions): Promise<Attachment> {
    const { name, ...callOptions } = options ?? ({} as UploadAttachmentOptions);
    if (typeof name !== 'string' || name.trim() === '') {
      return Promise.reject(
        new TypeError('attachments.upload needs the file name: upload(data, { name: "photo.png" }).'),
      );
    }
    if (!(data instanceof Blob || data instanceof Uint8Array || data instanceof ArrayBuffer)) {
      return Promise.reject(
        new TypeError('attachments.upload takes the file as a Blob, a Uint8Array or an ArrayBuffer.'),
      );
    }
    // The declared type is only a hint (the API reads the bytes); a Blob's own type is kept, bytes are sent as such.
    const contentType = data instanceof Blob && data.type !== '' ? data.type : 'application/octet-stream';
    return this.http.json<Attachment>({
      method: 'POST',
      path: '/api/chat/attachments',
      query: { name },
      rawBody: { data, contentType },
      creates: true,
      options: callOptions,
    });
  }

  /** GET /api/chat/attachments/:id → the file's bytes, media type and name. Someone else's, or a deleted one: 404. */
  get(id: string, options?: CallOptions): Promise<AttachmentFile> {
    return this.file(attachmentPath(id), options);
  }

  /** GET /api/chat/attachments/:id/thumbnail → an image's small WebP preview (404 for a document). */
  thumbnail(id: string, options?: CallOptions): Promise<AttachmentFile> {
    return this.file(`${attachmentPath(id)}/thumbnail`, options);
  }

  /**
   * DELETE /api/chat/attachments/:id: deletes the file and frees its place in the account's allowance (from then on
   * `get` answers 404, also for a message it was sent with). Someone else's, or one already deleted: 404.
   */
  async delete(id: string, options?: CallOptions): Promise<void> {
    await this.http.send({ method: 'DELETE', path: attachmentPath(id), options });
  }

  private async file(path: string, options: CallOptions | undefined): Promise<AttachmentFile> {
    const response = await this.http.send({ method: 'GET', path, accept: '*/*', options });
    return {
      bytes: new Uint8Array(await response.arrayBuffer()),
      mediaType: mediaTypeOf(response.headers.get('content-type')),
      name: fileNameOf(response.headers.get('content-disposition')),
    };
  }
}
