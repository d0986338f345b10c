import { BODY_LIMITS, type SynthesizeRequest } from '@kasa/contracts';
import { CallGuard, createLogger, ServiceMetrics, createServiceApp, type ConcurrencySlots } from '@kasa/service-kit';
import { identityHeaders, newIdentity } from '@kasa/test-kit';
import type { Express } from 'express';
import { PassThrough } from 'node:stream';
import request from 'supertest';
import type { LanguageCatalogue } from '../languages/catalogue';
import type { VoiceSlots } from '../slots/voiceSlots';
import {
  ENCODING_CONTENT_TYPES,
  type AudioEncoders,
  type EncodingFormat,
  type EncodingRequest,
} from '../speech/audioEncoder';
import { SpeechChain } from '../speech/speechChain';
import type { SpeechProvider, SpeechVoice } from '../speech/speechProvider';
import type { SpeechService } from '../speech/speechService';
import { wavHeader } from '../speech/wav';
import type { Transcriber, TranscriberResult } from '../transcription/transcriber';
import { TranscriptionService } from '../transcription/transcriptionService';
import { createOpenAIAudioRouter } from './openaiAudioRouter';

const logger = createLogger({ service: 'openai-audio-test', version: 'test', level: 'silent' });
const pro = identityHeaders(newIdentity('pro'));

const voice = (id: string, language: string, gender: 'male' | 'female'): SpeechVoice => ({
  id,
  name: id,
  languages: [language],
  locale: id.replace('+f', ''),
  gender,
  engine: 'espeak-ng',
  engineVoice: id,
});
const offline: SpeechProvider = {
  name: 'espeak-ng',
  available: true,
  sampleRate: 22_050,
  voices: () => [
    voice('en-us', 'en', 'male'),
    voice('en-us+f', 'en', 'female'),
    voice('sw', 'sw', 'male'),
    voice('sw+f', 'sw', 'female'),
  ],
  synthesize: () => Promise.reject(new Error('not used: the speech service is a stand-in here')),
};
const chain = new SpeechChain([offline], { timeoutMs: 1_000, sampleRate: 22_050, logger });

/** Swahili for "Habari", Twi (which nothing here speaks) for "Akwaaba", English otherwise. */
const detector = {
  detect: (text: string) =>
    text.startsWith('Habari')
      ? { language: 'sw', confidence: 0.9, reliable: true, alternatives: [] }
      : text.startsWith('Akwaaba')
        ? {
            language: 'tw',
            confidence: 0.6,
            reliable: false,
            alternatives: [{ language: 'ak', name: 'Akan', confidence: 0.2 }],
          }
        : { language: 'en', confidence: 0.9, reliable: true, alternatives: [] },
};
const NAMES: Record<string, string> = { en: 'English', sw: 'Swahili', tw: 'Twi', fr: 'French' };
const catalogue = {
  get: (tag: string) => (NAMES[tag.split('-')[0]!] ? { code: tag.split('-')[0]! } : undefined),
  nameOf: (code: string) => NAMES[code] ?? code,
} as unknown as LanguageCatalogue;

/** Slots in memory: the routes take and give back one per request. */
function slots(limit = 2): ConcurrencySlots {
  const held = new Map<string, number>();
  return {
    limit,
    acquire: async (owner) => {
      if ((held.get(owner) ?? 0) >= limit) return undefined;
      held.set(owner, (held.get(owner) ?? 0) + 1);
      return `${owner}:${held.get(owner)}`;
    },
    release: async (owner) => void held.set(owner, (held.get(owner) ?? 1) - 1),
  };
}
const voiceSlots = (): VoiceSlots => ({ synthesis: slots(), transcription: slots(), translation: slots() });

/** The encoders of a server without ffmpeg: MP3 by lamejs (the configured format) and WAV, at their own speed. */
const withoutFfmpeg = {
  supports: (format: EncodingFormat, speed = 1) => speed === 1 && (format === 'mp3' || format === 'wav'),
  formats: (speed = 1) => (speed === 1 ? (['mp3', 'wav'] as EncodingFormat[]) : []),
} as unknown as AudioEncoders;
const withFfmpeg = {
  supports: () => true,
  formats: () => Object.keys(ENCODING_CONTENT_TYPES),
} as unknown as AudioEncoders;

/** A stand-in speech service: records what it was asked and answers a few bytes as the audio. */
class SpeechCalls {
  readonly calls: { input: SynthesizeRequest; options: EncodingRequest & { stream?: boolean } }[] = [];
  readonly service = {
    start: async (input: SynthesizeRequest, _identity: unknown, _signal: AbortSignal, options: EncodingRequest) => {
      this.calls.push({ input, options });
      const output = new PassThrough();
      output.end(Buffer.from('ID3 the audio'));
      const contentType = ENCODING_CONTENT_TYPES[options.format ?? 'mp3'];
      const response = { audioUrl: '/api/voice/audio/a', duration: 1, contentType };
      return {
        id: 'a',
        audioUrl: '/api/voice/audio/a',
        contentType,
        output,
        started: Promise.resolve(),
        done: Promise.resolve(response),
      };
    },
  } as unknown as SpeechService;
}

const whisperLike = (result: TranscriberResult): Transcriber => ({
  name: 'openai',
  languages: new Set(['en', 'sw']),
  detectsLanguage: true,
  accepts: () => true,
  transcribe: async () => result,
});

function appWith(options: { encoders?: AudioEncoders; speech?: SpeechCalls; transcribers?: Transcriber[] }): Express {
  const transcription = new TranscriptionService({
    transcribers: options.transcribers ?? [],
    guard: new CallGuard({ errorThresholdPercentage: 50, volumeThreshold: 5, resetTimeoutMs: 30_000, logger }),
    timeoutMs: 1_000,
    catalogue,
    detector: detector as never,
    logger,
  });
  return createServiceApp({
    logger,
    metrics: new ServiceMetrics('openai_audio_test'),
    readiness: {},
    bodyLimit: BODY_LIMITS.voice,
    routes: createOpenAIAudioRouter({
      speech: (options.speech ?? new SpeechCalls()).service,
      chain,
      encoders: options.encoders ?? withFfmpeg,
      detector: detector as never,
      catalogue,
      transcription,
      maxAudioBytes: 200 * 1024,
      slots: voiceSlots(),
      logger,
    }),
  });
}

/** One second of silence as WAV (16-bit mono, 16 kHz). */
const silence = Buffer.concat([wavHeader(16_000, 32_000), Buffer.alloc(32_000)]);

describe('POST /v1/audio/speech', () => {
  const speak = (app: Express, body: object) => request(app).post('/v1/audio/speech').set(pro).send(body);

  it('answers the audio itself with its type, for the detected language in a voice of the kind named', async () => {
    const speech = new SpeechCalls();
    const res = await speak(appWith({ speech }), { model: 'tts-1', voice: 'nova', input: 'Habari ya asubuhi' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('audio/mpeg');
    expect(res.headers['x-kasa-audio-url']).toBe('/api/voice/audio/a');
    expect(res.headers['x-kasa-language']).toBe('sw');
    expect(Buffer.from(res.body as Buffer).toString()).toBe('ID3 the audio');
    expect(speech.calls[0]).toEqual({
      input: { text: 'Habari ya asubuhi', language: 'sw', voice: 'sw+f' },
      options: { stream: true, format: 'mp3', speed: 1 },
    });
  });

  it('maps each format to its encoding, passes the speed, and takes a Kasa voice id and language as they are', async () => {
    const speech = new SpeechCalls();
    const app = appWith({ speech });
    const opus = await speak(app, {
      model: 'kasa-speech',
      voice: 'onyx',
      input: 'Good morning',
      response_format: 'opus',
      speed: 1.5,
    });
    expect(opus.headers['content-type']).toBe('audio/ogg');
    const pcm = await speak(app, {
      model: 'gpt-4o-mini-tts',
      voice: { id: 'en-us+f' },
      input: 'Bonjour',
      response_format: 'pcm',
      instructions: 'Speak warmly.',
      language: 'fr',
    });
    expect(pcm.headers['content-type']).toBe('audio/pcm');
    expect(speech.calls.map((c) => [c.input.voice, c.input.language, c.options.format, c.options.speed])).toEqual([
      ['en-us', 'en', 'ogg', 1.5],
      ['en-us+f', 'fr', 'pcm', 1],
    ]);
  });

  it('reads a text whose detected language no voice speaks in English rather than refusing it', async () => {
    const speech = new SpeechCalls();
    const res = await speak(appWith({ speech }), { model: 'tts-1', voice: 'alloy', input: 'Akwaaba' });
    expect(res.status).toBe(200);
    expect(speech.calls[0]!.input).toEqual({ text: 'Akwaaba', language: 'en', voice: 'en-us' });
  });

  it('reads in a Kasa voice’s own language when the voice does not speak the detected one', async () => {
    const speech = new SpeechCalls();
    const app = appWith({ speech });
    await speak(app, { model: 'tts-1', voice: 'SW+F', input: 'Good morning' });
    await speak(app, { model: 'tts-1', voice: 'sw', input: 'Habari ya asubuhi' });
    expect(speech.calls.map((c) => [c.input.voice, c.input.language])).toEqual([
      ['sw+f', 'sw'],
      ['sw', 'sw'],
    ]);
  });

  it('refuses a format or speed the server has no encoder for, naming the formats it has', async () => {
    const app = appWith({ encoders: withoutFfmpeg });
    const aac = await speak(app, { model: 'tts-1', voice: 'alloy', input: 'Hello', response_format: 'aac' });
    expect(aac.status).toBe(400);
    expect(aac.body).toMatchObject({
      code: 'unsupported_value',
      details: { available: ['mp3', 'wav'] },
      error: { type: 'invalid_request_error', param: 'response_format', code: 'unsupported_value' },
    });
    expect(aac.body.error.message).toMatch(/aac cannot be made here .*use mp3, wav/);
    const fast = await speak(app, { model: 'tts-1', voice: 'alloy', input: 'Hello', speed: 2 });
    expect(fast.status).toBe(400);
    expect(fast.body.error).toMatchObject({ param: 'speed', message: expect.stringMatching(/needs ffmpeg/) });
  });

  it.each([
    ['a model it does not have', { model: 'tts-2', voice: 'alloy', input: 'Hi' }, 'model', 'unsupported_value'],
    ['an empty input', { model: 'tts-1', voice: 'alloy', input: '' }, 'input', 'validation_failed'],
    [
      'an input over 4096 characters',
      { model: 'tts-1', voice: 'alloy', input: 'x'.repeat(4_097) },
      'input',
      'validation_failed',
    ],
    ['speed 4.5', { model: 'tts-1', voice: 'alloy', input: 'Hi', speed: 4.5 }, 'speed', 'validation_failed'],
    [
      'a format OpenAI does not have',
      { model: 'tts-1', voice: 'alloy', input: 'Hi', response_format: 'ogg' },
      'response_format',
      'validation_failed',
    ],
    [
      'Server-Sent Events',
      { model: 'tts-1', voice: 'alloy', input: 'Hi', stream_format: 'sse' },
      'stream_format',
      'unsupported_value',
    ],
    ['an unknown field', { model: 'tts-1', voice: 'alloy', input: 'Hi', pitch: 2 }, 'pitch', 'unknown_parameter'],
    ['no voice', { model: 'tts-1', input: 'Hi' }, 'voice', 'validation_failed'],
  ])('refuses %s with a 400 naming the field', async (_what, body, param, code) => {
    const res = await speak(appWith({}), body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code,
      requestId: expect.any(String),
      error: { type: 'invalid_request_error', param, code },
    });
  });

  it('is refused without the gateway’s identity (401 in OpenAI’s shape)', async () => {
    const res = await request(appWith({}))
      .post('/v1/audio/speech')
      .send({ model: 'tts-1', voice: 'alloy', input: 'Hi' });
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ type: 'authentication_error' });
  });
});

describe('POST /v1/audio/transcriptions', () => {
  const transcribe = (app: Express, fields: Record<string, string>, file = silence, name = 'clip.wav') => {
    const call = request(app).post('/v1/audio/transcriptions').set(pro);
    for (const [field, value] of Object.entries(fields)) void call.field(field, value);
    // No type of its own, as OpenAI's clients send a file: the name says it is WAV.
    return call.attach('file', file, { filename: name, contentType: 'application/octet-stream' });
  };
  const segments = [{ id: 0, start: 0, end: 0.9, text: 'Good morning', no_speech_prob: 0.01 }];

  it('answers json, text and verbose_json with what the transcriber gave', async () => {
    const app = appWith({
      transcribers: [whisperLike({ text: 'Good morning', language: 'en', duration: 0.95, segments })],
    });
    const json = await transcribe(app, { model: 'whisper-1' });
    expect(json.status).toBe(200);
    expect(json.body).toEqual({ text: 'Good morning' });
    expect(json.headers['x-kasa-provider']).toBe('openai');
    const text = await transcribe(app, { model: 'gpt-4o-transcribe', response_format: 'text' });
    expect(text.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(text.text).toBe('Good morning');
    const verbose = await transcribe(app, {
      model: 'kasa-transcribe',
      response_format: 'verbose_json',
      language: 'sw',
      prompt: 'A greeting.',
      temperature: '0.2',
      'timestamp_granularities[]': 'segment',
    });
    expect(verbose.body).toEqual({
      task: 'transcribe',
      language: 'swahili',
      duration: 0.95,
      text: 'Good morning',
      segments,
    });
  });

  it('reads the duration from the file when the transcriber gives none, with no segments', async () => {
    const app = appWith({ transcribers: [whisperLike({ text: 'Good morning', language: 'en' })] });
    const verbose = await transcribe(app, { model: 'whisper-1', response_format: 'verbose_json' });
    expect(verbose.body).toEqual({
      task: 'transcribe',
      language: 'english',
      duration: 1,
      text: 'Good morning',
      segments: [],
    });
  });

  it('answers 503 in OpenAI’s shape saying a provider must be connected when none is', async () => {
    const res = await transcribe(appWith({}), { model: 'whisper-1' });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      code: 'upstream_unavailable',
      error: { type: 'api_error', message: expect.stringMatching(/needs a configured speech-to-text provider/) },
    });
    expect(res.body.error.message).toMatch(/an operator adds in the browser/);
  });

  it.each([
    [{ model: 'whisper-2' }, 'model'],
    [{ model: 'whisper-1', response_format: 'srt' }, 'response_format'],
    [{ model: 'whisper-1', temperature: 'warm' }, 'temperature'],
    [{ model: 'whisper-1', stream: 'true' }, 'stream'],
    [{ model: 'whisper-1', 'timestamp_granularities[]': 'word' }, 'timestamp_granularities'],
    [{ model: 'whisper-1', language: 'not a language' }, 'language'],
    [{ model: 'whisper-1', diarize: 'yes' }, 'diarize'],
  ])('refuses %j with a 400 naming %s', async (fields, param) => {
    const app = appWith({ transcribers: [whisperLike({ text: 'x' })] });
    const res = await transcribe(app, fields);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', param });
  });

  it('names the file when it is missing, not audio, or of a type it does not take', async () => {
    const app = appWith({ transcribers: [whisperLike({ text: 'x' })] });
    const missing = await request(app).post('/v1/audio/transcriptions').set(pro).field('model', 'whisper-1');
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({
      param: 'file',
      code: 'audio_required',
      message: expect.stringMatching(/`file`/),
    });
    const notAudio = await transcribe(app, { model: 'whisper-1' }, Buffer.from('not audio at all'));
    expect(notAudio.status).toBe(415);
    expect(notAudio.body.error).toMatchObject({ param: 'file', type: 'invalid_request_error' });
    const text = await transcribe(app, { model: 'whisper-1' }, Buffer.from('hello'), 'notes.txt');
    expect(text.status).toBe(415);
    expect(text.body.error.param).toBe('file');
  });

  it('is for Pro and Enterprise: 403 naming the plan for Free', async () => {
    const res = await request(appWith({ transcribers: [whisperLike({ text: 'x' })] }))
      .post('/v1/audio/transcriptions')
      .set(identityHeaders(newIdentity('free')))
      .field('model', 'whisper-1')
      .attach('file', silence, { filename: 'clip.wav' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ details: { plan: 'pro' }, error: { type: 'permission_error' } });
  });
});
