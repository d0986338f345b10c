import {
  OpenAISpeechRequest,
  OpenAITranscriptionFields,
  type OpenAISpeechFormat,
  type OpenAITranscription,
  type OpenAITranscriptionVerbose,
} from '@kasa/contracts';
import type { LanguageDetector } from '@kasa/language-detect';
import { describeIssues, HttpError, InputError, requireIdentity, type Identity, type Logger } from '@kasa/service-kit';
import { Router, type ErrorRequestHandler } from 'express';
import { finished } from 'node:stream/promises';
import type { ZodType, z } from 'zod';
import type { LanguageCatalogue } from '../languages/catalogue';
import { requireProPlan } from '../plans/requireProPlan';
import { personSlot, type VoiceSlots } from '../slots/voiceSlots';
import type { AudioEncoders, EncodingFormat } from '../speech/audioEncoder';
import { retryAfterOf } from '../speech/processPool';
import type { SpeechChain } from '../speech/speechChain';
import type { SpeechService } from '../speech/speechService';
import { audioUpload } from '../transcription/audioUpload';
import type { UploadedAudio } from '../transcription/transcriber';
import type { TranscriptionService } from '../transcription/transcriptionService';
import { audioDuration } from './audioDuration';
import { chooseSpeech } from './speechChoice';

/** OpenAI's `response_format` names as the encoders call them (OpenAI's opus is Ogg Opus). */
const ENCODING_OF: Record<OpenAISpeechFormat, EncodingFormat> = {
  mp3: 'mp3',
  opus: 'ogg',
  aac: 'aac',
  flac: 'flac',
  wav: 'wav',
  pcm: 'pcm',
};
const FORMAT_OF = Object.fromEntries(Object.entries(ENCODING_OF).map(([name, format]) => [format, name])) as Record<
  EncodingFormat,
  OpenAISpeechFormat
>;

/** The request field (OpenAI's `param`) that the services' refusals are about, by their code. */
const PARAM_OF_CODE: Record<string, string> = {
  unknown_voice: 'voice',
  language_not_spoken: 'language',
  unknown_language: 'language',
  language_not_heard: 'language',
  language_required: 'language',
  unsupported_media_type: 'file',
  empty_audio: 'file',
  audio_required: 'file',
};

/**
 * The request, or a 400 naming its first problem (the path of which is OpenAI's `param`); a refused value carries
 * OpenAI's code for it (`unsupported_value`, `unknown_parameter`), as on /v1/chat/completions.
 */
function parseOpenAIInput<S extends ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = describeIssues(result.error);
  const first = issues[0];
  const code = (result.error.issues[0] as { params?: { code?: unknown } } | undefined)?.params?.code;
  const message =
    first?.path && !first.message.startsWith(first.path) ? `${first.path}: ${first.message}` : first?.message;
  throw new InputError(message ?? 'Invalid request', issues, typeof code === 'string' ? code : undefined);
}

/**
 * Names the request field a refusal of the speech or transcription service is about, so that OpenAI's `param`
 * carries it (the shared error handler reads it from `details`): the voice, the language, the file.
 */
function namingTheParam(): ErrorRequestHandler {
  return (err, _req, _res, next) => {
    const param = err instanceof HttpError ? PARAM_OF_CODE[err.code] : undefined;
    if (!param || Array.isArray(err.details)) return next(err);
    const details = err.details && typeof err.details === 'object' ? err.details : {};
    next(new HttpError(err.status, err.code, err.message, { ...details, param }));
  };
}

export interface OpenAIAudioDeps {
  speech: SpeechService;
  chain: SpeechChain;
  encoders: AudioEncoders;
  detector: LanguageDetector;
  catalogue: LanguageCatalogue;
  transcription: TranscriptionService;
  maxAudioBytes: number;
  slots: VoiceSlots;
  logger: Logger;
}

/**
 * POST /v1/audio/speech and POST /v1/audio/transcriptions: OpenAI's Audio API over Kasa's speech chain and
 * transcribers, so that OpenAI's clients work unchanged. The same plan, per-person slots and limits as
 * /api/voice/synthesize and /api/voice/transcribe (their services do the work); errors carry OpenAI's `error` object.
 */
export function createOpenAIAudioRouter(deps: OpenAIAudioDeps): Router {
  const { speech, encoders, transcription, logger } = deps;
  const router = Router();

  router.post(
    '/v1/audio/speech',
    requireIdentity(),
    // One of the person's synthesis slots, as on /api/voice/synthesize; the plan is checked by the speech service.
    personSlot(deps.slots, 'synthesis', logger),
    async (req, res) => {
      const body = parseOpenAIInput(OpenAISpeechRequest, req.body);
      const format = ENCODING_OF[body.response_format];
      if (!encoders.supports(format, body.speed)) {
        const here = encoders.formats(body.speed).map((f) => FORMAT_OF[f]);
        const which = body.speed === 1 ? 'here' : `at speed ${body.speed} here`;
        throw new InputError(
          here.length
            ? `response_format ${body.response_format} cannot be made ${which} (the server has no encoder for it): ` +
                `use ${here.join(', ')}`
            : `speed ${body.speed} needs ffmpeg, which this server does not have: use speed 1`,
          { param: here.length ? 'response_format' : 'speed', available: here },
          'unsupported_value',
        );
      }
      const choice = chooseSpeech({ text: body.input, voice: body.voice, language: body.language }, deps);
      const identity = res.locals.identity as Identity;
      const cancel = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) cancel.abort();
      });
      try {
        const synthesis = await speech.start(
          { text: body.input, language: choice.language, ...(choice.voice ? { voice: choice.voice } : {}) },
          identity,
          cancel.signal,
          { stream: true, format, speed: body.speed },
        );
        // The audio itself, as OpenAI answers, streamed as it is made; the status goes out with the first audio, so
        // a synthesis refused or failed before it is an error answer (see POST /api/voice/synthesize).
        await synthesis.started;
        res.status(200).type(synthesis.contentType);
        res.setHeader('Cache-Control', 'no-store');
        res.setHeader('X-Kasa-Audio-Url', synthesis.audioUrl);
        res.setHeader('X-Kasa-Language', choice.language);
        const output = synthesis.output!;
        output.pipe(res, { end: false });
        // The response ends once the stored copy is complete (X-Kasa-Audio-Url can be fetched at once) and every
        // byte of the audio has passed.
        Promise.all([synthesis.done, finished(output)]).then(
          () => res.end(),
          (err: unknown) => {
            // A client that went away stopped the work itself: nothing failed.
            if (!cancel.signal.aborted)
              logger.error({ err, requestId: res.getHeader('x-request-id') }, 'OpenAI-compatible speech failed');
            res.destroy();
          },
        );
      } catch (err) {
        const retryAfter = retryAfterOf(err);
        if (retryAfter !== undefined) res.setHeader('Retry-After', String(retryAfter));
        throw err;
      }
    },
  );

  router.post(
    '/v1/audio/transcriptions',
    ...requireProPlan('speech to text'),
    // One of the person's transcription slots, taken before the recording (up to 10 MB) is read.
    personSlot(deps.slots, 'transcription', logger),
    // OpenAI's form may carry a few more fields than Kasa's own route (prompt, temperature, timestamp_granularities).
    audioUpload(deps.maxAudioBytes, { fields: 10, fileField: 'file' }),
    async (_req, res) => {
      const fields = parseOpenAIInput(OpenAITranscriptionFields, res.locals.fields ?? {});
      const audio = res.locals.audio as UploadedAudio;
      const cancel = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) cancel.abort();
      });
      const result = await transcription.transcribeInDetail(audio, fields.language, cancel.signal);
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('X-Kasa-Provider', result.provider);
      if (fields.response_format === 'text') {
        res.type('text/plain; charset=utf-8').send(result.text);
        return;
      }
      if (fields.response_format === 'verbose_json') {
        const verbose: OpenAITranscriptionVerbose = {
          task: 'transcribe',
          language: deps.catalogue.nameOf(result.language).toLowerCase(),
          duration: result.duration ?? audioDuration(audio.bytes, audio.contentType) ?? 0,
          text: result.text,
          segments: result.segments ?? [],
        };
        res.json(verbose);
        return;
      }
      res.json({ text: result.text } satisfies OpenAITranscription);
    },
  );

  router.use('/v1/audio', namingTheParam());
  return router;
}
