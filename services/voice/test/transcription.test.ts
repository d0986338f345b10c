import type { Express } from 'express';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import request from 'supertest';
import { FakeCloud } from './fakeCloud';
import { TestEnvironment, userHeaders } from './support';

const env = new TestEnvironment('transcription');
const fake = new FakeCloud();
let wav: Buffer;
let app: Express;
let offline: Express;

beforeAll(async () => {
  await Promise.all([env.start(), fake.start()]);
  // A real recording: eSpeak NG reading a sentence, as WAV on stdout.
  const { stdout } = await promisify(execFile)('espeak-ng', ['--stdout', '-v', 'en-us', 'Good morning from Accra'], {
    encoding: 'buffer',
  });
  wav = stdout;
  ({ app } = await env.app({
    OPENAI_API_KEY: 'sk-test-openai',
    OPENAI_BASE_URL: `${fake.url}/v1`,
    VOICE_CLOUD_TIMEOUT_MS: '500',
    VOICE_TRANSCRIBE_MAX_BYTES: String(200 * 1024),
  }));
  ({ app: offline } = await env.app());
});
afterAll(async () => {
  await Promise.all([env.stop(), fake.stop()]);
});

const PATH = '/v1/audio/transcriptions';
const pro = userHeaders('pro');
const heard = (body: object) =>
  fake.on(PATH, { kind: 'reply', contentType: 'application/json', body: JSON.stringify(body) });

describe('POST /api/voice/transcribe', () => {
  it('sends a multipart recording to the provider and answers its text, with the language it heard', async () => {
    heard({ text: ' Good morning from Accra. ', language: 'english', duration: 1.6 });
    const before = fake.requestsTo(PATH).length;
    const res = await request(app)
      .post('/api/voice/transcribe')
      .set(pro)
      .attach('audio', wav, { filename: 'clip.wav', contentType: 'audio/wav' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ text: 'Good morning from Accra.', language: 'en', provider: 'openai' });
    const [sent] = fake.requestsTo(PATH).slice(before);
    expect(sent!.headers.authorization).toBe('Bearer sk-test-openai');
    expect(sent!.headers['content-type']).toMatch(/^multipart\/form-data/);
    // The whole recording reached the provider, with the model and no language (it detects one).
    expect(sent!.body.includes(wav)).toBe(true);
    expect(sent!.body.toString('latin1')).toContain('whisper-1');
    expect(sent!.body.toString('latin1')).not.toContain('name="language"');
  });

  it("keeps the user's language over the one the provider detected, and sends it along", async () => {
    heard({ text: 'Medaase', language: 'english' });
    const before = fake.requestsTo(PATH).length;
    const res = await request(app)
      .post('/api/voice/transcribe?language=sw')
      .set(pro)
      .set('content-type', 'audio/wav')
      .send(wav);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ text: 'Medaase', language: 'sw', provider: 'openai' });
    const [sent] = fake.requestsTo(PATH).slice(before);
    expect(sent!.body.toString('latin1')).toMatch(/name="language"\r\n\r\nsw\r\n/);
  });

  it('answers 415 for a type it does not take, and for bytes that are not the declared audio', async () => {
    const text = await request(app).post('/api/voice/transcribe').set(pro).set('content-type', 'text/plain').send('hi');
    expect(text.status).toBe(415);
    expect(text.body).toMatchObject({ code: 'unsupported_media_type', requestId: expect.any(String) });
    const json = await request(app).post('/api/voice/transcribe').set(pro).send({ audio: 'x' });
    expect(json.status).toBe(415);
    const fakeWav = await request(app)
      .post('/api/voice/transcribe')
      .set(pro)
      .attach('audio', Buffer.from('not audio at all'), { filename: 'a.wav', contentType: 'audio/wav' });
    expect(fakeWav.status).toBe(415);
    expect(fakeWav.body.message).toMatch(/not audio\/wav audio/);
  });

  it('answers 413 for audio over the size limit, multipart or raw', async () => {
    const big = Buffer.concat([wav.subarray(0, 44), Buffer.alloc(300 * 1024)]);
    const raw = await request(app).post('/api/voice/transcribe').set(pro).set('content-type', 'audio/wav').send(big);
    expect(raw.status).toBe(413);
    expect(raw.body).toMatchObject({
      code: 'payload_too_large',
      message: 'The recording is too large: the limit is 200 KB.',
    });
    const form = await request(app)
      .post('/api/voice/transcribe')
      .set(pro)
      .attach('audio', big, { filename: 'big.wav', contentType: 'audio/wav' });
    expect(form.status).toBe(413);
  });

  it('answers 400 for a missing recording or a bad language', async () => {
    const none = await request(app).post('/api/voice/transcribe').set(pro).field('language', 'en');
    expect(none.status).toBe(400);
    expect(none.body.code).toBe('audio_required');
    const bad = await request(app)
      .post('/api/voice/transcribe')
      .set(pro)
      .field('language', 'not a language!')
      .attach('audio', wav, { filename: 'clip.wav', contentType: 'audio/wav' });
    expect(bad.status).toBe(400);
  });

  it('answers 503 without leaking the provider answer when the provider fails, and when it hangs', async () => {
    fake.on(PATH, { kind: 'status', status: 500 });
    const failed = await request(app).post('/api/voice/transcribe').set(pro).set('content-type', 'audio/wav').send(wav);
    expect(failed.status).toBe(503);
    expect(JSON.stringify(failed.body)).not.toContain('sk-test');
    fake.on(PATH, { kind: 'hang' });
    const started = Date.now();
    const hung = await request(app).post('/api/voice/transcribe').set(pro).set('content-type', 'audio/wav').send(wav);
    expect(hung.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('is for Pro and Enterprise: 401 without identity, 403 naming the plan for Free', async () => {
    const anonymous = await request(app).post('/api/voice/transcribe').set('content-type', 'audio/wav').send(wav);
    expect(anonymous.status).toBe(401);
    const free = await request(app)
      .post('/api/voice/transcribe')
      .set(userHeaders('free'))
      .set('content-type', 'audio/wav')
      .send(wav);
    expect(free.status).toBe(403);
    expect(free.body).toMatchObject({ message: expect.stringMatching(/Pro plan/), details: { plan: 'pro' } });
  });

  it('answers 503 saying a provider is needed when none is configured, and claims no language it can hear', async () => {
    const res = await request(offline)
      .post('/api/voice/transcribe')
      .set(userHeaders('enterprise'))
      .set('content-type', 'audio/wav')
      .send(wav);
    expect(res.status).toBe(503);
    expect(res.body.message).toMatch(/needs a configured speech-to-text provider/);
    expect((await request(offline).get('/api/languages?capability=listen')).body.count).toBe(0);
    expect((await request(offline).get('/api/voice/status')).body.transcription).toMatchObject({
      status: 'unavailable',
    });
    expect((await request(app).get('/api/languages/en')).body.capabilities.listen).toBe(true);
  });
});
