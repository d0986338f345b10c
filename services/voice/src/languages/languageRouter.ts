import {
  DetectLanguageRequest,
  LanguageListQuery,
  type DetectLanguageResponse,
  type LanguageList,
} from '@kasa/contracts';
import { NotFoundError, parseInput } from '@kasa/service-kit';
import { Router } from 'express';
import { z } from 'zod';
import type { LanguageCatalogue } from './catalogue';
import type { LanguageDetector } from '@kasa/language-detect';

const LanguageCodeParam = z.object({
  code: z
    .string()
    .regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{1,8})*$/)
    .max(35),
});

/** The public language routes: the catalogue and language detection. */
export function createLanguageRouter(deps: { catalogue: LanguageCatalogue; detector: LanguageDetector }): Router {
  const { catalogue, detector } = deps;
  const router = Router();

  router.get('/api/languages', (req, res) => {
    const { capability } = parseInput(LanguageListQuery, req.query, 'query');
    const languages = catalogue.list(capability);
    // The list changes rarely: with the engines found at start, and when operators change the AI providers of the
    // browser (listen, translate); a minute of caching keeps such a change visible soon.
    res.setHeader('Cache-Control', 'public, max-age=60');
    res.json({ count: languages.length, languages } satisfies LanguageList);
  });

  router.post('/api/languages/detect', (req, res) => {
    const { text, hints } = parseInput(DetectLanguageRequest, req.body);
    const result = detector.detect(text, hints);
    const named = (guess: { language: string; confidence: number }) => ({
      language: guess.language,
      name: catalogue.nameOf(guess.language),
      confidence: guess.confidence,
    });
    res.json({
      ...named(result),
      reliable: result.reliable,
      alternatives: result.alternatives.map(named),
    } satisfies DetectLanguageResponse);
  });

  router.get('/api/languages/:code', (req, res) => {
    const { code } = parseInput(LanguageCodeParam, req.params, 'path');
    const language = catalogue.get(code);
    if (!language) throw new NotFoundError(`Kasa does not list the language '${code}'`);
    res.json(language);
  });

  return router;
}
