import { BODY_LIMITS } from '@kasa/contracts';
import { createServiceApp, type RuntimeAppDeps } from '@kasa/service-kit';
import type { Express } from 'express';
import { createGeoRouter } from './geo/geoRouter';
import { createLanguageRouter } from './languages/languageRouter';
import { createOpenAIAudioRouter } from './openai/openaiAudioRouter';
import { createSpeechRouter } from './speech/speechRouter';
import { createTranscriptionRouter } from './transcription/transcriptionRouter';
import { createTranslationRouter } from './translation/translationRouter';
import { createVideoRouter } from './video/videoRouter';
import type { VideoComponents } from './video/videoComponents';
import type { VoiceComponents } from './voiceComponents';

export type VoiceAppDeps = RuntimeAppDeps &
  VoiceComponents & {
    /** Video generation; its routes are left out when absent (an app built for other tests). */
    video?: Pick<VideoComponents, 'service' | 'streams' | 'files' | 'ttlMs'>;
  };

/** The voice service's HTTP app; it never listens by itself (see index.ts). */
export function createApp(deps: VoiceAppDeps): Express {
  return createServiceApp({
    ...deps,
    // Text to speak is at most 5,000 characters; escaped as JSON (\uXXXX, surrogate pairs) that can reach ~60 KB.
    // (BODY_LIMITS in @kasa/contracts, as the gateway's voice routes; recordings have a route and limit of their own.)
    bodyLimit: BODY_LIMITS.voice,
    routes: [
      createLanguageRouter(deps),
      createSpeechRouter(deps),
      createTranscriptionRouter(deps),
      // OpenAI's Audio API (/v1/audio/*) over the same services.
      createOpenAIAudioRouter(deps),
      createTranslationRouter(deps),
      createGeoRouter(deps),
      ...(deps.video ? [createVideoRouter({ ...deps.video, logger: deps.logger })] : []),
    ],
  });
}
