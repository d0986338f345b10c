import http from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import request from 'supertest';
import { FakeOpenAI, REDIS_URL, TestEnvironment, eventually, userHeaders } from './support';

const env = new TestEnvironment('slots');
const fake = new FakeOpenAI();
const LIMIT = 10;
const providerEnv = () => ({
  CHAT_PROVIDERS: 'slow',
  SLOW_BASE_URL: fake.baseURL,
  SLOW_MODEL: 'fake-slow',
  CHAT_MAX_CONCURRENT_REPLIES: String(LIMIT),
});

beforeAll(async () => {
  await Promise.all([env.start(), fake.start()]);
  // Replies that stay in flight until the client goes away.
  fake.mode = { kind: 'endless', intervalMs: 50 };
});
afterAll(async () => {
  await fake.stop();
  await env.stop();
});

interface Answer {
  status: number;
  retryAfter?: string;
  body?: { message?: string; code?: string; details?: unknown; requestId?: string };
  hangUp: () => void;
}

/** Sends a streamed message; resolves with the status once the response starts (a 429's JSON body read whole). */
function send(url: string, sessionId: string, headers: Record<string, string>): Promise<Answer> {
  return post(
    `${url}/api/chat/sessions/${sessionId}/messages`,
    headers,
    JSON.stringify({ role: 'user', content: 'Count for me', type: 'text' }),
  );
}

/** Asks for a streamed OpenAI-compatible completion, answered as `send` answers. */
function complete(url: string, headers: Record<string, string>): Promise<Answer> {
  return post(
    `${url}/v1/chat/completions`,
    headers,
    JSON.stringify({ model: 'kasa', stream: true, messages: [{ role: 'user', content: 'Count for me' }] }),
  );
}

function post(target: string, headers: Record<string, string>, body: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(target, {
      method: 'POST',
      headers: { ...headers, accept: 'text/event-stream', 'content-type': 'application/json' },
    });
    req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
    req.on('response', (res) => {
      const hangUp = () => req.destroy();
      if (res.statusCode === 200) return resolve({ status: 200, hangUp });
      let raw = '';
      res.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          retryAfter: res.headers['retry-after'] as string | undefined,
          body: JSON.parse(raw),
          hangUp,
        }),
      );
    });
    req.end(body);
  });
}

describe.each(['database', 'redis'] as const)('the concurrent-replies limit (%s)', (store) => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    const replies = store === 'redis' ? await env.redisReplies(LIMIT) : undefined;
    const { app } = await env.app(providerEnv(), replies);
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('accepts exactly the limit of 45 simultaneous messages and refuses the rest with 429 and Retry-After', async () => {
    const headers = userHeaders('pro');
    const session = await request(server)
      .post('/api/chat/sessions')
      .set(headers)
      .send({ personaId: 'kasa', title: 'x' });
    const answers = await Promise.all(Array.from({ length: 45 }, () => send(url, session.body.id, headers)));
    try {
      expect(answers.filter((a) => a.status === 200)).toHaveLength(LIMIT);
      const refused = answers.filter((a) => a.status !== 200);
      expect(refused).toHaveLength(45 - LIMIT);
      for (const answer of refused) {
        expect(answer.status).toBe(429);
        expect(answer.retryAfter).toMatch(/^\d+$/);
        expect(answer.body).toMatchObject({ code: 'rate_limited', details: { limit: LIMIT } });
        expect(answer.body?.message).toMatch(/replies being written/);
        expect(answer.body?.requestId).toEqual(expect.any(String));
      }
      // Refused messages are not stored: only the accepted turns are in the session.
      const page = await request(server).get(`/api/chat/sessions/${session.body.id}?limit=50`).set(headers);
      expect(page.body.messages.filter((m: { role: string }) => m.role === 'user')).toHaveLength(LIMIT);
      // Someone else is not affected by this person's replies.
      const other = userHeaders('pro');
      const theirs = await request(server)
        .post('/api/chat/sessions')
        .set(other)
        .send({ personaId: 'kasa', title: 'y' });
      const theirAnswer = await send(url, theirs.body.id, other);
      expect(theirAnswer.status).toBe(200);
      theirAnswer.hangUp();
    } finally {
      answers.forEach((a) => a.hangUp());
    }
    // A stopped reply gives its slot back: the person can send again.
    const again = await eventually(async () => {
      const answer = await send(url, session.body.id, headers);
      answer.hangUp();
      return answer.status === 200 ? answer : undefined;
    });
    expect(again.status).toBe(200);
  });

  // /v1 takes the same slots through the kit's holdSlot; the store's own behaviour is what the tests above cover for
  // each store, so these run against the database's slots (the default of one replica).
  if (store === 'database') {
    it("holds 45 simultaneous /v1 completions of one person to the same limit, in OpenAI's error shape", async () => {
      const headers = userHeaders('free');
      const answers = await Promise.all(Array.from({ length: 45 }, () => complete(url, headers)));
      try {
        expect(answers.filter((a) => a.status === 200)).toHaveLength(LIMIT);
        const refused = answers.filter((a) => a.status !== 200);
        expect(refused).toHaveLength(45 - LIMIT);
        for (const answer of refused) {
          expect(answer.status).toBe(429);
          expect(answer.retryAfter).toMatch(/^\d+$/);
          expect(answer.body).toMatchObject({
            code: 'rate_limited',
            error: { type: expect.any(String), message: expect.stringMatching(/replies being written/) },
          });
        }
      } finally {
        answers.forEach((a) => a.hangUp());
      }
      // The slots come back when the streams end.
      const again = await eventually(async () => {
        const answer = await complete(url, headers);
        answer.hangUp();
        return answer.status === 200 ? answer : undefined;
      });
      expect(again.status).toBe(200);
    });

    it('counts replies on /api/chat and /v1 together', async () => {
      const headers = userHeaders('pro');
      const session = await request(server)
        .post('/api/chat/sessions')
        .set(headers)
        .send({ personaId: 'kasa', title: 'both' });
      const inChat = await Promise.all(Array.from({ length: LIMIT - 3 }, () => send(url, session.body.id, headers)));
      const onV1 = await Promise.all(Array.from({ length: 6 }, () => complete(url, headers)));
      try {
        expect(inChat.every((a) => a.status === 200)).toBe(true);
        expect(onV1.filter((a) => a.status === 200)).toHaveLength(3);
        expect(onV1.filter((a) => a.status === 429)).toHaveLength(3);
      } finally {
        [...inChat, ...onV1].forEach((a) => a.hangUp());
      }
    });
  }

  it('gives back slots held past their expiry (a replica that died mid-reply)', async () => {
    const headers = userHeaders('pro');
    const owner = headers['x-kasa-user-id'];
    const past = Date.now() - 1_000;
    const leaked = Array.from({ length: LIMIT }, (_, i) => `dead-${i}`);
    if (store === 'redis') {
      const redis = new Redis(REDIS_URL);
      await redis.zadd(`${env.redisPrefix}reply-slots:${owner}`, ...leaked.flatMap((id) => [past, id]));
      await redis.quit();
    } else {
      await env.db
        .collection<{ _id: string; slots: string[] }>('reply_slots')
        .insertOne({ _id: owner, slots: leaked.map((id) => `${past}:${id}`) });
    }
    const session = await request(server)
      .post('/api/chat/sessions')
      .set(headers)
      .send({ personaId: 'kasa', title: 'z' });
    const answer = await send(url, session.body.id, headers);
    answer.hangUp();
    expect(answer.status).toBe(200);
  });
});
