import {
  AudioIdParam,
  GatewayIdentityHeaders,
  SynthesizeRequest,
  VoiceListQuery,
  type Voice,
  type VoiceList,
  type VoiceSampleList,
} from '@kasa/contracts';
import { NotFoundError, parseInput, requireIdentity, type Identity, type Logger } from '@kasa/service-kit';
import { Router, type RequestHandler } from 'express';
import type { LanguageCatalogue } from '../languages/catalogue';
import { personSlotWhenSignedIn, type VoiceSlots } from '../slots/voiceSlots';
import type { AudioStore } from './audioStore';
import { retryAfterOf } from './processPool';
import { VOICE_SAMPLES } from './samples';
import type { SpeechChain } from './speechChain';
import { serveStoredFile } from './serveStoredFile';
import type { SpeechService } from './speechService';
import type { TranscriptionService } from '../transcription/transcriptionService';
import type { TranslationService } from '../translation/translationService';
import { voiceStatus } from '../voiceStatus';

/**
 * Audio formats a client may ask to have streamed instead of a JSON answer. `Accept: audio/*` matches them; offering
 * `audio/*` itself would also match `*\/*` (what fetch and curl send) and turn every plain call into a stream.
 */
const STREAM_TYPES = ['audio/mpeg', 'audio/ogg', 'audio/wav'];

/**
 * The identity headers when the gateway sent them (a signed-in caller), nothing otherwise: synthesizing the public
 * samples needs no account.
 */
function optionalIdentity(): RequestHandler {
  const required = requireIdentity();
  return (req, res, next) => (req.get(GatewayIdentityHeaders.userId) ? required(req, res, next) : next());
}

export function createSpeechRouter(deps: {
  speech: SpeechService;
  chain: SpeechChain;
  store: AudioStore;
  catalogue: LanguageCatalogue;
  audioTtlMs: number;
  logger: Logger;
  slots: VoiceSlots;
  transcription?: TranscriptionService;
  translation?: TranslationService;
}): Router {
  const { speech, chain, store, catalogue, logger } = deps;
  const router = Router();

  // The same parts travel in voice's heartbeats, from which the status page reads them (see voiceStatus.ts).
  router.get('/api/voice/status', (_req, res) => {
    res.json(voiceStatus(deps));
  });

  router.get('/api/voice/samples', (_req, res) => {
    const samples = VOICE_SAMPLES.filter((s) => chain.canSpeak(s.language));
    res.json({ samples } satisfies VoiceSampleList);
  });

  router.get('/api/voice/voices', (req, res) => {
    const query = parseInput(VoiceListQuery, req.query, 'query');
    const language = query.language ? (catalogue.get(query.language)?.code ?? query.language) : undefined;
    const voices: Voice[] = chain.voices(language).map((v) => ({
      id: v.id,
      name: v.name,
      // A multilingual voice is listed under the language asked for.
      language: language && v.languages.includes(language) ? language : v.languages[0]!,
      locale: v.locale === 'mul' && language ? language : v.locale,
      ...(v.gender ? { gender: v.gender } : {}),
      engine: v.engine,
    }));
    res.json({ voices } satisfies VoiceList);
  });

  // A signed-in caller holds one of their synthesis slots while the text is read (anonymous callers may only have
  // the cached sample sentences read, limited per address at the gateway).
  const synthesisSlot = personSlotWhenSignedIn(deps.slots, 'synthesis', logger);

  router.post('/api/voice/synthesize', optionalIdentity(), synthesisSlot, async (req, res) => {
    const input = parseInput(SynthesizeRequest, req.body);
    const identity = res.locals.identity as Identity | undefined;
    // The client going away stops the work: nobody would fetch the audio.
    const cancel = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) cancel.abort();
    });
    const wantsStream = req.accepts(['application/json', ...STREAM_TYPES]) !== 'application/json';
    try {
      const synthesis = await speech.start(input, identity, cancel.signal, { stream: wantsStream });
      if (synthesis.output) {
        // Audio as it is made: the first sentence plays while the rest is synthesized. The status goes out with the
        // first audio, so a synthesis refused or failed before it (a busy server) is answered as an error. The
        // response ends only once the stored copy is complete, so X-Kasa-Audio-Url can be fetched as soon as the
        // stream has ended.
        await synthesis.started;
        res.status(200).type(synthesis.contentType);
        res.setHeader('Cache-Control', 'no-store');
        res.setHeader('X-Kasa-Audio-Url', synthesis.audioUrl);
        synthesis.output.pipe(res, { end: false });
        synthesis.done.then(
          () => res.end(),
          (err: unknown) => {
            logger.error({ err, requestId: res.getHeader('x-request-id') }, 'streamed synthesis failed');
            res.destroy();
          },
        );
        return;
      }
      const result = await synthesis.done;
      res.status(201).json(result);
    } catch (err) {
      // A busy process pool: the shared error body (503), with when to try again.
      const retryAfter = retryAfterOf(err);
      if (retryAfter !== undefined) res.setHeader('Retry-After', String(retryAfter));
      throw err;
    }
  });

  router.get('/api/voice/audio/:id', async (req, res) => {
    const { id } = parseInput(AudioIdParam, req.params, 'path');
    const audio = await store.find(id);
    if (!audio || audio.metadata.duration === undefined)
      throw new NotFoundError('No audio with that id (it may have expired)');
    const maxAge = Math.max(0, Math.floor((audio.uploadDate.getTime() + deps.audioTtlMs - Date.now()) / 1000));
    res.setHeader('X-Audio-Duration', String(audio.metadata.duration));
    serveStoredFile(req, res, { store, file: audio, maxAgeSeconds: maxAge, logger, what: 'audio' });
  });

  return router;
}
