import { clientIpOf } from '../operators/actor';
import { CreateApiKeyRequest, VerifyApiKeyRequest, type ApiKeyList } from '@kasa/contracts';
import { identityOf, parseInput, requestIdOf, requireIdentity } from '@kasa/service-kit';
import { Router } from 'express';
import type { ApiKeyService } from './apiKeyService';

/**
 * /api/developer/keys: the signed-in person's API keys. The gateway lets only access tokens through here (a key
 * cannot mint or revoke keys) and forwards the identity; each person only ever reaches their own keys.
 */
export function createApiKeyRouter(apiKeys: ApiKeyService): Router {
  const router = Router();
  router.use('/api/developer/keys', requireIdentity(), (_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  router.post('/api/developer/keys', async (req, res) => {
    const { userId } = identityOf(res);
    const input = parseInput(CreateApiKeyRequest, req.body);
    res.status(201).json(await apiKeys.create(userId, input, requestIdOf(req), clientIpOf(req)));
  });

  router.get('/api/developer/keys', async (_req, res) => {
    const body: ApiKeyList = { keys: await apiKeys.list(identityOf(res).userId) };
    res.json(body);
  });

  router.delete('/api/developer/keys/:id', async (req, res) => {
    await apiKeys.revoke(identityOf(res).userId, req.params.id, requestIdOf(req), clientIpOf(req));
    res.status(204).end();
  });

  return router;
}

/**
 * POST /internal/api-keys/verify: the gateway's question "whom does this key act for?". Not routed by the gateway;
 * it is reached on the auth service's own port, which only the gateway can reach (loopback or the cluster's
 * network policy). Knowing the answer requires knowing the key, so the endpoint reveals nothing by itself.
 */
export function createApiKeyVerifyRouter(apiKeys: ApiKeyService): Router {
  const router = Router();
  router.post('/internal/api-keys/verify', async (req, res) => {
    const { key } = parseInput(VerifyApiKeyRequest, req.body);
    res.set('Cache-Control', 'no-store').json(await apiKeys.verify(key));
  });
  return router;
}
