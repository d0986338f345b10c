import { TranslateRequest } from '@kasa/contracts';
import { parseInput } from '@kasa/service-kit';
import { Router } from 'express';
import { requireProPlan } from '../plans/requireProPlan';
import type { TranslationService } from './translationService';

export function createTranslationRouter(deps: { translation: TranslationService }): Router {
  const router = Router();
  router.post('/api/translate', ...requireProPlan('translation'), async (req, res) => {
    const input = parseInput(TranslateRequest, req.body);
    const cancel = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) cancel.abort();
    });
    const result = await deps.translation.translate(input, cancel.signal);
    res.setHeader('Cache-Control', 'no-store');
    res.json(result);
  });
  return router;
}
