import type { SynthesizeRequest, SynthesizeResponse, VoiceStatus } from '@kasa/contracts';
import {
  AuthenticationError,
  InputError,
  assertPlanAllows,
  PUBLISH_WAIT_MS,
  ServiceUnavailableError,
  type EventBus,
  type Identity,
  type Logger,
} from '@kasa/service-kit';
import { createHash } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import type { LanguageCatalogue } from '../languages/catalogue';
import type { LanguageDetector } from '@kasa/language-detect';
import type { AudioEncoders, EncodingJob, EncodingRequest } from './audioEncoder';
import type { AudioStore } from './audioStore';
import { findSample } from './samples';
import type { SpeechChain } from './speechChain';
import type { SpeechVoice } from './speechProvider';
import { splitIntoChunks } from './textChunks';

export const AUDIO_PATH = '/api/voice/audio';

export interface SpeechServiceDeps {
  chain: SpeechChain;
  encoders: AudioEncoders;
  store: AudioStore;
  detector: LanguageDetector;
  catalogue: LanguageCatalogue;
  bus: Pick<EventBus, 'publishWithin'>;
  logger: Logger;
  audioTtlMs: number;
}

/**
 * A synthesis under way: when asked for a stream, its audio comes out of `output` as it is made; `started` settles
 * once the first chunk of speech is made (or the synthesis failed before: refused by a busy process pool, say), and
 * `done` once the audio is stored.
 */
export interface Synthesis {
  id: string;
  audioUrl: string;
  contentType: string;
  output: Readable | undefined;
  started: Promise<void>;
  done: Promise<SynthesizeResponse>;
}

const noop = () => undefined;

/** Text to speech: who may, which language and voice, chunked synthesis, encoding and storage. */
export class SpeechService {
  constructor(private readonly deps: SpeechServiceDeps) {}

  status(): VoiceStatus {
    const { chain, encoders } = this.deps;
    const engines = chain.describe();
    // lamejs encodes MP3 as configured, but only ffmpeg makes videos.
    const withoutFfmpeg = encoders.name === 'lamejs';
    const degraded = !chain.available || !encoders.encoderAvailable || withoutFfmpeg;
    return {
      status: degraded ? 'degraded' : 'ok',
      ...(!chain.available
        ? {
            message:
              'No speech engine is available (espeak-ng is not installed and its WebAssembly build does not run): ' +
              'speech synthesis is off.',
          }
        : !encoders.encoderAvailable
          ? { message: 'ffmpeg is not available: audio is served as WAV, which is larger, and videos cannot be made.' }
          : withoutFfmpeg
            ? { message: 'ffmpeg is not available: MP3 is encoded in JavaScript (slower), and videos cannot be made.' }
            : {}),
      engines,
      encoder: { name: encoders.name, available: encoders.encoderAvailable, format: encoders.format },
    };
  }

  /**
   * Checks the request and starts synthesizing. The public samples are for everyone; any other text needs a
   * signed-in Pro or Enterprise user (spec section 6: voice is a Pro feature). The audio is in the configured format
   * unless `options` asks for another format or speed (the OpenAI-compatible route; see `AudioEncoders.supports`).
   */
  async start(
    input: SynthesizeRequest,
    identity: Identity | undefined,
    signal: AbortSignal,
    options: { stream?: boolean } & EncodingRequest = {},
  ): Promise<Synthesis> {
    const sample = findSample(input.text);
    const isSample =
      !!sample &&
      (input.language === 'auto' || input.language === sample.language) &&
      (!input.voice || input.voice.toLowerCase() === sample.voice);
    if (!isSample) {
      if (!identity) throw new AuthenticationError('Authentication required: sign in to use voice');
      assertPlanAllows(
        identity.tier,
        'voice',
        'Voice is part of the Pro plan. Upgrade to Pro to have text read aloud.',
      );
    }
    const { chain, encoders, store } = this.deps;
    if (!chain.available) {
      throw new ServiceUnavailableError(
        'Speech synthesis is unavailable: no speech engine is installed on the server (see GET /api/voice/status).',
      );
    }
    const language = isSample ? sample.language : this.languageOf(input);
    const voice = chain.pickVoice(language, isSample ? sample.voice : input.voice);
    if (!voice) {
      const name = this.deps.catalogue.nameOf(language);
      if (input.voice && chain.canSpeak(language)) {
        throw new InputError(
          `Unknown voice '${input.voice}' for ${name}; GET /api/voice/voices?language=${language} lists them`,
          { language, voice: input.voice },
          'unknown_voice',
        );
      }
      throw new InputError(
        `Kasa cannot speak ${name} (${language}) yet; GET /api/languages?capability=speak lists the languages it speaks`,
        { language },
        'language_not_spoken',
      );
    }

    const encoding = { format: options.format ?? encoders.format, speed: options.speed ?? 1 };
    const contentType = encoders.contentTypeOf(encoding.format);
    const cacheKey = isSample ? this.cacheKey(input.text, voice, encoding) : undefined;
    if (cacheKey) {
      const cached = await store.findCached(cacheKey, new Date(Date.now() - this.deps.audioTtlMs / 2));
      if (cached) {
        const audioUrl = `${AUDIO_PATH}/${cached.id}`;
        return {
          id: cached.id,
          audioUrl,
          contentType: cached.metadata.contentType,
          output: undefined,
          started: Promise.resolve(),
          done: Promise.resolve(
            this.response(
              cached.id,
              cached.metadata.duration ?? 0,
              voice,
              language,
              cached.metadata.engine,
              cached.metadata.contentType,
            ),
          ),
        };
      }
    }

    // A cached sample was looked up above, which already asked the database.
    if (!cacheKey) await store.ensureReachable();
    const id = store.newId();
    const upload = store.openUpload(id, {
      contentType,
      language,
      voice: voice.id,
      engine: voice.engine,
      characters: input.text.length,
      ...(identity ? { userId: identity.userId } : {}),
      ...(cacheKey ? { cacheKey } : {}),
    });
    const stored = new Promise<void>((resolve, reject) => {
      upload.on('finish', resolve);
      upload.on('error', reject);
    });
    // The stream the client reads: it keeps what the encoder wrote until the route pipes it into the response.
    const output = options.stream ? new PassThrough() : undefined;
    let job: EncodingJob | undefined;
    let onStarted: () => void = noop;
    let onFailedEarly: (err: unknown) => void = noop;
    const started = new Promise<void>((resolve, reject) => {
      onStarted = resolve;
      onFailedEarly = reject;
    });
    started.catch(noop);
    // The encoder (an ffmpeg process) starts with the first chunk of speech, not before: a synthesis that waits for
    // a place in the process pool, or is refused one, holds no process.
    const startEncoding = (): EncodingJob => {
      job = encoders.start(encoding);
      job.output.pipe(upload);
      if (output) job.output.pipe(output);
      onStarted();
      return job;
    };
    const done = this.run(input.text, language, voice, startEncoding, signal)
      .then(async ({ seconds: spoken, engine }) => {
        // Read faster or slower, the audio lasts that much less or more than the engines spoke.
        const seconds = Math.round((spoken / encoding.speed) * 1000) / 1000;
        await stored;
        await store.complete(id, seconds);
        void this.deps.bus.publishWithin(
          'voice.speech.synthesized',
          {
            ...(identity ? { userId: identity.userId } : {}),
            language,
            engine,
            characters: input.text.length,
            durationSeconds: seconds,
          },
          PUBLISH_WAIT_MS,
        );
        return this.response(id, seconds, voice, language, engine, contentType);
      })
      .catch(async (err: unknown) => {
        onFailedEarly(err);
        if (job) {
          job.abort();
          job.output.unpipe(upload);
        }
        await upload.abort().catch(() => undefined);
        throw err;
      });
    // Awaited by the route; a stream whose synthesis failed before its first audio is answered from `started`.
    done.catch(noop);
    return { id, audioUrl: `${AUDIO_PATH}/${id}`, contentType, output, started, done };
  }

  /**
   * Synthesizes chunk after chunk, the next one while the current one is encoded, and feeds the encoder in order.
   * One chunk at a time is in the process pool (running or waiting for a place): a long text takes its turns
   * between other people's work rather than filling the pool.
   */
  private async run(
    text: string,
    language: string,
    voice: SpeechVoice,
    startEncoding: () => EncodingJob,
    signal: AbortSignal,
  ): Promise<{ seconds: number; engine: string }> {
    const chunks = splitIntoChunks(text, language);
    let samples = 0;
    let sampleRate = 0;
    let engine = voice.engine;
    let job: EncodingJob | undefined;
    // The first chunk is what the listener waits for; the later ones have the time it takes to play (synthesis is
    // many times faster than speech), so they give way to other people's first chunks on busy cores.
    const synthesize = (chunk: string, background: boolean) => {
      const promise = this.deps.chain.synthesize(chunk, voice, signal, language, { background });
      promise.catch(() => undefined); // awaited below; this only keeps an early exit from leaving it unhandled
      return promise;
    };
    let next = synthesize(chunks[0]!, false);
    for (let i = 0; i < chunks.length; i++) {
      const audio = await next;
      const startNext = () => {
        if (i + 1 < chunks.length) next = synthesize(chunks[i + 1]!, true);
      };
      // The first chunk's audio goes to the encoder before anything else competes for the CPU (first audio
      // matters most); after that, the next chunk is synthesized while the current one is encoded.
      if (i > 0) startNext();
      // The encoder was started for one sample rate; an engine with another would need resampling first.
      if (sampleRate && audio.sampleRate !== sampleRate) throw new Error('speech engines disagree on the sample rate');
      sampleRate = audio.sampleRate;
      engine = audio.engine;
      samples += audio.pcm.length / 2;
      job ??= startEncoding();
      await job.write(audio.pcm);
      // The first audio is on its way: the rest of a long text is encoded at the background priority too.
      if (i === 0 && chunks.length > 1) job.background();
      if (i === 0) startNext();
    }
    await (job ?? startEncoding()).end();
    return { seconds: Math.round((samples / sampleRate) * 1000) / 1000, engine };
  }

  private languageOf(input: SynthesizeRequest): string {
    if (input.language === 'auto') return this.deps.detector.detect(input.text).language;
    const language = this.deps.catalogue.get(input.language);
    if (!language) {
      throw new InputError(`Unknown language '${input.language}'`, { language: input.language }, 'unknown_language');
    }
    return language.code;
  }

  private cacheKey(text: string, voice: SpeechVoice, encoding: { format: string; speed: number }): string {
    // The configured format at its own speed keeps the key it always had (audio already stored still matches).
    const format = encoding.speed === 1 ? encoding.format : `${encoding.format}@${encoding.speed}`;
    return createHash('sha256').update(`${voice.engine}\n${voice.id}\n${format}\n${text}`).digest('hex');
  }

  private response(
    id: string,
    duration: number,
    voice: SpeechVoice,
    language: string,
    engine: string,
    contentType: string,
  ): SynthesizeResponse {
    return { audioUrl: `${AUDIO_PATH}/${id}`, duration, id, contentType, language, voice: voice.id, engine };
  }
}
