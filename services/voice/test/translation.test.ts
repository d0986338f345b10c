import type { Express } from 'express';
import request from 'supertest';
import { FakeCloud, type FakeAnswer } from './fakeCloud';
import { TestEnvironment, userHeaders } from './support';

const env = new TestEnvironment('translation');
const fake = new FakeCloud();
let app: Express;
let offline: Express;

beforeAll(async () => {
  await Promise.all([env.start(), fake.start()]);
  // Two OpenAI-compatible providers in failover order, both served by the fake.
  ({ app } = await env.app({
    TRANSLATE_PROVIDERS: 'primary,backup',
    PRIMARY_BASE_URL: `${fake.url}/primary/v1`,
    PRIMARY_MODEL: 'translator-1',
    BACKUP_BASE_URL: `${fake.url}/backup/v1`,
    BACKUP_MODEL: 'translator-2',
    VOICE_TRANSLATE_TIMEOUT_MS: '500',
    VOICE_BREAKER_MIN_REQUESTS: '50',
  }));
  ({ app: offline } = await env.app());
});
afterAll(async () => {
  await Promise.all([env.stop(), fake.stop()]);
});

const PRIMARY = '/primary/v1/chat/completions';
const BACKUP = '/backup/v1/chat/completions';
const completion = (content: string): FakeAnswer => ({
  kind: 'reply',
  contentType: 'application/json',
  body: JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'translator',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 },
  }),
});
const pro = userHeaders('pro');
const translate = (target: Express, body: object, headers: Record<string, string> = pro) =>
  request(target).post('/api/translate').set(headers).send(body);

describe('POST /api/translate', () => {
  it('translates with the first provider, telling it both languages', async () => {
    fake.on(PRIMARY, completion('Medaase paa.'));
    const before = fake.requestsTo(PRIMARY).length;
    const res = await translate(app, { text: 'Thank you very much.', from: 'en', to: 'tw' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ text: 'Medaase paa.', from: 'en', to: 'tw', provider: 'primary' });
    const sent = JSON.parse(fake.requestsTo(PRIMARY).slice(before)[0]!.body.toString()) as {
      model: string;
      messages: { role: string; content: string }[];
    };
    expect(sent.model).toBe('translator-1');
    expect(sent.messages[0]!.content).toMatch(/from English \(en\) into Twi \(tw\)/);
    expect(sent.messages.at(-1)).toEqual({ role: 'user', content: 'Thank you very much.' });
  });

  it('detects the source language when it is left out', async () => {
    fake.on(PRIMARY, completion('Good morning, how are you?'));
    const res = await translate(app, { text: 'Bonjour, comment allez-vous aujourd’hui ?', to: 'en' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ from: 'fr', to: 'en' });
  });

  it('falls over to the next provider on an error status and on a timeout', async () => {
    fake.on(PRIMARY, { kind: 'status', status: 500 }).on(BACKUP, completion('Habari za asubuhi.'));
    const failed = await translate(app, { text: 'Good morning.', from: 'en', to: 'sw' });
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ text: 'Habari za asubuhi.', provider: 'backup' });
    fake.on(PRIMARY, { kind: 'hang' });
    const started = Date.now();
    const hung = await translate(app, { text: 'Good morning.', from: 'en', to: 'sw' });
    expect(hung.body.provider).toBe('backup');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('answers 503 when every provider fails, without the providers’ answers', async () => {
    fake.on(PRIMARY, { kind: 'status', status: 500 }).on(BACKUP, { kind: 'status', status: 429 });
    const res = await translate(app, { text: 'Good morning.', from: 'en', to: 'sw' });
    expect(res.status).toBe(503);
    expect(JSON.stringify(res.body)).not.toContain('sk-test');
  });

  it('validates the request: 400 for bad languages or text, 413 for a body over the limit', async () => {
    expect((await translate(app, { text: 'Hi', to: 'xx-not-a-tag!' })).status).toBe(400);
    expect((await translate(app, { text: 'Hi', to: 'qqq' })).body.code).toBe('unknown_language');
    expect((await translate(app, { text: '', to: 'fr' })).status).toBe(400);
    expect((await translate(app, { text: 'a'.repeat(5_001), to: 'fr' })).status).toBe(400);
    expect((await translate(app, { text: 'a'.repeat(70_000), to: 'fr' })).status).toBe(413);
    expect((await translate(app, { text: 'Hi', to: 'fr', extra: 1 })).status).toBe(400);
  });

  it('is for Pro and Enterprise: 401 without identity, 403 naming the plan for Free', async () => {
    const anonymous = await request(app).post('/api/translate').send({ text: 'Hi', to: 'fr' });
    expect(anonymous.status).toBe(401);
    const free = await translate(app, { text: 'Hi', to: 'fr' }, userHeaders('free'));
    expect(free.status).toBe(403);
    expect(free.body).toMatchObject({ message: expect.stringMatching(/Pro plan/), details: { plan: 'pro' } });
  });

  it('without a provider: answers text already in the target language, and 503 for anything else', async () => {
    const same = await translate(offline, { text: 'Good morning.', from: 'en-GB', to: 'en' });
    expect(same.status).toBe(200);
    expect(same.body).toEqual({ text: 'Good morning.', from: 'en', to: 'en', provider: 'none' });
    const other = await translate(offline, { text: 'Good morning.', from: 'en', to: 'fr' });
    expect(other.status).toBe(503);
    expect(other.body.message).toMatch(/translation needs a configured AI provider/i);
  });

  it('reports its state in GET /api/voice/status and the translate capability', async () => {
    expect((await request(offline).get('/api/voice/status')).body.translation).toMatchObject({
      status: 'degraded-offline',
    });
    expect((await request(app).get('/api/voice/status')).body.translation).toEqual({
      status: 'operational',
      providers: [
        { name: 'primary', circuit: 'closed' },
        { name: 'backup', circuit: 'closed' },
      ],
    });
    expect((await request(offline).get('/api/languages/fr')).body.capabilities.translate).toBe(false);
    expect((await request(app).get('/api/languages/fr')).body.capabilities.translate).toBe(true);
  });
});
