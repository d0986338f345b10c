import { TranscribeFields } from '@kasa/contracts';
import { parseInput, type Logger } from '@kasa/service-kit';
import { Router } from 'express';
import { requireProPlan } from '../plans/requireProPlan';
import { personSlot, type VoiceSlots } from '../slots/voiceSlots';
import { audioUpload } from './audioUpload';
import type { UploadedAudio } from './transcriber';
import type { TranscriptionService } from './transcriptionService';

export function createTranscriptionRouter(deps: {
  transcription: TranscriptionService;
  maxAudioBytes: number;
  slots: VoiceSlots;
  logger?: Logger;
}): Router {
  const router = Router();
  router.post(
    '/api/voice/transcribe',
    ...requireProPlan('speech to text'),
    // One of the person's transcription slots, taken before the recording (up to 10 MB) is read.
    personSlot(deps.slots, 'transcription', deps.logger),
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
