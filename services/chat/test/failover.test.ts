import type { Express } from 'express';
import { Types } from 'mongoose';
import request from 'supertest';
import { CONTINUE_INSTRUCTION } from '../src/providers/providerChain';
import { FakeOpenAI, TestEnvironment, parseSse, userHeaders } from './support';

const env = new TestEnvironment('failover');
const primary = new FakeOpenAI();
const backup = new FakeOpenAI();
const BACKUP_TEXT = 'The backup provider answers this in full.';
const ATTEMPT_TIMEOUT_MS = 1_000;

beforeAll(async () => {
  await Promise.all([env.start(), primary.start(), backup.start()]);
});
afterAll(async () => {
  await Promise.all([primary.stop(), backup.stop()]);
  await env.stop();
});
beforeEach(() => {
  primary.requests.length = 0;
  backup.requests.length = 0;
  backup.mode = { kind: 'ok', text: BACKUP_TEXT };
});

/** A fresh app (fresh breakers) whose chain is primary → backup → offline. */
async function chainApp(extra: Record<string, string> = {}): Promise<Express> {
  const { app } = await env.app({
    CHAT_PROVIDERS: 'primary,backup',
    PRIMARY_BASE_URL: primary.baseURL,
    PRIMARY_MODEL: 'fake-primary',
    BACKUP_BASE_URL: backup.baseURL,
    BACKUP_MODEL: 'fake-backup',
    // Short enough to test a hang quickly, long enough that a busy CI machine's backup still starts within it.
    CHAT_PROVIDER_FIRST_TOKEN_TIMEOUT_MS: String(ATTEMPT_TIMEOUT_MS),
    CHAT_PROVIDER_IDLE_TIMEOUT_MS: String(ATTEMPT_TIMEOUT_MS),
    ...extra,
  });
  return app;
}

async function ask(app: Express, stream: boolean, content = 'Tell me something') {
  const headers = userHeaders('pro');
  const created = await request(app)
    .post('/api/chat/sessions')
    .set(headers)
    .send({ personaId: 'kasa', title: 'Failover' });
  expect(created.status).toBe(201);
  const req = request(app)
    .post(`/api/chat/sessions/${created.body.id}/messages`)
    .set(stream ? { ...headers, accept: 'text/event-stream' } : headers)
    .send({ role: 'user', content, type: 'text' });
  if (!stream) return { res: await req, events: [] };
  const res = await req.buffer(true).parse((response, callback) => {
    let body = '';
    response.on('data', (c: Buffer) => (body += c.toString()));
    response.on('end', () => callback(null, body));
  });
  return { res, events: parseSse(res.body as string) };
}

const attemptsOf = (messageId: string) =>
  env.db
    .collection('provider_attempts')
    .find({ messageId: new Types.ObjectId(messageId) })
    .sort({ startedAt: 1 })
    .toArray();

describe('failover before the first token', () => {
  it.each([
    ['a 500', { kind: 'status', status: 500 } as const, 'server_error'],
    ['a 429', { kind: 'status', status: 429 } as const, 'rate_limited'],
    ['a hung request', { kind: 'hang' } as const, 'timeout'],
  ])('falls over to the next provider on %s and records both attempts', async (_label, mode, outcome) => {
    primary.mode = mode;
    const app = await chainApp();
    const started = Date.now();
    const { res } = await ask(app, false);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      content: BACKUP_TEXT,
      provider: 'backup',
      model: 'fake-backup',
      status: 'complete',
    });
    // A hung provider is abandoned after its first-token time, not waited on.
    expect(Date.now() - started).toBeLessThan(ATTEMPT_TIMEOUT_MS + 5_000);
    expect(primary.requests).toHaveLength(1);
    expect(backup.requests).toHaveLength(1);

    const attempts = await attemptsOf(res.body.id);
    expect(attempts).toEqual([
      expect.objectContaining({
        provider: 'primary',
        model: 'fake-primary',
        outcome,
        answered: false,
        latencyMs: expect.any(Number),
      }),
      expect.objectContaining({
        provider: 'backup',
        model: 'fake-backup',
        outcome: 'ok',
        answered: true,
        inputTokens: 42,
        outputTokens: BACKUP_TEXT.split(' ').length,
        firstTokenMs: expect.any(Number),
      }),
    ]);
    if (outcome === 'timeout') {
      expect(attempts[0]!.latencyMs).toBeGreaterThanOrEqual(ATTEMPT_TIMEOUT_MS - 10);
      // The hung call was abandoned: its connection was closed.
      expect(primary.requests[0]!.closedAt).toBeDefined();
    }
    const event = await env.eventOf('chat.message.created', (d) => d.messageId === res.body.id);
    expect(event.data).toMatchObject({ provider: 'backup', tokens: BACKUP_TEXT.split(' ').length });
  });

  it('ends with the offline provider when every configured provider fails', async () => {
    primary.mode = { kind: 'status', status: 503 };
    backup.mode = { kind: 'status', status: 500 };
    const app = await chainApp();
    const { res } = await ask(app, false, 'What is Kasa?');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      provider: 'offline',
      content: expect.stringMatching(/offline mode[\s\S]*voice-first/),
    });
    expect((await attemptsOf(res.body.id)).map((a) => [a.provider, a.outcome])).toEqual([
      ['primary', 'server_error'],
      ['backup', 'server_error'],
      ['offline', 'ok'],
    ]);
  });
});

describe('failover in the middle of a stream', () => {
  it.each([
    ['dies', { kind: 'die', text: 'One two three four five six', words: 3 } as const, 'stream_error'],
    ['stalls', { kind: 'stall', text: 'One two three' } as const, 'timeout'],
  ])('continues the reply with the next provider when the first %s, as one stream', async (_label, mode, outcome) => {
    primary.mode = mode;
    backup.mode = { kind: 'ok', text: ' four five six.' };
    const app = await chainApp();
    const { res, events } = await ask(app, true);
    expect(res.status).toBe(200);

    const names = events.map((e) => e.event);
    expect(names[0]).toBe('meta');
    expect(names[names.length - 1]).toBe('done');
    const metas = events.filter((e) => e.event === 'meta').map((e) => e.data);
    expect(metas).toEqual([
      expect.objectContaining({ provider: 'primary', model: 'fake-primary', continued: false }),
      expect.objectContaining({ provider: 'backup', model: 'fake-backup', continued: true }),
    ]);
    const text = events
      .filter((e) => e.event === 'token')
      .map((e) => (e.data as { text: string }).text)
      .join('');
    expect(text).toBe('One two three four five six.');
    const done = events[events.length - 1]!.data as Record<string, unknown>;
    expect(done).toMatchObject({ content: text, provider: 'backup', status: 'complete' });

    // The backup was given the partial reply and asked to continue it.
    const sent = backup.requests[0]!.body.messages;
    expect(sent.slice(-2)).toEqual([
      { role: 'assistant', content: 'One two three' },
      { role: 'user', content: CONTINUE_INSTRUCTION },
    ]);
    const attempts = await attemptsOf(done.id as string);
    expect(attempts.map((a) => [a.provider, a.outcome, a.continued])).toEqual([
      ['primary', outcome, false],
      ['backup', 'ok', true],
    ]);
  });
});

describe('circuit breaking', () => {
  const RESET_MS = 5_000;
  it('skips a provider that keeps failing, then tries it again after the reset time', async () => {
    primary.mode = { kind: 'status', status: 500 };
    const app = await chainApp({
      CHAT_BREAKER_MIN_REQUESTS: '2',
      CHAT_BREAKER_ERROR_PERCENT: '50',
      // Long enough that the open circuit is still open for the next request on a loaded machine.
      CHAT_BREAKER_RESET_MS: String(RESET_MS),
    });
    for (let i = 0; i < 2; i++) expect((await ask(app, false)).res.body.provider).toBe('backup');
    expect(primary.requests).toHaveLength(2);

    const headers = userHeaders();
    const open = await request(app).get('/api/chat/providers').set(headers);
    expect(open.body.providers).toEqual([
      { name: 'primary', model: 'fake-primary', circuit: 'open' },
      { name: 'backup', model: 'fake-backup', circuit: 'closed' },
      { name: 'offline', model: 'kasa-knowledge-base', circuit: 'closed' },
    ]);

    // Open: the primary is not called at all, and the skip is recorded.
    const { res } = await ask(app, false);
    expect(res.body.provider).toBe('backup');
    expect(primary.requests).toHaveLength(2);
    expect((await attemptsOf(res.body.id)).map((a) => [a.provider, a.outcome])).toEqual([
      ['primary', 'circuit_open'],
      ['backup', 'ok'],
    ]);

    // After the reset time one trial goes through; it succeeds, so the circuit closes.
    primary.mode = { kind: 'ok', text: 'Primary is back.' };
    await new Promise((r) => setTimeout(r, RESET_MS + 100));
    expect((await ask(app, false)).res.body).toMatchObject({ provider: 'primary', content: 'Primary is back.' });
    expect(primary.requests).toHaveLength(3);
    const closed = await request(app).get('/api/chat/providers').set(headers);
    expect(closed.body.providers[0].circuit).toBe('closed');

    const metrics = (await request(app).get('/metrics')).text;
    expect(metrics).toMatch(/chat_provider_attempts_total\{provider="primary",outcome="server_error"[^}]*\} 2/);
    expect(metrics).toMatch(/chat_provider_attempts_total\{provider="primary",outcome="circuit_open"[^}]*\} 1/);
    expect(metrics).toMatch(/chat_provider_attempts_total\{provider="primary",outcome="ok"[^}]*\} 1/);
  });
});
