import { ThemeSettings, type ThemePreferenceResponse } from '@kasa/contracts';
import { identityOf, parseInput, requireIdentity } from '@kasa/service-kit';
import { Router } from 'express';
import type { Connection } from 'mongoose';
import { themePreferenceModel } from './themePreferenceModel';

/**
 * GET and PUT /api/auth/preferences/theme: the signed-in person's theme (spec section 3's theme settings).
 * The gateway verifies the token and forwards the identity; each person only ever reaches their own record.
 */
export function createPreferencesRouter(connection: Connection): Router {
  const preferences = themePreferenceModel(connection);
  const router = Router();
  router.use('/api/auth/preferences', requireIdentity());

  router.get('/api/auth/preferences/theme', async (_req, res) => {
    const { userId } = identityOf(res);
    const saved = await preferences.findOne({ userId }).lean();
    const body: ThemePreferenceResponse = saved
      ? { theme: ThemeSettings.parse(saved.theme), updatedAt: saved.updatedAt.toISOString() }
      : { theme: null, updatedAt: null };
    res.set('Cache-Control', 'no-store').json(body);
  });

  router.put('/api/auth/preferences/theme', async (req, res) => {
    const { userId } = identityOf(res);
    const theme = parseInput(ThemeSettings, req.body);
    const saved = await preferences
      .findOneAndUpdate({ userId }, { $set: { theme } }, { upsert: true, new: true, runValidators: true })
      .lean();
    const body: ThemePreferenceResponse = { theme, updatedAt: saved.updatedAt.toISOString() };
    res.json(body);
  });

  return router;
}
