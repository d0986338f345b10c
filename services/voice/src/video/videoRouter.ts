import { VideoFileIdParam, VideoGenerationRequest, VideoJobIdParam, VideoJobListQuery } from '@kasa/contracts';
import { identityOf, NotFoundError, parseInput, requireIdentity, type Logger } from '@kasa/service-kit';
import { Router } from 'express';
import type { AudioStore } from '../speech/audioStore';
import { serveStoredFile } from '../speech/serveStoredFile';
import { toVtt } from './captions';
import type { VideoEventStreams } from './videoEventStreams';
import type { VideoService } from './videoService';

export function createVideoRouter(deps: {
  service: VideoService;
  streams: VideoEventStreams;
  files: AudioStore;
  /** How long finished videos are kept, and so may be cached. */
  ttlMs: number;
  logger: Logger;
}): Router {
  const { service, streams, files, logger } = deps;
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

  // The job's changes as Server-Sent Events (another person's job: 404, as above).
  router.get('/api/video/generations/:id/events', requireIdentity(), async (req, res) => {
    const { id } = parseInput(VideoJobIdParam, req.params, 'path');
    await streams.follow(res, id, identityOf(res));
  });

  // A <track> cannot send a token: the web app fetches this with it and gives the track the text as a blob.
  router.get('/api/video/generations/:id/captions', requireIdentity(), async (req, res) => {
    const { id } = parseInput(VideoJobIdParam, req.params, 'path');
    const cues = await service.cuesOf(id, identityOf(res));
    if (!cues)
      throw new NotFoundError('This video has no captions (yet): it is not finished, or its renderer made none');
    res.setHeader('Cache-Control', 'private, no-cache');
    res.type('text/vtt; charset=utf-8').send(toVtt(cues));
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
