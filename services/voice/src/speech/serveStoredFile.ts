import { HttpError, type Logger } from '@kasa/service-kit';
import type { Request, Response } from 'express';
import type { AudioStore, StoredAudio } from './audioStore';

/**
 * Sends a file from GridFS as a public, cacheable answer: `Range` (one range gets 206, a range outside the file 416,
 * several or malformed ones the whole file, as RFC 9110 allows), `ETag`/`If-None-Match` (304), `HEAD`, and
 * `Cache-Control` until `maxAgeSeconds` (the address is the only secret, so shared caches may keep it).
 */
export function serveStoredFile(
  req: Request,
  res: Response,
  options: { store: AudioStore; file: StoredAudio; maxAgeSeconds: number; logger: Logger; what: string },
): void {
  const { file, store, logger } = options;
  const range = req.headers.range ? req.range(file.length, { combine: true }) : undefined;
  if (range === -1) {
    res.setHeader('Content-Range', `bytes */${file.length}`);
    throw new HttpError(416, 'range_not_satisfiable', `The requested range is outside the ${options.what}`);
  }
  res.setHeader('Content-Type', file.metadata.contentType);
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('ETag', `"${file.id}"`);
  res.setHeader('Last-Modified', file.uploadDate.toUTCString());
  res.setHeader('Cache-Control', `public, max-age=${Math.max(0, Math.floor(options.maxAgeSeconds))}, immutable`);
  if (req.fresh) {
    res.status(304).end();
    return;
  }
  let start = 0;
  let end = file.length - 1;
  if (range && range !== -2 && range.type === 'bytes' && range.length === 1) {
    start = range[0]!.start;
    end = range[0]!.end;
    res.status(206);
    res.setHeader('Content-Range', `bytes ${start}-${end}/${file.length}`);
  }
  res.setHeader('Content-Length', String(end - start + 1));
  if (req.method === 'HEAD' || file.length === 0) {
    res.end();
    return;
  }
  const stream = store.openRange(file, start, end);
  stream.on('error', (err) => {
    logger.error({ err, requestId: res.getHeader('x-request-id') }, `${options.what} read failed`);
    res.destroy();
  });
  stream.pipe(res);
}
