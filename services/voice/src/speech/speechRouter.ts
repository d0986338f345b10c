import {
  AudioIdParam,
  GatewayIdentityHeaders,
  SynthesizeRequest,
  VoiceListQuery,
  type Voice,
  type VoiceList,
  type VoiceSampleList,
} from '@kasa/contracts';
import { HttpError, NotFoundError, parseInput, requireIdentity, type Identity, type Logger } from '@kasa/service-kit';
import { Router, type RequestHandler } from 'express';
import type { LanguageCatalogue } from '../languages/catalogue';
import type { AudioStore } from './audioStore';
import { VOICE_SAMPLES } from './samples';
import type { SpeechChain } from './speechChain';
import type { SpeechService } from './speechService';

/** Audio formats a client may ask to have streamed instead of a JSON answer. */
const STREAM_TYPES = ['audio/mpeg', 'audio/ogg', 'audio/wav', 'audio/*'];

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
}): Router {
  const { speech, chain, store, catalogue, logger } = deps;
  const router = Router();

  router.get('/api/voice/status', (_req, res) => {
    res.json(speech.status());
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
      language: v.languages[0]!,
      locale: v.locale,
      ...(v.gender ? { gender: v.gender } : {}),
      engine: v.engine,
    }));
    res.json({ voices } satisfies VoiceList);
  });

  router.post('/api/voice/synthesize', optionalIdentity(), async (req, res) => {
    const input = parseInput(SynthesizeRequest, req.body);
    const identity = res.locals.identity as Identity | undefined;
    // The client going away stops the work: nobody would fetch the audio.
    const cancel = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) cancel.abort();
    });
    const synthesis = await speech.start(input, identity, cancel.signal);
    const wantsStream = req.accepts(['application/json', ...STREAM_TYPES]) !== 'application/json';
    if (wantsStream && synthesis.output) {
      // Audio as it is made: the first sentence plays while the rest is synthesized. The response ends only once
      // the stored copy is complete, so X-Kasa-Audio-Url can be fetched as soon as the stream has ended.
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
  });

  router.get('/api/voice/audio/:id', async (req, res) => {
    const { id } = parseInput(AudioIdParam, req.params, 'path');
    const audio = await store.find(id);
    if (!audio || audio.metadata.duration === undefined)
      throw new NotFoundError('No audio with that id (it may have expired)');
    const range = req.headers.range ? req.range(audio.length, { combine: true }) : undefined;
    if (range === -1) {
      res.setHeader('Content-Range', `bytes */${audio.length}`);
      throw new HttpError(416, 'range_not_satisfiable', 'The requested range is outside the audio');
    }
    const maxAge = Math.max(0, Math.floor((audio.uploadDate.getTime() + deps.audioTtlMs - Date.now()) / 1000));
    res.setHeader('Content-Type', audio.metadata.contentType);
    res.setHeader('Accept-Ranges', 'bytes');
    res.setHeader('ETag', `"${audio.id}"`);
    res.setHeader('Last-Modified', audio.uploadDate.toUTCString());
    // The address is the only secret, so shared caches may keep the audio, but not past its expiry.
    res.setHeader('Cache-Control', `public, max-age=${maxAge}, immutable`);
    res.setHeader('X-Audio-Duration', String(audio.metadata.duration));
    if (req.fresh) {
      res.status(304).end();
      return;
    }
    let start = 0;
    let end = audio.length - 1;
    // A malformed range, or several ranges, get the whole file (RFC 9110 allows ignoring Range).
    if (range && range !== -2 && range.type === 'bytes' && range.length === 1) {
      start = range[0]!.start;
      end = range[0]!.end;
      res.status(206);
      res.setHeader('Content-Range', `bytes ${start}-${end}/${audio.length}`);
    }
    res.setHeader('Content-Length', String(end - start + 1));
    if (req.method === 'HEAD' || audio.length === 0) {
      res.end();
      return;
    }
    const stream = store.openRange(audio, start, end);
    stream.on('error', (err) => {
      logger.error({ err, requestId: res.getHeader('x-request-id') }, 'audio read failed');
      res.destroy();
    });
    stream.pipe(res);
  });

  return router;
}
