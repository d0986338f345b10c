import { TranscribeFields } from '@kasa/contracts';
import { parseInput } from '@kasa/service-kit';
import { Router } from 'express';
import { requireProPlan } from '../plans/requireProPlan';
import { audioUpload } from './audioUpload';
import type { UploadedAudio } from './transcriber';
import type { TranscriptionService } from './transcriptionService';

export function createTranscriptionRouter(deps: {
  transcription: TranscriptionService;
  maxAudioBytes: number;
}): Router {
  const router = Router();
  router.post(
    '/api/voice/transcribe',
    ...requireProPlan('speech to text'),
    audioUpload(deps.maxAudioBytes),
    async (_req, res) => {
      const fields = parseInput(TranscribeFields, res.locals.fields ?? {}, 'form fields');
      // The client going away stops the provider call: nobody would read the text.
      const cancel = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) cancel.abort();
      });
      const result = await deps.transcription.transcribe(
        res.locals.audio as UploadedAudio,
        fields.language,
        cancel.signal,
      );
      res.setHeader('Cache-Control', 'no-store');
      res.json(result);
    },
  );
  return router;
}
