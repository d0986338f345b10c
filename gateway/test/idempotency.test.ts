import { eventually } from '@kasa/test-kit';
import { randomUUID } from 'node:crypto';
import { request as undiciRequest } from 'undici';
import { call, startHarness, type Harness, type Reply } from './harness';

let h: Harness;
let token: string;
/** Things the fake chat service created, by path: what the gateway let through. */
const created: Record<string, number> = {};
/** Lets the streamed reply finish once the test has seen its first event. */
let finishStream: () => void = () => undefined;
let failuresLeft = 0;

const ONE_MB = 1024 * 1024;

function answerCreated(path: string, res: import('node:http').ServerResponse, body: Buffer, delayMs = 0): void {
  created[path] = (created[path] ?? 0) + 1;
  const id = randomUUID();
  setTimeout(() => {
    res.writeHead(201, {
      'content-type': 'application/json',
      location: `${path}/${id}`,
      'x-kasa-user-message-id': `m-${id}`,
      'x-not-replayed': 'first-only',
    });
    res.end(JSON.stringify({ id, echo: body.toString() }));
  }, delayMs);
}

beforeAll(async () => {
  h = await startHarness();
  token = h.keys.token({ sub: `u-${randomUUID()}` });
  h.services.chat
    .route('/api/chat/sessions', (_req, res, body) => answerCreated('/api/chat/sessions', res, body))
    .route('/api/chat/other', (_req, res, body) => answerCreated('/api/chat/other', res, body))
    .route('/api/chat/slow', (_req, res, body) => answerCreated('/api/chat/slow', res, body, 2_000))
    .route('/api/chat/invalid', (_req, res) => {
      created['/api/chat/invalid'] = (created['/api/chat/invalid'] ?? 0) + 1;
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'title: too long', code: 'validation_failed', requestId: 'r' }));
    })
    .route('/api/chat/conflict', (_req, res) => {
      created['/api/chat/conflict'] = (created['/api/chat/conflict'] ?? 0) + 1;
      res.writeHead(409, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'busy', code: 'conflict', requestId: 'r' }));
    })
    .route('/api/chat/flaky', (_req, res, body) => {
      if (failuresLeft > 0) {
        failuresLeft--;
        created['/api/chat/flaky:failed'] = (created['/api/chat/flaky:failed'] ?? 0) + 1;
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: 'Something went wrong', code: 'internal_error', requestId: 'r' }));
        return;
      }
      answerCreated('/api/chat/flaky', res, body);
    })
    .route('/api/chat/huge', (_req, res) => {
      created['/api/chat/huge'] = (created['/api/chat/huge'] ?? 0) + 1;
      res.writeHead(201, { 'content-type': 'application/octet-stream' });
      res.end(Buffer.alloc(ONE_MB + 1, 7));
    })
    .rawRoute('/api/chat/stream', (req, res) => {
      req.resume();
      created['/api/chat/stream'] = (created['/api/chat/stream'] ?? 0) + 1;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write('event: token\ndata: {"text":"Hello"}\n\n');
      finishStream = () => {
        res.write('event: token\ndata: {"text":" world"}\n\n');
        res.end('event: done\ndata: {"id":"reply-1"}\n\n');
      };
    });
});
afterAll(async () => {
  await h?.stop();
});

function post(path: string, key: string | undefined, body: unknown = { title: 'Hi' }, who = token): Promise<Reply> {
  return call(`${h.url}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${who}`,
      'content-type': 'application/json',
      ...(key === undefined ? {} : { 'idempotency-key': key }),
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('a POST with an Idempotency-Key', () => {
  it('runs once: a retry gets the first answer with Idempotent-Replayed, its status and headers', async () => {
    const key = randomUUID();
    const before = created['/api/chat/sessions'] ?? 0;
    const first = await post('/api/chat/sessions', key);
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    const again = await post('/api/chat/sessions', key);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(again.headers['content-type']).toBe('application/json');
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.headers['x-kasa-user-message-id']).toBe(first.headers['x-kasa-user-message-id']);
    expect(again.headers['cache-control']).toBe('no-store');
    // The replay's own request id, not the first one's.
    expect(again.headers['x-request-id']).toBeDefined();
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(created['/api/chat/sessions']).toBe(before + 1);
  });

  it('creates twice without a key, or with two different keys', async () => {
    const before = created['/api/chat/sessions'] ?? 0;
    await post('/api/chat/sessions', undefined);
    await post('/api/chat/sessions', undefined);
    await post('/api/chat/sessions', randomUUID());
    await post('/api/chat/sessions', randomUUID());
    expect(created['/api/chat/sessions']).toBe(before + 4);
  });

  it('answers 422 idempotency_key_reused for the same key with another body or on another path', async () => {
    const key = randomUUID();
    expect((await post('/api/chat/sessions', key, { title: 'One' })).status).toBe(201);
    const otherBody = await post('/api/chat/sessions', key, { title: 'Two' });
    expect(otherBody.status).toBe(422);
    expect(otherBody.json()).toMatchObject({
      code: 'idempotency_key_reused',
      message: expect.stringContaining('different request body'),
      requestId: expect.any(String),
    });
    const otherPath = await post('/api/chat/other', key, { title: 'One' });
    expect(otherPath.status).toBe(422);
    expect(otherPath.json()).toMatchObject({
      code: 'idempotency_key_reused',
      message: expect.stringContaining('POST /api/chat/sessions'),
    });
    expect(created['/api/chat/other'] ?? 0).toBe(0);
  });

  it('hashes the raw body: the same JSON written differently is a different request', async () => {
    const key = randomUUID();
    expect((await post('/api/chat/sessions', key, '{"title":"Hi"}')).status).toBe(201);
    expect((await post('/api/chat/sessions', key, '{"title": "Hi"}')).status).toBe(422);
    expect((await post('/api/chat/sessions', key, '{"title":"Hi"}')).headers['idempotent-replayed']).toBe('true');
  });

  it('lets concurrent duplicates wait for the first: one creation, every one gets the same answer', async () => {
    const key = randomUUID();
    const before = created['/api/chat/slow'] ?? 0;
    const answers = await Promise.all(Array.from({ length: 5 }, () => post('/api/chat/slow', key)));
    expect(created['/api/chat/slow']).toBe(before + 1);
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([201]));
    expect(new Set(answers.map((a) => a.json<{ id: string }>().id)).size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(4);
  });

  it('refuses a concurrent duplicate with another body at once, without waiting for the first', async () => {
    const key = randomUUID();
    let firstAnswered = false;
    const first = post('/api/chat/slow', key, { title: 'One' }).finally(() => (firstAnswered = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const other = await post('/api/chat/slow', key, { title: 'Two' });
    expect(other.status).toBe(422);
    // Refused while the first is still being answered (the slow route takes 2 s), not after waiting for it.
    expect(firstAnswered).toBe(false);
    expect((await first).status).toBe(201);
  });

  it('keeps two people’s keys apart', async () => {
    const key = randomUUID();
    const other = h.keys.token({ sub: `u-${randomUUID()}` });
    const before = created['/api/chat/sessions'] ?? 0;
    const mine = await post('/api/chat/sessions', key);
    const theirs = await post('/api/chat/sessions', key, { title: 'Something else' }, other);
    expect(theirs.status).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json<{ id: string }>().id).not.toBe(mine.json<{ id: string }>().id);
    expect(created['/api/chat/sessions']).toBe(before + 2);
  });

  it('replays a 4xx answer, but runs again after a 5xx or a 409', async () => {
    const invalidKey = randomUUID();
    await post('/api/chat/invalid', invalidKey);
    const invalidAgain = await post('/api/chat/invalid', invalidKey);
    expect(invalidAgain.status).toBe(400);
    expect(invalidAgain.headers['idempotent-replayed']).toBe('true');
    expect(created['/api/chat/invalid']).toBe(1);

    failuresLeft = 1;
    const flakyKey = randomUUID();
    const failed = await post('/api/chat/flaky', flakyKey);
    expect(failed.status).toBe(500);
    const retried = await post('/api/chat/flaky', flakyKey);
    expect(retried.status).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(created['/api/chat/flaky']).toBe(1);
    expect((await post('/api/chat/flaky', flakyKey)).headers['idempotent-replayed']).toBe('true');

    const conflictKey = randomUUID();
    await post('/api/chat/conflict', conflictKey);
    const conflictAgain = await post('/api/chat/conflict', conflictKey);
    expect(conflictAgain.headers['idempotent-replayed']).toBeUndefined();
    expect(created['/api/chat/conflict']).toBe(2);
  });

  it('does not record an answer over 1 MB: the retry runs again', async () => {
    const key = randomUUID();
    const first = await post('/api/chat/huge', key);
    expect(first.status).toBe(201);
    expect(first.text.length).toBe(ONE_MB + 1);
    const again = await post('/api/chat/huge', key);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(created['/api/chat/huge']).toBe(2);
  });

  it('streams the first answer event by event, and replays the whole stream to a retry', async () => {
    const key = randomUUID();
    const res = await undiciRequest(`${h.url}/api/chat/stream`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
        'idempotency-key': key,
      },
      body: JSON.stringify({ content: 'Hello' }),
    });
    expect(res.headers['content-type']).toBe('text/event-stream');
    const chunks = res.body[Symbol.asyncIterator]();
    // The first event arrives while the service still holds the rest back: nothing waits for the whole answer.
    const firstChunk = await chunks.next();
    expect(Buffer.from(firstChunk.value as Buffer).toString()).toContain('Hello');

    // A retry while the stream runs waits for it, then gets all of it.
    const duplicate = post('/api/chat/stream', key, { content: 'Hello' });
    await new Promise((resolve) => setTimeout(resolve, 150));
    finishStream();
    let rest = '';
    for (let next = await chunks.next(); !next.done; next = await chunks.next())
      rest += Buffer.from(next.value as Buffer).toString();
    expect(rest).toContain('event: done');

    const replayed = await duplicate;
    expect(replayed.status).toBe(200);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.headers['content-type']).toBe('text/event-stream');
    expect(replayed.text).toBe(
      'event: token\ndata: {"text":"Hello"}\n\n' +
        'event: token\ndata: {"text":" world"}\n\n' +
        'event: done\ndata: {"id":"reply-1"}\n\n',
    );
    expect(created['/api/chat/stream']).toBe(1);
  });

  it('finishes a JSON answer whose client left, so that the retry gets it instead of a second creation', async () => {
    const key = randomUUID();
    const before = created['/api/chat/slow'] ?? 0;
    const controller = new AbortController();
    const gone = undiciRequest(`${h.url}/api/chat/slow`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ title: 'Hi' }),
      signal: controller.signal,
    }).catch(() => undefined);
    await eventually(() => ((created['/api/chat/slow'] ?? 0) > before ? true : undefined));
    controller.abort();
    await gone;
    const retry = await post('/api/chat/slow', key);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(created['/api/chat/slow']).toBe(before + 1);
  });

  it('answers 400 for a key longer than 255 characters or with characters outside printable ASCII', async () => {
    const tooLong = await post('/api/chat/sessions', 'k'.repeat(256));
    expect(tooLong.status).toBe(400);
    expect(tooLong.json()).toMatchObject({
      code: 'bad_request',
      message: expect.stringContaining('Idempotency-Key'),
      requestId: expect.any(String),
    });
    expect((await post('/api/chat/sessions', 'a\tb')).status).toBe(400);
    expect((await post('/api/chat/sessions', 'k'.repeat(255))).status).toBe(201);
  });

  it('gives the /v1 routes OpenAI’s error object as well', async () => {
    const key = randomUUID();
    h.services.chat.route('/v1/chat/completions', (_req, res, body) =>
      answerCreated('/v1/chat/completions', res, body),
    );
    expect((await post('/v1/chat/completions', key, { model: 'kasa', messages: [] })).status).toBe(201);
    const reused = await post('/v1/chat/completions', key, { model: 'kasa', messages: [{ role: 'user' }] });
    expect(reused.status).toBe(422);
    expect(reused.json()).toMatchObject({
      code: 'idempotency_key_reused',
      error: { type: 'invalid_request_error', code: 'idempotency_key_reused' },
    });
  });

  it('leaves GET requests alone, whatever headers they carry', async () => {
    const key = randomUUID();
    const seen = h.services.chat.seen.length;
    for (let i = 0; i < 2; i++) {
      const res = await call(`${h.url}/api/personas`, {
        headers: { authorization: `Bearer ${token}`, 'idempotency-key': key },
      });
      expect(res.headers['idempotent-replayed']).toBeUndefined();
    }
    expect(h.services.chat.seen.length).toBe(seen + 2);
  });
});

describe('on the other creating routes', () => {
  it('records new API keys (auth) and video jobs (voice) per key too', async () => {
    h.services.auth.route('/api/developer/keys', (_req, res, body) => answerCreated('/api/developer/keys', res, body));
    h.services.voice.route('/api/video/generations', (_req, res, body) =>
      answerCreated('/api/video/generations', res, body),
    );
    for (const path of ['/api/developer/keys', '/api/video/generations']) {
      const key = randomUUID();
      const first = await post(path, key, { name: 'x' });
      const again = await post(path, key, { name: 'x' });
      expect({ path, status: again.status, replayed: again.headers['idempotent-replayed'] }).toEqual({
        path,
        status: 201,
        replayed: 'true',
      });
      expect(again.json()).toEqual(first.json());
      expect(created[path]).toBe(1);
    }
  });
});
