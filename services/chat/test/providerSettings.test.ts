import type { Express } from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { FakeOpenAI, TestEnvironment, userHeaders } from './support';

const env = new TestEnvironment('provider_settings');
const fake = new FakeOpenAI();
const other = new FakeOpenAI();
const OPERATOR = 'operator-1';
const operators = { isOperator: async (userId: string) => userId === OPERATOR };
const operatorHeaders = userHeaders('enterprise', OPERATOR);
const KEY = 'sk-test-secret-key-1234abcd';
const SECRETS_KEY = randomBytes(32).toString('base64');
let ollama: http.Server;

beforeAll(async () => {
  await Promise.all([env.start(), fake.start(), other.start()]);
  // A local Ollama as discovery sees it: GET /api/tags.
  ollama = http.createServer((req, res) => {
    if (req.url === '/api/tags')
      res.end(JSON.stringify({ models: [{ name: 'llama3.2:1b' }, { name: 'qwen2.5:1.5b' }] }));
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => ollama.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await Promise.all([fake.stop(), other.stop(), new Promise((r) => ollama.close(r))]);
  await env.stop();
});
beforeEach(async () => {
  await env.db.collection('ai_provider_settings').deleteMany({});
  fake.mode = { kind: 'ok', text: 'Hello from the connected provider.' };
  other.mode = { kind: 'ok', text: 'The environment provider answers.' };
});

const appWith = async (extra: Record<string, string> = {}) =>
  (
    await env.app({ CHAT_SECRETS_KEY: SECRETS_KEY, ...extra }, undefined, {
      operators,
      ollamaUrl: `http://127.0.0.1:${(ollama.address() as AddressInfo).port}`,
    })
  ).app;

/** The reply to one message in a new conversation. */
async function replyOf(app: Express): Promise<string> {
  const headers = userHeaders('pro');
  const session = await request(app).post('/api/chat/sessions').set(headers).send({ personaId: 'kasa', title: 'T' });
  const res = await request(app)
    .post(`/api/chat/sessions/${session.body.id}/messages`)
    .set(headers)
    .send({ role: 'user', content: 'What is the capital of Ghana?', type: 'text' });
  expect(res.status).toBe(201);
  return res.body.content as string;
}

const addFake = (app: Express, body: Record<string, unknown> = {}) =>
  request(app)
    .post('/api/admin/providers')
    .set(operatorHeaders)
    .send({
      name: 'connected',
      kind: 'openai-compatible',
      baseURL: fake.baseURL,
      model: 'fake-model',
      apiKey: KEY,
      ...body,
    });

describe('AI providers set by operators', () => {
  it('does not exist for anyone who is not an operator', async () => {
    const app = await appWith();
    const person = userHeaders('enterprise');
    for (const call of [
      request(app).get('/api/admin/providers').set(person),
      request(app).post('/api/admin/providers').set(person).send({ name: 'x', kind: 'ollama' }),
      request(app).patch('/api/admin/providers/x').set(person).send({}),
      request(app).delete('/api/admin/providers/x').set(person),
      request(app)
        .put('/api/admin/provider-order')
        .set(person)
        .send({ names: ['x'] }),
      request(app).post('/api/admin/provider-tests').set(person).send({ name: 'x' }),
      request(app).get('/api/admin/provider-discovery').set(person),
    ]) {
      const res = await call;
      expect(res.status).toBe(404);
    }
    expect((await request(app).get('/api/admin/providers')).status).toBe(401);
  });

  it('adds a provider whose key is sealed and never returned, and the next reply comes from it', async () => {
    const app = await appWith();
    expect(await replyOf(app)).toMatch(/offline/i);
    const added = await addFake(app);
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      name: 'connected',
      kind: 'openai-compatible',
      source: 'console',
      enabled: true,
      model: 'fake-model',
      key: { set: true, hint: '…abcd' },
      circuit: 'closed',
      recent: { attempts: 0, failures: 0, errorRate: 0 },
    });
    expect(JSON.stringify(added.body)).not.toContain(KEY);
    const stored = await env.db.collection('ai_provider_settings').findOne({});
    expect(JSON.stringify(stored)).not.toContain(KEY);
    expect(stored!.providers[0].apiKeySealed).toMatch(/^v1\./);

    expect(await replyOf(app)).toBe('Hello from the connected provider.');
    expect(fake.requests.at(-1)!.body.model).toBe('fake-model');

    const listed = await request(app).get('/api/admin/providers').set(operatorHeaders);
    expect(listed.status).toBe(200);
    expect(listed.get('cache-control')).toBe('no-store');
    expect(listed.body.keysStorable).toBe(true);
    expect(listed.body.providers).toHaveLength(1);
    expect(listed.body.providers[0].recent).toMatchObject({ attempts: 1, failures: 0 });
    expect(listed.body.kinds).toEqual(
      expect.arrayContaining([
        { kind: 'openai', needsKey: true, needsBaseURL: false, defaultModel: 'gpt-4o-mini' },
        expect.objectContaining({ kind: 'ollama', needsKey: false, defaultBaseURL: 'http://127.0.0.1:11434/api' }),
        expect.objectContaining({ kind: 'openai-compatible', needsBaseURL: true }),
      ]),
    );
    expect(JSON.stringify(listed.body)).not.toContain(KEY);

    const event = await env.eventOf('chat.providers.changed', (d) => d.change === 'added' && d.name === 'connected');
    expect(event.data).toMatchObject({ kind: 'openai-compatible', keyChanged: true, order: ['connected'] });
    expect(JSON.stringify(event)).not.toContain(KEY);
  });

  it('reaches another replica when it reloads (as on the change event), and a removal falls back', async () => {
    const app = await appWith();
    const { app: replica, chat: replicaChat } = await env.app({ CHAT_SECRETS_KEY: SECRETS_KEY }, undefined, {
      operators,
    });
    expect(await replyOf(replica)).toMatch(/offline/i);
    expect((await addFake(app)).status).toBe(201);
    await replicaChat.providerAdmin.settings.reload();
    expect(await replyOf(replica)).toBe('Hello from the connected provider.');

    expect((await request(app).delete('/api/admin/providers/connected').set(operatorHeaders)).status).toBe(204);
    expect(await replyOf(app)).toMatch(/offline/i);
    await replicaChat.providerAdmin.settings.reload();
    expect(await replyOf(replica)).toMatch(/offline/i);
    expect((await request(app).delete('/api/admin/providers/connected').set(operatorHeaders)).status).toBe(404);
  });

  it('changes a provider: its model, its key, disabled and enabled again', async () => {
    const app = await appWith();
    await addFake(app);
    const changed = await request(app)
      .patch('/api/admin/providers/connected')
      .set(operatorHeaders)
      .send({ model: 'fake-model-2', personaModels: { merla: 'fake-finance' }, apiKey: 'sk-new-key-9999' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ model: 'fake-model-2', key: { set: true, hint: '…9999' } });
    await replyOf(app);
    expect(fake.requests.at(-1)!.body.model).toBe('fake-model-2');

    const disabled = await request(app)
      .patch('/api/admin/providers/connected')
      .set(operatorHeaders)
      .send({ enabled: false });
    expect(disabled.body.enabled).toBe(false);
    expect(await replyOf(app)).toMatch(/offline/i);
    await request(app).patch('/api/admin/providers/connected').set(operatorHeaders).send({ enabled: true });
    expect(await replyOf(app)).toBe('Hello from the connected provider.');

    const keyless = await request(app)
      .patch('/api/admin/providers/connected')
      .set(operatorHeaders)
      .send({ apiKey: null });
    expect(keyless.body.key).toEqual({ set: false });
    const event = await env.eventOf('chat.providers.changed', (d) => d.change === 'updated' && d.keyChanged === true);
    expect(event.data).toMatchObject({ name: 'connected' });
  });

  it('orders the whole chain, environment providers included, which stay read-only', async () => {
    const app = await appWith({
      CHAT_PROVIDERS: 'envfake',
      ENVFAKE_BASE_URL: other.baseURL,
      ENVFAKE_MODEL: 'env-model',
    });
    await addFake(app);
    let list = await request(app).get('/api/admin/providers').set(operatorHeaders);
    expect(list.body.providers.map((p: { name: string }) => p.name)).toEqual(['envfake', 'connected']);
    expect(list.body.providers[0]).toMatchObject({ source: 'environment', key: { set: false } });
    expect(await replyOf(app)).toBe('The environment provider answers.');

    const reordered = await request(app)
      .put('/api/admin/provider-order')
      .set(operatorHeaders)
      .send({ names: ['connected', 'envfake'] });
    expect(reordered.status).toBe(200);
    expect(reordered.body.providers.map((p: { name: string }) => p.name)).toEqual(['connected', 'envfake']);
    expect(await replyOf(app)).toBe('Hello from the connected provider.');

    const missing = await request(app)
      .put('/api/admin/provider-order')
      .set(operatorHeaders)
      .send({ names: ['connected'] });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain('envfake');
    for (const res of [
      await request(app).patch('/api/admin/providers/envfake').set(operatorHeaders).send({ model: 'x' }),
      await request(app).delete('/api/admin/providers/envfake').set(operatorHeaders),
      await addFake(app, { name: 'envfake' }),
    ])
      expect(res.status).toBe(409);
    list = await request(app).get('/api/admin/providers').set(operatorHeaders);
    expect(list.body.providers.map((p: { name: string }) => p.name)).toEqual(['connected', 'envfake']);
  });

  it('refuses settings that cannot work, with the field named', async () => {
    const app = await appWith();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'openai', kind: 'openai' }, 'apiKey'],
      [{ name: 'mine', kind: 'openai-compatible' }, 'baseURL'],
      [{ name: 'offline', kind: 'ollama' }, 'name'],
      [{ name: 'Bad Name', kind: 'ollama' }, 'name'],
      [{ name: 'x', kind: 'nonsense' }, 'kind'],
      [{ name: 'x', kind: 'ollama', baseURL: 'ftp://example.com' }, 'baseURL'],
      [{ name: 'x', kind: 'ollama', unknown: true }, 'unknown'],
    ];
    for (const [body, field] of cases) {
      const res = await request(app).post('/api/admin/providers').set(operatorHeaders).send(body);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain(field);
    }
    expect((await addFake(app)).status).toBe(201);
    expect((await addFake(app)).status).toBe(409);
  });

  it('tests a connection before saving and a saved one, never showing the key', async () => {
    const app = await appWith();
    const unsaved = await request(app)
      .post('/api/admin/provider-tests')
      .set(operatorHeaders)
      .send({ kind: 'openai-compatible', baseURL: fake.baseURL, model: 'fake-model', apiKey: KEY });
    expect(unsaved.status).toBe(200);
    expect(unsaved.body).toMatchObject({ ok: true, model: 'fake-model', sample: 'Hello from the connected provider.' });
    expect(await env.db.collection('ai_provider_settings').countDocuments()).toBe(0);

    await addFake(app);
    fake.mode = { kind: 'status', status: 401 };
    const saved = await request(app).post('/api/admin/provider-tests').set(operatorHeaders).send({ name: 'connected' });
    expect(saved.status).toBe(200);
    expect(saved.body.ok).toBe(false);
    expect(saved.body.error).toEqual(expect.any(String));
    expect(JSON.stringify(saved.body)).not.toContain(KEY);
    expect(
      (await request(app).post('/api/admin/provider-tests').set(operatorHeaders).send({ name: 'nobody' })).status,
    ).toBe(404);
  });

  it('finds a local Ollama and its models', async () => {
    const app = await appWith();
    const res = await request(app).get('/api/admin/provider-discovery').set(operatorHeaders);
    expect(res.status).toBe(200);
    expect(res.body.ollama).toMatchObject({ found: true, models: ['llama3.2:1b', 'qwen2.5:1.5b'] });
  });

  it('leaves out a provider whose key was sealed with another secrets key, without failing', async () => {
    const app = await appWith();
    await addFake(app);
    const stranger = await appWith({ CHAT_SECRETS_KEY: randomBytes(32).toString('base64') });
    const list = await request(stranger).get('/api/admin/providers').set(operatorHeaders);
    expect(list.status).toBe(200);
    expect(list.body.providers).toEqual([]);
    expect(await replyOf(stranger)).toMatch(/offline/i);
  });
});

describe('what chat can do on this server now', () => {
  it('says so publicly, and follows the providers operators connect', async () => {
    const app = await appWith();
    const before = await request(app).get('/api/chat/capabilities');
    expect(before.status).toBe(200);
    expect(before.body).toEqual({
      aiConnected: false,
      images: false,
      documents: 'quotes',
      tools: false,
      structuredOutput: false,
    });
    await addFake(app, { vision: true });
    const after = await request(app).get('/api/chat/capabilities');
    expect(after.body).toEqual({
      aiConnected: true,
      images: true,
      documents: 'ai',
      tools: true,
      structuredOutput: true,
    });
  });
});

describe('the providers other services use', () => {
  it('gives the voice service the enabled providers added in the browser, keys opened, with a version', async () => {
    const app = await appWith({ CHAT_PROVIDERS: 'envfake', ENVFAKE_BASE_URL: other.baseURL, ENVFAKE_MODEL: 'm' });
    const empty = await request(app).get('/internal/ai-providers');
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ version: 0, providers: [] });
    await addFake(app);
    await addFake(app, { name: 'switched-off', enabled: false });
    const res = await request(app).get('/internal/ai-providers');
    expect(res.get('cache-control')).toBe('no-store');
    expect(res.body.version).toBe(2);
    expect(res.body.providers).toEqual([
      expect.objectContaining({ name: 'connected', kind: 'openai-compatible', apiKey: KEY, model: 'fake-model' }),
    ]);
  });
});
