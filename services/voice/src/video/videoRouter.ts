import { VideoFileIdParam, VideoGenerationRequest, VideoJobIdParam, VideoJobListQuery } from '@kasa/contracts';
import { identityOf, NotFoundError, parseInput, requireIdentity, type Logger } from '@kasa/service-kit';
import { Router } from 'express';
import type { AudioStore } from '../speech/audioStore';
import { serveStoredFile } from '../speech/serveStoredFile';
import type { VideoService } from './videoService';

export function createVideoRouter(deps: {
  service: VideoService;
  files: AudioStore;
  /** How long finished videos are kept, and so may be cached. */
  ttlMs: number;
  logger: Logger;
}): Router {
  const { service, files, logger } = deps;
  const router = Router();

  router.post('/api/video/generations', requireIdentity(), async (req, res) => {
    const input = parseInput(VideoGenerationRequest, req.body);
    const job = await service.create(input, identityOf(res));
    res.status(202).location(`/api/video/generations/${job.id}`).json(job);
  });

  router.get('/api/video/generations', requireIdentity(), async (req, res) => {
    const query = parseInput(VideoJobListQuery, req.query, 'query');
    res.setHeader('Cache-Control', 'no-store');
    res.json(await service.list(query, identityOf(res)));
  });

  router.get('/api/video/generations/:id', requireIdentity(), async (req, res) => {
    const { id } = parseInput(VideoJobIdParam, req.params, 'path');
    res.setHeader('Cache-Control', 'no-store');
    res.json(await service.get(id, identityOf(res)));
  });

  // Public like audio: a <video> element cannot send a token, so the 128-bit random address is the key.
  router.get('/api/video/files/:id', async (req, res) => {
    const { id } = parseInput(VideoFileIdParam, req.params, 'path');
    const file = await files.find(id);
    if (!file || file.metadata.contentType !== 'video/mp4')
      throw new NotFoundError('No video with that id (it may have expired)');
    const maxAgeSeconds = (file.uploadDate.getTime() + deps.ttlMs - Date.now()) / 1000;
    if (file.metadata.duration !== undefined) res.setHeader('X-Video-Duration', String(file.metadata.duration));
    serveStoredFile(req, res, { store: files, file, maxAgeSeconds, logger, what: 'video' });
  });

  return router;
}
