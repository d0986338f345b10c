import type { Language } from '@kasa/contracts';
import type { Express } from 'express';
import request from 'supertest';
import { TestEnvironment } from './support';

const env = new TestEnvironment('languages');
let app: Express;

beforeAll(async () => {
  await env.start();
  ({ app } = await env.app());
});
afterAll(() => env.stop());

const byCode = (languages: Language[]) => new Map(languages.map((l) => [l.code, l]));

describe('GET /api/languages', () => {
  it('lists 120+ languages with ISO codes, English and native names, including the six African languages', async () => {
    const res = await request(app).get('/api/languages');
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(res.body.languages.length);
    expect(res.body.count).toBeGreaterThanOrEqual(120);
    const languages = byCode(res.body.languages);
    expect(languages.get('tw')).toMatchObject({ iso6391: 'tw', iso6393: 'twi', name: 'Twi' });
    expect(languages.get('ak')).toMatchObject({ iso6391: 'ak', iso6393: 'aka', name: 'Akan' });
    expect(languages.get('ha')).toMatchObject({ iso6393: 'hau', name: 'Hausa', nativeName: 'Hausa' });
    expect(languages.get('gaa')).toMatchObject({ iso6391: null, iso6393: 'gaa', name: 'Ga', nativeName: 'Gã' });
    expect(languages.get('ee')).toMatchObject({ iso6393: 'ewe', name: 'Ewe' });
    expect(languages.get('yo')).toMatchObject({ iso6393: 'yor', name: 'Yoruba', nativeName: 'Yorùbá' });
    expect(languages.get('sw')).toMatchObject({ iso6393: 'swa', name: 'Swahili', nativeName: 'Kiswahili' });
    for (const language of res.body.languages as Language[]) {
      expect(language.name).not.toBe('');
      expect(language.nativeName).not.toBe('');
      expect(language.iso6393).toMatch(/^[a-z]{3}$/);
    }
  });

  it('computes capabilities from what runs: installed espeak-ng voices, the detector, no speech-to-text yet', async () => {
    const languages = byCode((await request(app).get('/api/languages')).body.languages);
    // eSpeak NG has Swahili and English voices, none for Twi, Hausa, Ga, Ewe or Yoruba.
    expect(languages.get('sw')!.capabilities).toEqual({
      detect: true,
      chat: true,
      speak: true,
      listen: false,
      translate: false,
    });
    expect(languages.get('en')!.capabilities.speak).toBe(true);
    for (const code of ['tw', 'ha', 'gaa', 'ee', 'yo']) {
      expect([code, languages.get(code)!.capabilities]).toEqual([
        code,
        { detect: true, chat: true, speak: false, listen: false, translate: false },
      ]);
    }
    // Akan text is detected as Twi, its written standard; the Akan entry itself is not claimed.
    expect(languages.get('ak')!.capabilities.detect).toBe(false);
    expect(languages.get('xh')!.capabilities.detect).toBe(false);
    expect(languages.get('ae')!.capabilities.chat).toBe(false);
  });

  it('says which engine speaks each language here, and which ones Kasa would send it to', async () => {
    const languages = byCode((await request(app).get('/api/languages')).body.languages);
    const speech = (code: string) => languages.get(code)!.speech;
    const khaya = { engine: 'khaya', name: 'Khaya (GhanaNLP)', configured: false };
    const spitch = { engine: 'spitch', name: 'Spitch', configured: false };
    // No cloud key here: the specialists are named, not set up, and nothing reads these languages aloud.
    expect(speech('tw')).toEqual({ engine: null, engines: [khaya] });
    expect(speech('ee')).toEqual({ engine: null, engines: [khaya] });
    expect(speech('yo')).toEqual({ engine: null, engines: [spitch] });
    expect(speech('ha')).toEqual({ engine: null, engines: [spitch] });
    // No engine Kasa knows has a Ga voice (Khaya hears Ga but does not speak it).
    expect(speech('gaa')).toEqual({ engine: null, engines: [] });
    // Swahili: Azure first when set up; here the offline engine, last in the order, reads it.
    const swahili = speech('sw');
    expect(swahili.engine).toMatch(/^espeak-ng/);
    expect(swahili.engines[0]).toEqual({ engine: 'azure', name: 'Azure AI Speech', configured: false });
    expect(swahili.engines.at(-1)).toEqual({ engine: swahili.engine, name: 'eSpeak NG (offline)', configured: true });
    // The one-language route says the same.
    expect((await request(app).get('/api/languages/tw')).body.speech).toEqual(speech('tw'));

    // With Khaya's key set, Twi and Ewe are read by Khaya.
    const { app: withKhaya } = await env.app({ KHAYA_API_KEY: 'khaya-test-key' });
    const twi = (await request(withKhaya).get('/api/languages/tw')).body as Language;
    expect(twi.speech).toEqual({ engine: 'khaya', engines: [{ ...khaya, configured: true }] });
    expect(twi.capabilities.speak).toBe(true);
  });

  it('filters by capability', async () => {
    const res = await request(app).get('/api/languages?capability=speak');
    expect(res.status).toBe(200);
    const codes = (res.body.languages as Language[]).map((l) => l.code);
    expect(codes).toEqual(expect.arrayContaining(['en', 'sw', 'fr', 'am', 'zh']));
    expect(codes).not.toContain('tw');
    expect((res.body.languages as Language[]).every((l) => l.capabilities.speak)).toBe(true);
  });

  it('claims chat only for the configured languages when told so', async () => {
    const { app: offlineOnly } = await env.app({ VOICE_CHAT_LANGUAGES: 'en' });
    const res = await request(offlineOnly).get('/api/languages?capability=chat');
    expect((res.body.languages as Language[]).map((l) => l.code)).toEqual(['en']);
  });

  it('answers 400 in the shared error shape for an unknown capability or query field', async () => {
    for (const query of ['capability=sing', 'lang=en']) {
      const res = await request(app).get(`/api/languages?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: expect.any(String),
        code: 'validation_failed',
        details: expect.any(Array),
        requestId: expect.any(String),
      });
    }
  });

  it('finds one language by any of its codes, and 404s for one it does not list', async () => {
    expect((await request(app).get('/api/languages/twi')).body.code).toBe('tw');
    expect((await request(app).get('/api/languages/en-GB')).body.code).toBe('en');
    expect((await request(app).get('/api/languages/gaa')).body.name).toBe('Ga');
    const missing = await request(app).get('/api/languages/qqq');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
    expect((await request(app).get('/api/languages/not-a-tag!')).status).toBe(400);
  });
});

describe('POST /api/languages/detect', () => {
  it.each([
    ['Good morning', 'en', 'English'],
    ['How do I get an API key?', 'en', 'English'],
    ['Medaase paa, me nua', 'tw', 'Twi'],
    ['Ina kwana? Lafiya lau', 'ha', 'Hausa'],
    ['Ojekoo, te oyɔɔ tɛŋŋ?', 'gaa', 'Ga'],
    ['Akpe kakaka, woezɔ', 'ee', 'Ewe'],
    ['Ẹ kú àárọ̀, ṣé dáadáa ni?', 'yo', 'Yoruba'],
    ['Habari yako, rafiki?', 'sw', 'Swahili'],
  ])('names the language of %j', async (text, language, name) => {
    const res = await request(app).post('/api/languages/detect').send({ text });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ language, name });
    expect(res.body.confidence).toBeGreaterThan(0);
    expect(res.body.confidence).toBeLessThanOrEqual(1);
    expect(Array.isArray(res.body.alternatives)).toBe(true);
    for (const alternative of res.body.alternatives) {
      expect(alternative).toEqual({
        language: expect.any(String),
        name: expect.any(String),
        confidence: expect.any(Number),
      });
    }
  });

  it('says when it is not sure, and uses the hints: the user’s language, the browser’s locale, recent messages', async () => {
    // Written alike in many languages: a guess, flagged as one, never a confident wrong answer.
    for (const text of ['ok 👍', 'Hello']) {
      const alone = await request(app).post('/api/languages/detect').send({ text });
      expect(alone.body).toMatchObject({ reliable: false, language: expect.any(String) });
    }
    expect((await request(app).post('/api/languages/detect').send({ text: 'Good morning' })).body.reliable).toBe(true);
    const ambiguous = { text: 'ok 👍' };
    const hinted = await request(app)
      .post('/api/languages/detect')
      .send({
        ...ambiguous,
        hints: { userLanguage: 'sw', browserLocale: 'sw-KE', recent: ['Asante sana kwa msaada'] },
      });
    expect(hinted.body).toMatchObject({ language: 'sw', name: 'Swahili' });
  });

  it.each([
    [{}, 'text'],
    [{ text: '   ' }, 'text'],
    [{ text: 'x'.repeat(2_001) }, 'text'],
    [{ text: 'hi', hints: { recent: Array.from({ length: 11 }, () => 'hello') } }, 'hints.recent'],
    [{ text: 'hi', hints: { userLanguage: 'not a language' } }, 'hints.userLanguage'],
    [{ text: 'hi', extra: true }, ''],
  ])('answers 400 for %j', async (body, path) => {
    const res = await request(app).post('/api/languages/detect').send(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.details[0].path).toBe(path);
  });

  it('answers 400 for a body that is not JSON, and 413 for one over the size limit', async () => {
    const broken = await request(app).post('/api/languages/detect').set('content-type', 'application/json').send('{');
    expect(broken.status).toBe(400);
    expect(broken.body.code).toBe('malformed_json');
    const huge = await request(app)
      .post('/api/languages/detect')
      .send({ text: 'a'.repeat(70_000) });
    expect(huge.status).toBe(413);
  });
});
