import type { AuthResponse, CreateApiKeyResponse } from '@kasa/contracts';
import OpenAI, { toFile } from 'openai';
import { execFile, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { FakeSpeechProvider } from '../support/fakeSpeechProvider';
import { startPlatform, type RunningPlatform } from '../support/platform';

/**
 * OpenAI's Audio API as integrators use it: the official `openai` npm client pointed at the gateway of the built
 * platform, with API keys. Speech needs no provider (eSpeak NG offline, encoded by ffmpeg); speech to text goes to a
 * fake Google Speech-to-Text at the edge (it only transcribes, so speech stays offline).
 */
const HEARD = 'Good morning from Accra';

let platform: RunningPlatform;
let provider: FakeSpeechProvider;
let pro: OpenAI;
let free: OpenAI;
let chatOnlyKey: string;
let recording: Buffer;

const url = (path: string) => `${platform.baseUrl}${path}`;

async function post(path: string, body: unknown, token?: string) {
  const res = await fetch(url(path), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** A new account (Pro through the checkout when asked) and its API keys: one with every scope, one for chat only. */
async function account(plan: 'free' | 'pro'): Promise<{ key: string; chatOnly: string }> {
  const id = randomUUID().slice(0, 8);
  const registered = await post('/api/auth/register', {
    username: `audio_${id}`,
    email: `audio.${id}@example.com`,
    password: 'akwaaba-42',
  });
  expect(registered.status).toBe(201);
  let { token } = registered.body as AuthResponse;
  if (plan === 'pro') {
    const checkout = await post('/api/billing/checkout', { planId: 'pro' }, token);
    expect(checkout.status).toBeLessThan(300);
    token = checkout.body.token as string;
  }
  const key = await post('/api/developer/keys', { name: 'Audio client' }, token);
  const chatOnly = await post('/api/developer/keys', { name: 'Chat client', scopes: ['chat'] }, token);
  expect([key.status, chatOnly.status]).toEqual([201, 201]);
  return {
    key: (key.body as CreateApiKeyResponse).secret,
    chatOnly: (chatOnly.body as CreateApiKeyResponse).secret,
  };
}

const clientOf = (apiKey: string) => new OpenAI({ baseURL: `${platform.baseUrl}/v1`, apiKey, maxRetries: 0 });

/** The error a call failed with, checked to be of the client's class for it. */
async function errorOf<T extends abstract new (...args: never[]) => Error>(call: Promise<unknown>, kind: T) {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(kind);
  return err as InstanceType<T>;
}

/** Seconds of audio ffmpeg decodes from the bytes (to 16 kHz mono PCM): they play, and last that long. */
function playedSeconds(bytes: Buffer): number {
  const decoded = spawnSync(
    'ffmpeg',
    ['-v', 'error', '-i', 'pipe:0', '-f', 's16le', '-ac', '1', '-ar', '16000', 'pipe:1'],
    {
      input: bytes,
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  expect(decoded.stderr.toString()).toBe('');
  expect(decoded.status).toBe(0);
  return decoded.stdout.length / 32_000;
}

beforeAll(async () => {
  provider = await new FakeSpeechProvider({ heard: HEARD, transcriptionDelayMs: 0 }).start();
  platform = await startPlatform({ GOOGLE_STT_API_KEY: 'fake-google-stt-key', GOOGLE_STT_BASE_URL: provider.origin });
  const [proAccount, freeAccount, spoken] = await Promise.all([
    account('pro'),
    account('free'),
    promisify(execFile)('espeak-ng', ['--stdout', '-v', 'en-us', HEARD], { encoding: 'buffer' }),
  ]);
  chatOnlyKey = proAccount.chatOnly;
  pro = clientOf(proAccount.key);
  free = clientOf(freeAccount.key);
  recording = spoken.stdout;
}, 120_000);

afterAll(async () => {
  await platform?.stop();
  await provider?.stop();
});

describe('POST /v1/audio/speech with the official client', () => {
  it('reads a text aloud with no provider configured: MP3 that plays, streamed as OpenAI answers it', async () => {
    const res = await pro.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Akwaaba' });
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    expect(res.headers.get('x-kasa-audio-url')).toMatch(/^\/api\/voice\/audio\/[A-Za-z0-9_-]{22}$/);
    // Detected as Twi, which no voice here speaks: read in English rather than refused.
    expect(res.headers.get('x-kasa-language')).toBe('en');
    const mp3 = Buffer.from(await res.arrayBuffer());
    expect(mp3.toString('latin1', 0, 3) === 'ID3' || (mp3[0] === 0xff && (mp3[1]! & 0xe0) === 0xe0)).toBe(true);
    expect(playedSeconds(mp3)).toBeGreaterThan(0.3);
    // The cloud speech API of the fake was never asked: the offline engine read it.
    expect(provider.speech).toHaveLength(0);
  });

  it('answers WAV and Ogg Opus, in the language asked for, and reads twice as fast at speed 2', async () => {
    const params = { model: 'gpt-4o-mini-tts', voice: 'nova', input: 'Habari ya asubuhi, rafiki yangu.' } as const;
    const swahili = { language: 'sw' } as Record<string, string>;
    const wav = await pro.audio.speech.create({ ...params, ...swahili, response_format: 'wav' });
    expect(wav.headers.get('content-type')).toBe('audio/wav');
    expect(wav.headers.get('x-kasa-language')).toBe('sw');
    const wavBytes = Buffer.from(await wav.arrayBuffer());
    expect([wavBytes.toString('latin1', 0, 4), wavBytes.toString('latin1', 8, 12)]).toEqual(['RIFF', 'WAVE']);

    const opus = await pro.audio.speech.create({ ...params, response_format: 'opus' });
    expect(opus.headers.get('content-type')).toBe('audio/ogg');
    const ogg = Buffer.from(await opus.arrayBuffer());
    expect([ogg.toString('latin1', 0, 4), ogg.toString('latin1', 28, 36)]).toEqual(['OggS', 'OpusHead']);
    expect(playedSeconds(ogg)).toBeGreaterThan(1);

    const fast = await pro.audio.speech.create({ ...params, ...swahili, response_format: 'wav', speed: 2 });
    const ratio = playedSeconds(Buffer.from(await fast.arrayBuffer())) / playedSeconds(wavBytes);
    expect(ratio).toBeGreaterThan(0.4);
    expect(ratio).toBeLessThan(0.6);
  });

  it('refuses bad input with a 400 naming the parameter, in OpenAI’s shape', async () => {
    const speed = await errorOf(
      pro.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hello', speed: 5 }),
      OpenAI.BadRequestError,
    );
    expect(speed).toMatchObject({ status: 400, param: 'speed', type: 'invalid_request_error' });
    const model = await errorOf(
      pro.audio.speech.create({ model: 'tts-2', voice: 'alloy', input: 'Hello' }),
      OpenAI.BadRequestError,
    );
    expect(model).toMatchObject({ param: 'model', code: 'unsupported_value' });
    expect(model.message).toMatch(/tts-1, tts-1-hd, gpt-4o-mini-tts or kasa-speech/);
    const voice = await errorOf(
      pro.audio.speech.create({ model: 'tts-1', voice: 'no-such-voice', input: 'Hello there' }),
      OpenAI.BadRequestError,
    );
    expect(voice).toMatchObject({ param: 'voice', code: 'unknown_voice' });
  });

  it('gives a Free account the plan refusal of the voice routes, with Kasa’s fields beside OpenAI’s', async () => {
    const refused = await errorOf(
      free.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Read this for me, please.' }),
      OpenAI.PermissionDeniedError,
    );
    expect(refused.message).toMatch(/Voice is part of the Pro plan/);
    const raw = await fetch(url('/v1/audio/speech'), {
      method: 'POST',
      headers: { authorization: `Bearer ${free.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'tts-1', voice: 'alloy', input: 'Read this for me, please.' }),
    });
    expect(raw.status).toBe(403);
    expect(await raw.json()).toMatchObject({
      code: 'forbidden',
      details: { plan: 'pro' },
      requestId: expect.any(String),
      error: { type: 'permission_error', message: expect.stringMatching(/Pro plan/) },
    });
  });

  it('takes an API key only with the voice scope', async () => {
    const refused = await errorOf(
      clientOf(chatOnlyKey).audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hello' }),
      OpenAI.PermissionDeniedError,
    );
    expect(refused.message).toMatch(/voice/);
  });
});

describe('POST /v1/audio/transcriptions with the official client', () => {
  const file = () => toFile(recording, 'clip.wav');

  it('answers json, text and verbose_json through the speech-to-text provider', async () => {
    const before = provider.uploads.length;
    const json = await pro.audio.transcriptions.create({ file: await file(), model: 'whisper-1', language: 'en' });
    expect(json).toEqual({ text: HEARD });
    const [sent] = provider.uploads.slice(before);
    expect(sent!.body.equals(recording)).toBe(true);
    expect(sent!.fields.language).toBe('en-US');

    const text = await pro.audio.transcriptions.create({
      file: await file(),
      model: 'gpt-4o-mini-transcribe',
      language: 'en',
      response_format: 'text',
    });
    expect(text).toBe(HEARD);

    const verbose = await pro.audio.transcriptions.create({
      file: await file(),
      model: 'whisper-1',
      language: 'en',
      response_format: 'verbose_json',
      prompt: 'A greeting from Ghana.',
      temperature: 0,
    });
    // The provider gives no duration: it is read from the WAV itself (16-bit mono at 22,050 Hz).
    const seconds = (recording.length - 44) / (22_050 * 2);
    expect(verbose).toMatchObject({ task: 'transcribe', language: 'english', text: HEARD, segments: [] });
    expect(verbose.duration).toBeCloseTo(seconds, 1);
  });

  it('refuses bad input with a 400 naming the parameter: a format it does not give, a language no one detects', async () => {
    const srt = await errorOf(
      pro.audio.transcriptions.create({ file: await file(), model: 'whisper-1', response_format: 'srt' }),
      OpenAI.BadRequestError,
    );
    expect(srt).toMatchObject({ param: 'response_format', code: 'unsupported_value' });
    // Google's recognizer needs the language named (it does not detect one).
    const unnamed = await errorOf(
      pro.audio.transcriptions.create({ file: await file(), model: 'whisper-1' }),
      OpenAI.BadRequestError,
    );
    expect(unnamed).toMatchObject({ param: 'language', code: 'language_required' });
    const notAudio = await errorOf(
      pro.audio.transcriptions.create({ file: await toFile(Buffer.from('hello'), 'notes.txt'), model: 'whisper-1' }),
      OpenAI.APIError,
    );
    expect(notAudio).toMatchObject({ status: 415, param: 'file' });
  });

  it('gives a Free account the plan refusal', async () => {
    const refused = await errorOf(
      free.audio.transcriptions.create({ file: await file(), model: 'whisper-1', language: 'en' }),
      OpenAI.PermissionDeniedError,
    );
    expect(refused.message).toMatch(/Speech to text is part of the Pro plan/);
  });
});
