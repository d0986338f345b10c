import type { KasaEvent } from '@kasa/contracts';
import { EventBus, createMongoProcessedEventStore } from '@kasa/service-kit';
import type { Express } from 'express';
import request from 'supertest';
import { VOICE_SAMPLES } from '../src/speech/samples';
import { AMQP_URL, binaryParser, logger, TestEnvironment, unique, userHeaders } from './support';

const env = new TestEnvironment('speech');
let app: Express;
let observer: EventBus;
const events: KasaEvent[] = [];

beforeAll(async () => {
  await env.start();
  ({ app } = await env.app());
  observer = new EventBus({
    url: AMQP_URL,
    source: 'kasa/voice-test',
    logger,
    consumerName: `voice-test-${unique()}`,
    processedEvents: createMongoProcessedEventStore(env.db),
  });
  observer.subscribeBroadcast('voice.speech.synthesized', async (event) => {
    events.push(event as KasaEvent);
  });
  await observer.start();
});
afterAll(async () => {
  await observer?.close();
  await env.stop();
});

const pro = userHeaders('pro');
const fetchAudio = (target: Express, url: string, headers: Record<string, string> = {}) =>
  request(target).get(url).set(headers).buffer(true).parse(binaryParser);
/** MP3 data starts with an ID3 tag or a frame sync (11 set bits). */
const looksLikeMp3 = (bytes: Buffer) =>
  bytes.subarray(0, 3).toString('latin1') === 'ID3' || (bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0);

describe('POST /api/voice/synthesize', () => {
  it('speaks the text for a Pro user and serves the audio, whole and by range', async () => {
    const res = await request(app)
      .post('/api/voice/synthesize')
      .set(pro)
      .send({ text: 'Hello from Kasa. This sentence is read aloud by the offline engine.', language: 'en' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      audioUrl: expect.stringMatching(/^\/api\/voice\/audio\/[A-Za-z0-9_-]{22}$/),
      contentType: 'audio/mpeg',
      language: 'en',
      voice: 'en-us',
      engine: 'espeak-ng',
    });
    expect(res.body.duration).toBeGreaterThan(2);
    expect(res.body.duration).toBeLessThan(15);

    const whole = await fetchAudio(app, res.body.audioUrl);
    expect(whole.status).toBe(200);
    expect(whole.headers['content-type']).toBe('audio/mpeg');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.headers['cache-control']).toMatch(/^public, max-age=\d+, immutable$/);
    const body = whole.body as Buffer;
    expect(Number(whole.headers['content-length'])).toBe(body.length);
    expect(looksLikeMp3(body)).toBe(true);
    // 32 kbit/s: about 4 KB per second of speech.
    expect(body.length / res.body.duration).toBeGreaterThan(3_000);
    expect(body.length / res.body.duration).toBeLessThan(5_000);

    const part = await fetchAudio(app, res.body.audioUrl, { Range: 'bytes=100-1099' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-1099/${body.length}`);
    expect((part.body as Buffer).equals(body.subarray(100, 1100))).toBe(true);

    const tail = await fetchAudio(app, res.body.audioUrl, { Range: 'bytes=-10' });
    expect(tail.status).toBe(206);
    expect((tail.body as Buffer).equals(body.subarray(body.length - 10))).toBe(true);

    const outside = await request(app)
      .get(res.body.audioUrl)
      .set('Range', `bytes=${body.length + 10}-`);
    expect(outside.status).toBe(416);
    expect(outside.headers['content-range']).toBe(`bytes */${body.length}`);
    expect(outside.body.code).toBe('range_not_satisfiable');

    const again = await request(app).get(res.body.audioUrl).set('If-None-Match', whole.headers.etag!);
    expect(again.status).toBe(304);
  });

  it('publishes voice.speech.synthesized with the user, language and seconds, never the text', async () => {
    const user = userHeaders('enterprise');
    const res = await request(app).post('/api/voice/synthesize').set(user).send({ text: 'Counted once.' });
    expect(res.status).toBe(201);
    const deadline = Date.now() + 5_000;
    let event: KasaEvent | undefined;
    while (!event && Date.now() < deadline) {
      event = events.find((e) => (e.data as { userId?: string }).userId === user['x-kasa-user-id']);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(event?.data).toEqual({
      userId: user['x-kasa-user-id'],
      language: 'en',
      engine: 'espeak-ng',
      characters: 13,
      durationSeconds: res.body.duration,
    });
  });

  it('splits long text by sentence and speaks all of it', async () => {
    const sentence = 'Kasa reads long answers one sentence after another, so that the first words play at once. ';
    const short = await request(app).post('/api/voice/synthesize').set(pro).send({ text: sentence });
    const long = await request(app)
      .post('/api/voice/synthesize')
      .set(pro)
      .send({ text: sentence.repeat(12) });
    expect(long.status).toBe(201);
    expect(long.body.duration).toBeGreaterThan(short.body.duration * 10);
    expect(long.body.duration).toBeLessThan(short.body.duration * 14);
  });

  it('streams the audio as it is made when the client asks for audio', async () => {
    const res = await request(app)
      .post('/api/voice/synthesize')
      .set(pro)
      .set('Accept', 'audio/mpeg')
      .send({ text: 'Streaming starts with the first sentence. The rest follows.' })
      .buffer(true)
      .parse(binaryParser);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('audio/mpeg');
    expect(looksLikeMp3(res.body as Buffer)).toBe(true);
    const stored = res.headers['x-kasa-audio-url']!;
    expect(stored).toMatch(/^\/api\/voice\/audio\//);
    const copy = await fetchAudio(app, stored);
    expect((copy.body as Buffer).equals(res.body as Buffer)).toBe(true);
  });

  it('detects the language with language: auto and picks a voice that speaks it', async () => {
    const res = await request(app)
      .post('/api/voice/synthesize')
      .set(pro)
      .send({ text: 'Habari za asubuhi, rafiki yangu. Karibu sana!', language: 'auto' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ language: 'sw', voice: 'sw' });
  });

  it('uses the voice asked for', async () => {
    const res = await request(app)
      .post('/api/voice/synthesize')
      .set(pro)
      .send({ text: 'Good evening.', language: 'en', voice: 'en-GB+f' });
    expect(res.status).toBe(201);
    expect(res.body.voice).toBe('en-gb+f');
  });

  it('tells a Free user that voice is part of the Pro plan (403)', async () => {
    const res = await request(app).post('/api/voice/synthesize').set(userHeaders('free')).send({ text: 'Hello there' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'forbidden', details: { plan: 'pro' } });
    expect(res.body.message).toMatch(/Pro plan/);
  });

  it('asks an anonymous caller to sign in for anything but the samples (401)', async () => {
    const res = await request(app).post('/api/voice/synthesize').send({ text: 'Read this for free' });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthenticated');
  });

  it('speaks the landing page samples to anyone, once, then from the cache', async () => {
    const list = await request(app).get('/api/voice/samples');
    expect(list.status).toBe(200);
    const sample = (list.body.samples as typeof VOICE_SAMPLES).find((s) => s.id === 'welcome-en')!;
    expect(sample.text).toBe(VOICE_SAMPLES[0]!.text);
    const first = await request(app).post('/api/voice/synthesize').send({ text: sample.text, language: 'en' });
    expect(first.status).toBe(201);
    const second = await request(app)
      .post('/api/voice/synthesize')
      .set(userHeaders('free'))
      .send({ text: `  ${sample.text} `, language: 'en', voice: sample.voice });
    expect(second.status).toBe(201);
    expect(second.body.audioUrl).toBe(first.body.audioUrl);
    expect(second.body.duration).toBe(first.body.duration);
    // A sample in another voice is not the sample: the plan rule applies.
    const otherVoice = await request(app).post('/api/voice/synthesize').send({ text: sample.text, voice: 'en-gb' });
    expect(otherVoice.status).toBe(401);
  });

  it.each([
    [{ text: 'x'.repeat(5_001) }, 'text must be at most 5000 characters'],
    [{ text: '' }, 'text is required'],
    [{ language: 'en' }, 'text'],
    [{ text: 'Hi', language: 'English!' }, 'language'],
    [{ text: 'Hi', voice: 'v'.repeat(65) }, 'voice'],
  ])('answers 400 for %j', async (body, message) => {
    const res = await request(app).post('/api/voice/synthesize').set(pro).send(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.message).toContain(message);
  });

  it('says which languages it cannot speak, and which voices exist (400)', async () => {
    const twi = await request(app).post('/api/voice/synthesize').set(pro).send({ text: 'Medaase', language: 'tw' });
    expect(twi.status).toBe(400);
    expect(twi.body).toMatchObject({ code: 'language_not_spoken', details: { language: 'tw' } });
    expect(twi.body.message).toContain('Twi');
    const voice = await request(app).post('/api/voice/synthesize').set(pro).send({ text: 'Hi', voice: 'sw' });
    expect(voice.status).toBe(400);
    expect(voice.body.code).toBe('unknown_voice');
    const unknown = await request(app).post('/api/voice/synthesize').set(pro).send({ text: 'Hi', language: 'qqq' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('unknown_language');
  });
});

describe('voices, audio and status', () => {
  it('lists the voices of a language from the installed engine', async () => {
    const res = await request(app).get('/api/voice/voices?language=sw');
    expect(res.status).toBe(200);
    expect(res.body.voices).toEqual([
      { id: 'sw', name: 'Swahili', language: 'sw', locale: 'sw', gender: 'male', engine: 'espeak-ng' },
      { id: 'sw+f', name: 'Swahili, female', language: 'sw', locale: 'sw', gender: 'female', engine: 'espeak-ng' },
    ]);
    expect((await request(app).get('/api/voice/voices?language=tw')).body.voices).toEqual([]);
    expect((await request(app).get('/api/voice/voices')).body.voices.length).toBeGreaterThan(100);
    expect((await request(app).get('/api/voice/voices?language=!!')).status).toBe(400);
  });

  it('answers 404 for audio that does not exist and 400 for an id that cannot be one', async () => {
    const missing = await request(app).get('/api/voice/audio/AAAAAAAAAAAAAAAAAAAAAA');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
    expect((await request(app).get('/api/voice/audio/short')).status).toBe(400);
  });

  it('reports the engine and encoder it found', async () => {
    const res = await request(app).get('/api/voice/status');
    expect(res.body).toMatchObject({
      status: 'ok',
      engines: [{ name: 'espeak-ng', available: true, version: expect.any(String) }],
      encoder: { name: 'ffmpeg', available: true, format: 'mp3' },
    });
  });
});

describe('without the speech engine', () => {
  let degraded: Express;
  beforeAll(async () => {
    // Without the engine from npm too (test/packagedEngines.test.ts runs with it).
    ({ app: degraded } = await env.app({
      VOICE_ESPEAK_BIN: '/nonexistent/espeak-ng',
      VOICE_PACKAGED_ENGINES: 'false',
    }));
  });

  it('stays ready, says it is degraded and answers 503 to synthesize', async () => {
    expect((await request(degraded).get('/readyz')).status).toBe(200);
    const status = await request(degraded).get('/api/voice/status');
    expect(status.body).toMatchObject({ status: 'degraded', engines: [{ name: 'espeak-ng', available: false }] });
    expect(status.body.message).toMatch(/espeak-ng/);
    const res = await request(degraded).post('/api/voice/synthesize').set(pro).send({ text: 'Hello' });
    expect(res.status).toBe(503);
    expect(res.body.message).toMatch(/unavailable/);
    const languages = await request(degraded).get('/api/languages?capability=speak');
    expect(languages.body.count).toBe(0);
  });
});

describe('without ffmpeg', () => {
  it('stores WAV instead and says so', async () => {
    const { app: plain } = await env.app({ VOICE_FFMPEG_BIN: '/nonexistent/ffmpeg', VOICE_PACKAGED_ENGINES: 'false' });
    expect((await request(plain).get('/api/voice/status')).body).toMatchObject({
      status: 'degraded',
      encoder: { name: 'none', available: false, format: 'wav' },
    });
    const res = await request(plain).post('/api/voice/synthesize').set(pro).send({ text: 'Plain WAV audio.' });
    expect(res.status).toBe(201);
    expect(res.body.contentType).toBe('audio/wav');
    const audio = await fetchAudio(plain, res.body.audioUrl);
    const bytes = audio.body as Buffer;
    expect(bytes.subarray(0, 4).toString('ascii')).toBe('RIFF');
    // 22,050 samples of 2 bytes per second, after the 44-byte header.
    expect((bytes.length - 44) / 44_100).toBeCloseTo(res.body.duration, 2);
  });
});
