import { AttachmentIdParam, BODY_LIMITS, ErrorCode, UploadAttachmentQuery } from '@kasa/contracts';
import {
  holdSlot,
  HttpError,
  InputError,
  NotFoundError,
  parseInput,
  requirePlan,
  TooManyRequestsError,
  type ConcurrencySlots,
} from '@kasa/service-kit';
import express, { Router, type Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { identityOf, requireIdentity } from '../identity/identity';
import { bytesOf } from './attachmentModel';
import { ATTACHMENTS_PLAN, type AttachmentService } from './attachmentService';
import { THUMBNAIL_MEDIA_TYPE } from './thumbnail';

/**
 * `Content-Disposition` for a stored name: an ASCII fallback (quotes, backslashes and non-ASCII replaced) plus the
 * exact name in RFC 5987's `filename*`, so no name can break out of the header.
 */
export function contentDisposition(type: 'inline' | 'attachment', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** Files a browser may show in place; anything else (PDF included, which can carry scripts) downloads. */
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);

/** Headers every stored file is answered with: owner-only, never sniffed into something else. */
function fileHeaders(res: Response, mediaType: string, size: number): void {
  res.set({
    'Content-Type': mediaType.startsWith('text/') ? `${mediaType}; charset=utf-8` : mediaType,
    'Content-Length': String(size),
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'private, max-age=3600',
    // A stored file never runs as a page of this origin.
    'Content-Security-Policy': "default-src 'none'; sandbox",
  });
}

/**
 * POST /api/chat/attachments (the file as the raw body), GET /api/chat/attachments/:id (and /thumbnail), DELETE
 * /api/chat/attachments/:id: images and documents sent with messages, owner only.
 */
/** When a person is at their limit of uploads at once, after how many seconds a retry makes sense. */
const UPLOAD_RETRY_AFTER_SECONDS = 2;

export function createAttachmentRouter(
  attachments: AttachmentService,
  /** The per-person limit of uploads being read at once (the kit's slots, scope `attachments`). */
  slots: ConcurrencySlots,
): Router {
  const router = Router();
  // Any Content-Type: the bytes decide what the file is. Bodies over the route's limit get the shared 413.
  const rawBody = express.raw({ type: () => true, limit: BODY_LIMITS.attachments });

  // Free is refused before its body is read: up to 20 MB for nothing.
  const paidPlan = requirePlan('attachments', ATTACHMENTS_PLAN);
  // So is a person already at their limit of files being read: one slot per upload until it is answered.
  const uploadSlot = holdSlot({
    slots,
    ownerOf: (res) => identityOf(res).userId,
    refuse: (limit) =>
      new TooManyRequestsError(
        `You have ${limit} files being uploaded and read. Wait for one to finish, then send the next.`,
        UPLOAD_RETRY_AFTER_SECONDS,
        { limit },
      ),
  });

  router.post('/api/chat/attachments', requireIdentity(), paidPlan, uploadSlot, rawBody, async (req, res) => {
    const { name } = parseInput(UploadAttachmentQuery, req.query, 'query');
    if (!Buffer.isBuffer(req.body)) {
      // The service's JSON parser reads application/json bodies before this route sees them.
      throw new HttpError(
        415,
        ErrorCode.unsupportedMediaType,
        'Send the file itself as the body, with its own Content-Type or application/octet-stream (not JSON).',
      );
    }
    if (req.body.length === 0) throw new InputError('The body is empty: send the file as the body.');
    // A busy pool's 503 and the limits' 429 carry Retry-After (the shared error handler sets it).
    const attachment = await attachments.upload(identityOf(res), name, req.body, req.get('content-type'));
    res.status(201).json(attachment);
  });

  router.get('/api/chat/attachments/:id', requireIdentity(), async (req, res) => {
    const { id } = parseInput(AttachmentIdParam, req.params, 'path');
    const { doc, stream } = await attachments.open(identityOf(res), id);
    fileHeaders(res, doc.mediaType, doc.size);
    res.set(
      'Content-Disposition',
      contentDisposition(INLINE_TYPES.has(doc.mediaType) ? 'inline' : 'attachment', doc.name),
    );
    await pipeline(stream, res);
  });

  router.get('/api/chat/attachments/:id/thumbnail', requireIdentity(), async (req, res) => {
    const { id } = parseInput(AttachmentIdParam, req.params, 'path');
    const doc = await attachments.own(identityOf(res), id);
    const bytes = bytesOf(doc.thumbnail);
    if (!bytes?.length) throw new NotFoundError('This attachment has no thumbnail.');
    fileHeaders(res, THUMBNAIL_MEDIA_TYPE, bytes.length);
    res.set('Content-Disposition', contentDisposition('inline', `${doc.name}.webp`));
    res.end(bytes);
  });

  router.delete('/api/chat/attachments/:id', requireIdentity(), async (req, res) => {
    const { id } = parseInput(AttachmentIdParam, req.params, 'path');
    await attachments.remove(identityOf(res), id);
    res.status(204).end();
  });

  return router;
}
