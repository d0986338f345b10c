import type { Express } from 'express';
import request from 'supertest';
import { FakeCloud, tone, wavFile, type FakeAnswer } from './fakeCloud';
import { binaryParser, TestEnvironment, userHeaders } from './support';

const env = new TestEnvironment('cloudspeech');
const fake = new FakeCloud();

beforeAll(async () => {
  await Promise.all([env.start(), fake.start()]);
});
afterAll(async () => {
  await Promise.all([env.stop(), fake.stop()]);
});

const pro = userHeaders('pro');

interface ProviderCase {
  engine: string;
  env: () => Record<string, string>;
  path: string;
  ok: () => FakeAnswer;
  /** A language the provider speaks first (and, where eSpeak NG has a voice for it, falls back to). */
  language: string;
  voice: string;
  /** Whether eSpeak NG speaks the language, so a failure falls back rather than fails. */
  fallsBack: boolean;
  /** What the provider's API must have been sent. */
  sent(req: { url: string; headers: Record<string, unknown>; body: Buffer }): void;
}

const pcm24k = () => tone(24_000);
const cases: ProviderCase[] = [
  {
    engine: 'openai',
    env: () => ({ OPENAI_API_KEY: 'sk-test-openai', OPENAI_BASE_URL: `${fake.url}/v1` }),
    path: '/v1/audio/speech',
    ok: () => ({ kind: 'reply', contentType: 'audio/pcm', body: pcm24k() }),
    language: 'de',
    voice: 'openai-alloy',
    fallsBack: true,
    sent: ({ headers, body }) => {
      expect(headers.authorization).toBe('Bearer sk-test-openai');
      expect(JSON.parse(body.toString())).toMatchObject({
        model: 'gpt-4o-mini-tts',
        voice: 'alloy',
        response_format: 'pcm',
        input: expect.stringContaining('Guten Morgen'),
      });
    },
  },
  {
    engine: 'elevenlabs',
    env: () => ({ ELEVENLABS_API_KEY: 'xi-test', ELEVENLABS_BASE_URL: fake.url }),
    path: '/v1/text-to-speech/21m00Tcm4TlvDq8ikWAM',
    ok: () => ({ kind: 'reply', contentType: 'audio/pcm', body: pcm24k() }),
    language: 'de',
    voice: 'elevenlabs-rachel',
    fallsBack: true,
    sent: ({ url, headers, body }) => {
      expect(url).toContain('output_format=pcm_24000');
      expect(headers['xi-api-key']).toBe('xi-test');
      expect(JSON.parse(body.toString())).toMatchObject({ model_id: 'eleven_multilingual_v2' });
    },
  },
  {
    engine: 'azure',
    env: () => ({
      AZURE_SPEECH_KEY: 'az-test',
      AZURE_SPEECH_REGION: 'westeurope',
      AZURE_SPEECH_TTS_BASE_URL: fake.url,
      AZURE_SPEECH_STT_BASE_URL: fake.url,
    }),
    path: '/cognitiveservices/v1',
    ok: () => ({ kind: 'reply', contentType: 'audio/pcm', body: pcm24k() }),
    language: 'sw',
    voice: 'azure-sw-ke-zurineural',
    fallsBack: true,
    sent: ({ headers, body }) => {
      expect(headers['ocp-apim-subscription-key']).toBe('az-test');
      expect(headers['x-microsoft-outputformat']).toBe('raw-24khz-16bit-mono-pcm');
      expect(body.toString()).toMatch(/<voice name="sw-KE-ZuriNeural">.*Habari/);
    },
  },
  {
    engine: 'google',
    env: () => ({ GOOGLE_TTS_API_KEY: 'g-test', GOOGLE_TTS_BASE_URL: fake.url, GOOGLE_STT_BASE_URL: fake.url }),
    path: '/v1/text:synthesize',
    ok: () => ({
      kind: 'reply',
      contentType: 'application/json',
      body: JSON.stringify({ audioContent: wavFile(pcm24k(), 24_000).toString('base64') }),
    }),
    language: 'af',
    voice: 'google-af-za-standard-a',
    fallsBack: true,
    sent: ({ headers, body }) => {
      expect(headers['x-goog-api-key']).toBe('g-test');
      expect(JSON.parse(body.toString())).toMatchObject({
        voice: { languageCode: 'af-ZA', name: 'af-ZA-Standard-A' },
        audioConfig: { audioEncoding: 'LINEAR16' },
      });
    },
  },
  {
    engine: 'khaya',
    env: () => ({ KHAYA_API_KEY: 'kh-test', KHAYA_BASE_URL: fake.url }),
    path: '/tts/v1/synthesize',
    ok: () => ({ kind: 'reply', contentType: 'audio/wav', body: wavFile(tone(16_000), 16_000) }),
    language: 'tw',
    voice: 'khaya-twi_speaker_4',
    fallsBack: false,
    sent: ({ headers, body }) => {
      expect(headers['ocp-apim-subscription-key']).toBe('kh-test');
      expect(JSON.parse(body.toString())).toMatchObject({ language: 'tw', speaker_id: 'twi_speaker_4' });
    },
  },
  {
    engine: 'spitch',
    env: () => ({ SPITCH_API_KEY: 'sp-test', SPITCH_BASE_URL: fake.url }),
    path: '/v1/speech',
    ok: () => ({ kind: 'reply', contentType: 'audio/wav', body: wavFile(pcm24k(), 24_000) }),
    language: 'am',
    voice: 'spitch-hana',
    fallsBack: true,
    sent: ({ headers, body }) => {
      expect(headers.authorization).toBe('Bearer sp-test');
      expect(JSON.parse(body.toString())).toMatchObject({ language: 'am', voice: 'hana', format: 'wav' });
    },
  },
];

const TEXT: Record<string, string> = {
  de: 'Guten Morgen.',
  sw: 'Habari ya asubuhi.',
  af: 'Goeie more.',
  tw: 'Maakye.',
  am: 'Selam.',
};

const speak = (app: Express, language: string) =>
  request(app).post('/api/voice/synthesize').set(pro).send({ text: TEXT[language], language });

describe.each(cases)('the $engine speech adapter', (c) => {
  let app: Express;
  beforeAll(async () => {
    ({ app } = await env.app({ ...c.env(), VOICE_CLOUD_TIMEOUT_MS: '400', VOICE_BREAKER_MIN_REQUESTS: '50' }));
  });

  it('speaks its languages first, with the request its API expects, and the audio is stored and served', async () => {
    fake.on(c.path, c.ok());
    const before = fake.requestsTo(c.path).length;
    const res = await speak(app, c.language);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ engine: c.engine, voice: c.voice, language: c.language });
    // One second of tone, whatever the provider's sample rate.
    expect(res.body.duration).toBeGreaterThan(0.95);
    expect(res.body.duration).toBeLessThan(1.05);
    const sent = fake.requestsTo(c.path).slice(before);
    expect(sent).toHaveLength(1);
    c.sent(sent[0]!);

    const audio = await request(app).get(res.body.audioUrl).buffer(true).parse(binaryParser);
    expect(audio.status).toBe(200);
    expect(audio.headers['content-type']).toBe('audio/mpeg');
    expect((audio.body as Buffer).length).toBeGreaterThan(2_000);
  });

  it('lists its voices for its languages', async () => {
    const res = await request(app).get(`/api/voice/voices?language=${c.language}`);
    expect(res.status).toBe(200);
    const voice = (res.body.voices as { id: string; engine: string; language: string }[]).find((v) => v.id === c.voice);
    expect(voice).toMatchObject({ engine: c.engine, language: c.language });
    const ids = (res.body.voices as { engine: string }[]).map((v) => v.engine);
    // Routing order: the cloud engine's voices before eSpeak NG's.
    expect(ids.indexOf(c.engine)).toBe(0);
  });

  it(
    c.fallsBack
      ? 'falls back to eSpeak NG when the provider answers an error'
      : 'answers 503 when the only voice fails',
    async () => {
      fake.on(c.path, { kind: 'status', status: 500 });
      const res = await speak(app, c.language);
      if (c.fallsBack) {
        expect(res.status).toBe(201);
        expect(res.body.engine).toBe('espeak-ng');
      } else {
        expect(res.status).toBe(503);
        expect(res.body.message).toMatch(/Speech synthesis failed/);
      }
      expect(JSON.stringify(res.body)).not.toContain('sk-test');
    },
  );

  it(`gives up on a provider that does not answer in time${c.fallsBack ? ' and falls back' : ''}`, async () => {
    fake.on(c.path, { kind: 'hang' });
    const started = Date.now();
    const res = await speak(app, c.language);
    expect(Date.now() - started).toBeLessThan(5_000);
    if (c.fallsBack) {
      expect(res.status).toBe(201);
      expect(res.body.engine).toBe('espeak-ng');
    } else {
      expect(res.status).toBe(503);
    }
  });
});

describe('the speak capability', () => {
  it('claims Twi only where a provider that speaks it is configured', async () => {
    const offline = (await env.app()).app;
    const withKhaya = (await env.app({ KHAYA_API_KEY: 'kh-test', KHAYA_BASE_URL: fake.url })).app;
    expect((await request(offline).get('/api/languages/tw')).body.capabilities.speak).toBe(false);
    expect((await request(withKhaya).get('/api/languages/tw')).body.capabilities.speak).toBe(true);
    expect((await request(offline).get('/api/voice/voices?language=tw')).body.voices).toEqual([]);
  });

  it('opens the circuit of a provider that keeps failing and skips it', async () => {
    const { app } = await env.app({
      OPENAI_API_KEY: 'sk-test-openai',
      OPENAI_BASE_URL: `${fake.url}/v1`,
      VOICE_BREAKER_MIN_REQUESTS: '2',
    });
    fake.on('/v1/audio/speech', { kind: 'status', status: 503 });
    for (let i = 0; i < 3; i++) expect((await speak(app, 'de')).body.engine).toBe('espeak-ng');
    const before = fake.requestsTo('/v1/audio/speech').length;
    expect((await speak(app, 'de')).body.engine).toBe('espeak-ng');
    // The open circuit refuses the call without sending it.
    expect(fake.requestsTo('/v1/audio/speech').length).toBe(before);
    const status = await request(app).get('/api/voice/status');
    expect(status.body.engines.map((e: { name: string }) => e.name)).toEqual(['openai', 'espeak-ng']);
  });
});
