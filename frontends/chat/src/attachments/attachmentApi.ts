import { ApiError, apiRequest, clearToken, getToken } from '@kasa/api-client';
import type { Attachment } from '@kasa/contracts';

/**
 * The chat service's attachment limits (shared/contracts attachments.ts, ATTACHMENT_LIMITS; attachmentApi.test.ts
 * holds them equal). Kept here because importing values from @kasa/contracts would bring zod into the page.
 */
export const ATTACHMENT_RULES = {
  imageBytes: 10 * 1024 * 1024,
  documentBytes: 20 * 1024 * 1024,
  perMessage: 4,
} as const;

/** What the file picker offers: the types the service accepts (it decides from the bytes, not from this list). */
export const ACCEPTED_FILES = [
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
  'application/pdf',
  '.pdf',
  '.docx',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.txt',
  'text/plain',
  '.md',
  'text/markdown',
].join(',');

const attachmentPath = (id: string) => `/api/chat/attachments/${encodeURIComponent(id)}`;

/** How far an upload has gone, 0 to 1. */
export type UploadProgress = (fraction: number) => void;

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

function errorOf(status: number, body: unknown): ApiError {
  const message =
    typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string'
      ? (body as { message: string }).message
      : undefined;
  return new ApiError(status, message, body);
}

/**
 * POST /api/chat/attachments?name= with the file as the body. XMLHttpRequest rather than fetch: it reports how much
 * of the body has gone, which a 20 MB document on a phone connection needs. Rejects with an ApiError the way
 * `apiRequest` does (a 401 also removes the stored token), and with an AbortError when `signal` aborts.
 */
export function uploadAttachment(file: File, onProgress: UploadProgress, signal: AbortSignal): Promise<Attachment> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
      return;
    }
    const request = new XMLHttpRequest();
    request.open('POST', `/api/chat/attachments?name=${encodeURIComponent(file.name || 'file')}`);
    request.withCredentials = true;
    request.setRequestHeader('Accept', 'application/json');
    request.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    const token = getToken();
    if (token) request.setRequestHeader('Authorization', `Bearer ${token}`);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    const onAbort = () => request.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    request.onloadend = () => signal.removeEventListener('abort', onAbort);
    request.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    // No answer at all: the same failure `describeFailure` reports for fetch ("check your connection").
    request.onerror = () => reject(new TypeError('Failed to fetch'));
    request.onload = () => {
      const body = parseJson(request.responseText);
      if (request.status >= 200 && request.status < 300) {
        resolve(body as Attachment);
        return;
      }
      if (request.status === 401) clearToken();
      reject(errorOf(request.status, body));
    };
    request.send(file);
  });
}

/** DELETE /api/chat/attachments/:id: frees the file's place in the person's allowance. */
export async function deleteAttachment(id: string): Promise<void> {
  await apiRequest('DELETE', attachmentPath(id));
}

/**
 * The file (or an image's thumbnail) as an object URL for an <img> or a download link. The file routes take the
 * bearer token, which an <img src> cannot send, so the bytes are fetched and held by the page; the caller revokes
 * the URL when it no longer shows it.
 */
export async function attachmentObjectUrl(
  id: string,
  which: 'file' | 'thumbnail',
  signal?: AbortSignal,
): Promise<string> {
  const path = which === 'thumbnail' ? `${attachmentPath(id)}/thumbnail` : attachmentPath(id);
  const response = await apiRequest('GET', path, undefined, { accept: '*/*', ...(signal ? { signal } : {}) });
  return URL.createObjectURL(await response.blob());
}

/** Whether the file could be an image, by its declared type (the service decides from the bytes). */
export const looksLikeImage = (file: File) => file.type.startsWith('image/');
