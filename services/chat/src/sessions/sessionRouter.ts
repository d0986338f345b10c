import {
  CreateSessionRequest,
  ChatPageQuery,
  RenameSessionRequest,
  ChatSearchQuery,
  SessionIdPathParam,
} from '@kasa/contracts';
import { parseInput, requestIdOf } from '@kasa/service-kit';
import { Router } from 'express';
import { identityOf, requireIdentity } from '../identity/identity';
import type { SessionService } from './sessionService';

/** /api/chat/sessions and /api/chat/search; every route needs the gateway's identity headers. */
export function createSessionRouter(sessions: SessionService): Router {
  const router = Router();
  router.use('/api/chat', requireIdentity());

  router.post('/api/chat/sessions', async (req, res) => {
    const input = parseInput(CreateSessionRequest, req.body);
    res.status(201).json(await sessions.create(identityOf(res), input, requestIdOf(req)));
  });

  router.get('/api/chat/sessions', async (req, res) => {
    const page = parseInput(ChatPageQuery, req.query, 'query');
    res.json(await sessions.list(identityOf(res), page));
  });

  router.get('/api/chat/sessions/:id', async (req, res) => {
    const { id } = parseInput(SessionIdPathParam, req.params, 'path');
    const page = parseInput(ChatPageQuery, req.query, 'query');
    res.json(await sessions.get(identityOf(res), id, page));
  });

  router.patch('/api/chat/sessions/:id', async (req, res) => {
    const { id } = parseInput(SessionIdPathParam, req.params, 'path');
    const { title } = parseInput(RenameSessionRequest, req.body);
    res.json(await sessions.rename(identityOf(res), id, title));
  });

  router.delete('/api/chat/sessions/:id', async (req, res) => {
    const { id } = parseInput(SessionIdPathParam, req.params, 'path');
    await sessions.remove(identityOf(res), id);
    res.status(204).end();
  });

  router.get('/api/chat/search', async (req, res) => {
    const query = parseInput(ChatSearchQuery, req.query, 'query');
    res.json(await sessions.search(identityOf(res), query));
  });

  return router;
}
