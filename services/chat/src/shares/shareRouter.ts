import { SessionIdPathParam, ShareTokenPathParam } from '@kasa/contracts';
import { NotFoundError, parseInput } from '@kasa/service-kit';
import { Router } from 'express';
import { identityOf, requireIdentity } from '../identity/identity';
import type { ShareService } from './shareService';

/**
 * The owner's `/api/chat/sessions/:id/share` (share, read, stop) and the public `/api/chat/shared/:token`. Mounted
 * before the session router, whose identity check covers all of /api/chat: the shared page needs no account.
 */
export function createShareRouter(shares: ShareService): Router {
  const router = Router();

  router.get('/api/chat/shared/:token', async (req, res) => {
    const parsed = ShareTokenPathParam.safeParse(req.params);
    // A malformed token is a link that does not exist: the same 404 as a revoked one.
    if (!parsed.success)
      throw new NotFoundError('This shared conversation does not exist, or its owner stopped sharing it');
    // Never kept by a browser or proxy: once the owner stops sharing, the next look at the link finds nothing.
    res.set('Cache-Control', 'no-store');
    res.json(await shares.read(parsed.data.token));
  });

  router.post('/api/chat/sessions/:id/share', requireIdentity(), async (req, res) => {
    const { id } = parseInput(SessionIdPathParam, req.params, 'path');
    const { share, created } = await shares.share(identityOf(res), id);
    res.status(created ? 201 : 200).json(share);
  });

  router.get('/api/chat/sessions/:id/share', requireIdentity(), async (req, res) => {
    const { id } = parseInput(SessionIdPathParam, req.params, 'path');
    res.json(await shares.get(identityOf(res), id));
  });

  router.delete('/api/chat/sessions/:id/share', requireIdentity(), async (req, res) => {
    const { id } = parseInput(SessionIdPathParam, req.params, 'path');
    await shares.stop(identityOf(res), id);
    res.status(204).end();
  });

  return router;
}
