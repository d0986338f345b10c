import { LocalModelDownloadRequest } from '@kasa/contracts';
import { parseInput } from '@kasa/service-kit';
import { Router } from 'express';
import type { ModelDownloader } from './modelDownloader';

export interface LocalModelRouterDeps {
  downloader: Pick<ModelDownloader, 'status' | 'start' | 'cancel'>;
}

/**
 * The local model's file, for operators: `GET /api/admin/local-model` (its status), `POST` (start or resume its
 * download; 409 while one runs) and `DELETE /api/admin/local-model/download` (cancel; the partial file stays, to be
 * resumed). No access check here: it is mounted behind the operators-only middleware of /api/admin.
 */
export function createLocalModelRouter(deps: LocalModelRouterDeps): Router {
  const router = Router();

  router.get('/api/admin/local-model', async (_req, res) => {
    res.set('Cache-Control', 'no-store');
    res.json(await deps.downloader.status());
  });

  router.post('/api/admin/local-model', async (req, res) => {
    const { url } = parseInput(LocalModelDownloadRequest, req.body ?? {});
    res.status(202).json(await deps.downloader.start(url));
  });

  router.delete('/api/admin/local-model/download', async (_req, res) => {
    await deps.downloader.cancel();
    res.status(204).end();
  });

  return router;
}
