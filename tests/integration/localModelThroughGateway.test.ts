import { eventually, tinyGguf } from '@kasa/test-kit';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { startPlatform, type RunningPlatform } from '../support/platform';

/**
 * The local model, end to end through the gateway and the built services: an operator downloads a GGUF model (the
 * test kit's tiny one, served slowly by a model server at the edge) with its progress, connects it as a `local`
 * provider, and people's replies come from it, one at a time (CHAT_LOCAL_SEQUENCES=1): the second person is told
 * their place in line, and gets their turn once the first reply is stopped.
 */
const OPERATOR = `local.ops.${randomUUID().slice(0, 8)}@example.com`;
const model = tinyGguf();
let platform: RunningPlatform;
let modelServer: http.Server;
let modelUrl: string;

beforeAll(async () => {
  // Sends the file in 16 pieces 150 ms apart, so that a download is seen under way.
  modelServer = http.createServer((req, res) => {
    if (req.url !== '/models/tiny.gguf') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-length': model.length, 'content-type': 'application/octet-stream' });
    const piece = Math.ceil(model.length / 16);
    let sent = 0;
    const next = () => {
      if (res.destroyed) return;
      res.write(model.subarray(sent, sent + piece));
      sent += piece;
      if (sent >= model.length) res.end();
      else setTimeout(next, 150);
    };
    next();
  });
  await new Promise<void>((resolve) => modelServer.listen(0, '127.0.0.1', resolve));
  modelUrl = `http://127.0.0.1:${(modelServer.address() as AddressInfo).port}/models/tiny.gguf`;
  platform = await startPlatform({
    KASA_OPERATOR_EMAILS: OPERATOR,
    CHAT_LOCAL_SEQUENCES: '1',
    CHAT_LOCAL_THREADS: '1',
    // A reply waiting its turn is not a hung provider; a generous limit for a loaded machine all the same.
    CHAT_PROVIDER_FIRST_TOKEN_TIMEOUT_MS: '30000',
    CHAT_PROVIDER_IDLE_TIMEOUT_MS: '30000',
  });
}, 120_000);

afterAll(async () => {
  await platform?.stop();
  modelServer?.closeAllConnections();
  await new Promise((resolve) => modelServer?.close(resolve));
});

async function call(method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(`${platform.baseUrl}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as any };
}

async function signUp(email = `local.${randomUUID().slice(0, 8)}@example.com`): Promise<string> {
  const registered = await call('POST', '/api/auth/register', undefined, {
    email,
    username: `local_${randomUUID().slice(0, 8)}`,
    password: 'local-model-1',
  });
  expect(registered.status).toBe(201);
  return registered.body.token as string;
}

interface SseEvent {
  event: string;
  data: any;
}

/** A message whose reply streams: the events as they arrive, and when the stream ends. */
function streamReply(token: string, sessionId: string) {
  const events: SseEvent[] = [];
  const ended = (async () => {
    const res = await fetch(`${platform.baseUrl}/api/chat/sessions/${sessionId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ role: 'user', content: 'Tell me a long story about Kumasi.', type: 'text' }),
    });
    expect(res.status).toBe(200);
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.+)$/m.exec(block)?.[1];
        const data = /^data: (.+)$/m.exec(block)?.[1];
        if (event) events.push({ event, data: data ? JSON.parse(data) : undefined });
      }
    }
    return events;
  })();
  return { events, ended };
}

it('downloads the local model with its progress, answers from it through the gateway, and queues a second person', async () => {
  const operator = await signUp(OPERATOR);
  expect((await call('GET', '/api/admin/local-model', operator)).body.state).toBe('absent');
  const started = await call('POST', '/api/admin/local-model', operator, { url: modelUrl });
  expect(started.status).toBe(202);

  // Progress: some bytes of the whole while it runs, then the whole file.
  const seen: Array<{ state: string; bytes: number; totalBytes?: number }> = [];
  const ready = await eventually(
    async () => {
      const status = (await call('GET', '/api/admin/local-model', operator)).body;
      seen.push(status);
      return status.state === 'ready' && status;
    },
    { timeoutMs: 30_000, what: 'the model downloaded' },
  );
  expect(ready).toMatchObject({ state: 'ready', file: 'tiny.gguf', bytes: model.length });
  expect(
    seen.some(
      (s) => s.state === 'downloading' && s.bytes > 0 && s.bytes < model.length && s.totalBytes === model.length,
    ),
  ).toBe(true);

  const connected = await call('POST', '/api/admin/providers', operator, {
    name: 'local',
    kind: 'local',
    model: 'tiny.gguf',
  });
  expect(connected.status).toBe(201);
  expect((await call('GET', '/api/chat/capabilities')).body).toMatchObject({ aiConnected: true });

  // Two people ask at once; the model answers one at a time.
  const [first, second] = [await signUp(), await signUp()];
  const sessionOf = async (token: string) =>
    (await call('POST', '/api/chat/sessions', token, { personaId: 'kasa', title: 'Local' })).body.id as string;
  const [firstSession, secondSession] = [await sessionOf(first), await sessionOf(second)];
  const running = streamReply(first, firstSession);
  await eventually(() => running.events.some((e) => e.event === 'token'), { what: 'the first reply streams' });
  const meta = running.events.find((e) => e.event === 'meta')!.data;
  expect(meta).toMatchObject({ provider: 'local', model: 'tiny.gguf' });
  const waiting = streamReply(second, secondSession);
  await eventually(() => waiting.events.some((e) => e.event === 'queued'), { what: 'the second reply is in line' });
  expect(waiting.events.find((e) => e.event === 'queued')!.data).toEqual({ position: 1 });

  // The first person stops their reply: it ends stopped, and the second one's turn comes.
  const stopped = await call(
    'POST',
    `/api/chat/sessions/${firstSession}/messages/${meta.assistantMessageId}/stop`,
    first,
  );
  expect(stopped.status).toBe(202);
  const firstEvents = await running.ended;
  expect(firstEvents.at(-1)).toMatchObject({ event: 'done', data: { status: 'stopped', provider: 'local' } });
  const secondEvents = await waiting.ended;
  const names = secondEvents.map((e) => e.event);
  expect(secondEvents.filter((e) => e.event === 'queued').map((e) => e.data)).toEqual([
    { position: 1 },
    { position: 0 },
  ]);
  expect(names.indexOf('token')).toBeGreaterThan(names.lastIndexOf('queued'));
  expect(secondEvents.at(-1)).toMatchObject({ event: 'done', data: { provider: 'local' } });
}, 120_000);
