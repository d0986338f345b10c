import { TranslateRequest } from '@kasa/contracts';
import { parseInput, type Logger } from '@kasa/service-kit';
import { Router } from 'express';
import { requireProPlan } from '../plans/requireProPlan';
import { personSlot, type VoiceSlots } from '../slots/voiceSlots';
import type { TranslationService } from './translationService';

export function createTranslationRouter(deps: {
  translation: TranslationService;
  slots: VoiceSlots;
  logger?: Logger;
}): Router {
  const router = Router();
  // Each translation is a call to a paid AI provider, shared by everyone: one of the person's slots while it runs.
  const translationSlot = personSlot(deps.slots, 'translation', deps.logger);
  router.post('/api/translate', ...requireProPlan('translation'), translationSlot, async (req, res) => {
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
