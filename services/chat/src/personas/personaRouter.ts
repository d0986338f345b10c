import { CreatePersonaRequest, GatewayIdentityHeaders, PersonaIdParam, UpdatePersonaRequest } from '@kasa/contracts';
import { parseInput, requirePlan } from '@kasa/service-kit';
import { Router, type RequestHandler } from 'express';
import { identityOf, requireIdentity } from '../identity/identity';
import type { PersonaStore } from './personaStore';

/** Custom personas are an Enterprise feature (spec section 6; PLANS in @kasa/contracts). */
const enterpriseOnly: RequestHandler = requirePlan(
  'customPersonas',
  'Custom personas are part of the Enterprise plan. Upgrade to Enterprise to create them.',
);

export function createPersonaRouter(personas: PersonaStore): Router {
  const router = Router();
  // Kasa's six personas; a signed-in caller (identity forwarded by the gateway) also gets their own custom ones after.
  router.get('/api/personas', async (req, res) => {
    const builtIn = await personas.listBuiltIn();
    const userId = req.get(GatewayIdentityHeaders.userId)?.trim();
    res.json(userId ? [...builtIn, ...(await personas.listOwn(userId))] : builtIn);
  });
  router.post('/api/personas', requireIdentity(), enterpriseOnly, async (req, res) => {
    const input = parseInput(CreatePersonaRequest, req.body);
    res.status(201).json(await personas.createOwn(identityOf(res).userId, input));
  });
  router.patch('/api/personas/:id', requireIdentity(), enterpriseOnly, async (req, res) => {
    const { id } = parseInput(PersonaIdParam, req.params, 'path');
    const input = parseInput(UpdatePersonaRequest, req.body);
    res.json(await personas.updateOwn(identityOf(res).userId, id, input));
  });
  // Deleting stays open to a user who left Enterprise, so that they can clean up.
  router.delete('/api/personas/:id', requireIdentity(), async (req, res) => {
    const { id } = parseInput(PersonaIdParam, req.params, 'path');
    await personas.deleteOwn(identityOf(res).userId, id);
    res.status(204).end();
  });
  return router;
}
