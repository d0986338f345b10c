import {
  LanguagePreference,
  ThemeSettings,
  TourPreferences,
  UiLanguage,
  type LanguagePreferenceResponse,
  type ThemePreferenceResponse,
  type TourPreferenceResponse,
} from '@kasa/contracts';
import { identityOf, parseInput, requireIdentity } from '@kasa/service-kit';
import { Router } from 'express';
import type { Connection } from 'mongoose';
import { languagePreferenceModel } from './languagePreferenceModel';
import { themePreferenceModel } from './themePreferenceModel';
import { tourPreferenceModel } from './tourPreferenceModel';

/**
 * GET and PUT /api/auth/preferences/theme: the signed-in person's theme (spec section 3's theme settings).
 * GET and PUT /api/auth/preferences/tours: the guided tours they completed or skipped, which do not start again.
 * GET and PUT /api/auth/preferences/language: the language of the web app's interface they picked.
 * The gateway verifies the token and forwards the identity; each person only ever reaches their own record.
 */
export function createPreferencesRouter(connection: Connection): Router {
  const preferences = themePreferenceModel(connection);
  const tourPreferences = tourPreferenceModel(connection);
  const languagePreferences = languagePreferenceModel(connection);
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

  router.get('/api/auth/preferences/tours', async (_req, res) => {
    const { userId } = identityOf(res);
    const saved = await tourPreferences.findOne({ userId }).lean();
    const body: TourPreferenceResponse = saved
      ? { tours: TourPreferences.parse(saved.tours), updatedAt: saved.updatedAt.toISOString() }
      : { tours: null, updatedAt: null };
    res.set('Cache-Control', 'no-store').json(body);
  });

  router.put('/api/auth/preferences/tours', async (req, res) => {
    const { userId } = identityOf(res);
    const tours = parseInput(TourPreferences, req.body);
    const saved = await tourPreferences
      .findOneAndUpdate({ userId }, { $set: { tours } }, { upsert: true, new: true, runValidators: true })
      .lean();
    const body: TourPreferenceResponse = { tours, updatedAt: saved.updatedAt.toISOString() };
    res.json(body);
  });

  router.get('/api/auth/preferences/language', async (_req, res) => {
    const { userId } = identityOf(res);
    const saved = await languagePreferences.findOne({ userId }).lean();
    // A stored language the web app no longer offers reads as none picked, so the browser's preference applies.
    const known = saved ? UiLanguage.safeParse(saved.language) : undefined;
    const body: LanguagePreferenceResponse =
      saved && known?.success
        ? { language: known.data, updatedAt: saved.updatedAt.toISOString() }
        : { language: null, updatedAt: null };
    res.set('Cache-Control', 'no-store').json(body);
  });

  router.put('/api/auth/preferences/language', async (req, res) => {
    const { userId } = identityOf(res);
    const { language } = parseInput(LanguagePreference, req.body);
    const saved = await languagePreferences
      .findOneAndUpdate({ userId }, { $set: { language } }, { upsert: true, new: true, runValidators: true })
      .lean();
    const body: LanguagePreferenceResponse = { language, updatedAt: saved.updatedAt.toISOString() };
    res.json(body);
  });

  return router;
}
