import type { Express } from 'express';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import request from 'supertest';
import { FakeCloud } from './fakeCloud';
import { TestEnvironment, userHeaders } from './support';

// Khaya, Spitch, Azure and Google speech to text, each against a fake speaking its HTTP API, in routing order.
const env = new TestEnvironment('transcription_providers');
const fake = new FakeCloud();
let wav: Buffer;
let app: Express;

const KHAYA = '/asr/v1/transcribe';
const SPITCH = '/v1/transcriptions';
const AZURE = '/speech/recognition/conversation/cognitiveservices/v1';
const GOOGLE = '/v1/speech:recognize';
const json = (body: unknown) => ({
  kind: 'reply' as const,
  contentType: 'application/json',
  body: JSON.stringify(body),
});

beforeAll(async () => {
  await Promise.all([env.start(), fake.start()]);
  const { stdout } = await promisify(execFile)('espeak-ng', ['--stdout', '-v', 'en-us', 'Good morning from Accra'], {
    encoding: 'buffer',
  });
  wav = stdout;
  ({ app } = await env.app({
    KHAYA_API_KEY: 'khaya-test-key',
    KHAYA_BASE_URL: fake.url,
    SPITCH_API_KEY: 'spitch-test-key',
    SPITCH_BASE_URL: fake.url,
    AZURE_SPEECH_KEY: 'azure-test-key',
    AZURE_SPEECH_REGION: 'westeurope',
    AZURE_SPEECH_STT_BASE_URL: fake.url,
    AZURE_SPEECH_TTS_BASE_URL: fake.url,
    GOOGLE_STT_API_KEY: 'google-test-key',
    GOOGLE_STT_BASE_URL: fake.url,
    // Long enough for a fake provider's answer on a loaded machine; the hang test waits this long once.
    VOICE_CLOUD_TIMEOUT_MS: '3000',
    // Failures in these tests must not open a circuit for the next test.
    VOICE_BREAKER_MIN_REQUESTS: '1000',
  }));
});
afterAll(async () => {
  await Promise.all([env.stop(), fake.stop()]);
});
beforeEach(() => {
  fake.on(KHAYA, json('Maakye'));
  fake.on(SPITCH, json({ text: ' Ẹ káàárọ̀ ' }));
  fake.on(AZURE, json({ RecognitionStatus: 'Success', NBest: [{ Confidence: 0.92, Display: 'Good morning.' }] }));
  fake.on(GOOGLE, json({ results: [{ alternatives: [{ transcript: 'Good morning', confidence: 0.8 }] }] }));
});

const pro = userHeaders('pro');
const transcribe = (language?: string) =>
  request(app)
    .post(`/api/voice/transcribe${language ? `?language=${language}` : ''}`)
    .set(pro)
    .set('content-type', 'audio/wav')
    .send(wav);
const sentSince = (path: string, before: number) => fake.requestsTo(path).slice(before);

describe('routing speech to text by language', () => {
  it('sends Twi to Khaya: the raw audio, the language in the query and the subscription key', async () => {
    const before = fake.requestsTo(KHAYA).length;
    const res = await transcribe('tw');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ text: 'Maakye', language: 'tw', provider: 'khaya' });
    const [sent] = sentSince(KHAYA, before);
    expect(sent!.url).toBe(`${KHAYA}?language=tw`);
    expect(sent!.headers['ocp-apim-subscription-key']).toBe('khaya-test-key');
    expect(sent!.headers['content-type']).toBe('audio/wav');
    expect(sent!.body.equals(wav)).toBe(true);
  });

  it('sends Yoruba to Spitch first, as multipart with the language and a bearer key', async () => {
    const khayaBefore = fake.requestsTo(KHAYA).length;
    const before = fake.requestsTo(SPITCH).length;
    const res = await transcribe('yo');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ text: 'Ẹ káàárọ̀', language: 'yo', provider: 'spitch' });
    const [sent] = sentSince(SPITCH, before);
    expect(sent!.headers.authorization).toBe('Bearer spitch-test-key');
    expect(sent!.headers['content-type']).toMatch(/^multipart\/form-data/);
    const form = sent!.body.toString('latin1');
    expect(form).toMatch(/name="language"\r\n\r\nyo\r\n/);
    expect(form).toMatch(/name="content"; filename="audio\.wav"/);
    expect(sent!.body.includes(wav)).toBe(true);
    expect(fake.requestsTo(KHAYA).length).toBe(khayaBefore);
  });

  it('falls back from a failing Spitch to Khaya for Yoruba', async () => {
    fake.on(SPITCH, { kind: 'status', status: 500 });
    const before = fake.requestsTo(KHAYA).length;
    const res = await transcribe('yo');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ text: 'Maakye', language: 'yo', provider: 'khaya' });
    expect(sentSince(KHAYA, before)[0]!.url).toBe(`${KHAYA}?language=yo`);
  });

  it('sends English to Azure with its locale and the PCM content type, and keeps its confidence', async () => {
    const before = fake.requestsTo(AZURE).length;
    const res = await transcribe('en');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ text: 'Good morning.', language: 'en', confidence: 0.92, provider: 'azure' });
    const [sent] = sentSince(AZURE, before);
    expect(sent!.url).toBe(`${AZURE}?language=en-US&format=detailed`);
    expect(sent!.headers['ocp-apim-subscription-key']).toBe('azure-test-key');
    expect(sent!.headers['content-type']).toBe('audio/wav; codecs=audio/pcm');
    expect(sent!.body.equals(wav)).toBe(true);
  });

  it('falls back to Google when Azure hangs past the timeout, with the audio inline in base64', async () => {
    fake.on(AZURE, { kind: 'hang' });
    const before = fake.requestsTo(GOOGLE).length;
    const started = Date.now();
    const res = await transcribe('en');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ text: 'Good morning', language: 'en', confidence: 0.8, provider: 'google' });
    expect(Date.now() - started).toBeLessThan(5_000);
    const [sent] = sentSince(GOOGLE, before);
    expect(sent!.headers['x-goog-api-key']).toBe('google-test-key');
    const body = JSON.parse(sent!.body.toString()) as { config: { languageCode: string }; audio: { content: string } };
    expect(body.config.languageCode).toBe('en-US');
    expect(Buffer.from(body.audio.content, 'base64').equals(wav)).toBe(true);
  });

  it('answers 503 in JSON, without the providers’ details, when every provider for the language fails', async () => {
    fake.on(AZURE, { kind: 'status', status: 500 });
    fake.on(GOOGLE, { kind: 'status', status: 503 });
    const res = await transcribe('en');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      code: 'upstream_unavailable',
      message: expect.stringMatching(/every speech-to-text/),
    });
    expect(JSON.stringify(res.body)).not.toContain('sk-test-123');
  });

  it('asks for the language when no configured provider can detect it', async () => {
    const res = await transcribe();
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'language_required' });
  });

  it('lists exactly the languages these providers hear as listen-capable', async () => {
    const res = await request(app).get('/api/languages?capability=listen');
    expect(res.status).toBe(200);
    const codes = (res.body as { languages: Array<{ code: string }> }).languages.map((l) => l.code);
    expect(codes).toEqual(expect.arrayContaining(['tw', 'gaa', 'ee', 'yo', 'ha', 'ig', 'en']));
    expect(codes).not.toContain('la');
  });
});
