import type { Server } from 'node:http';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Types } from 'mongoose';
import request from 'supertest';
import type { Express } from 'express';
import type { ChatComponents } from '../src/chatComponents';
import type { Replies } from '../src/replies/createReplies';
import { MemoryReplyStreams } from '../src/replies/memoryReplyStreams';
import { MongoReplySlots } from '../src/replies/replySlots';
import { FakeOpenAI, TestEnvironment, eventually, parseSse, userHeaders } from './support';

const env = new TestEnvironment('cancel');
const fake = new FakeOpenAI();
let server: Server;
let baseUrl: string;
let chat: ChatComponents;

beforeAll(async () => {
  await Promise.all([env.start(), fake.start()]);
  const providerEnv = { CHAT_PROVIDERS: 'endless', ENDLESS_BASE_URL: fake.baseURL, ENDLESS_MODEL: 'fake-endless' };
  const { app, chat: components } = await env.app(providerEnv);
  chat = components;
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await fake.stop();
  await env.stop();
});

/** Opens a streamed reply and resolves once `tokens` token events arrived, with a way to hang up. */
function openStream(
  sessionId: string,
  headers: Record<string, string>,
  tokens: number,
  extra: object = {},
  url = baseUrl,
) {
  return new Promise<{ received: string; hangUp: () => number }>((resolve, reject) => {
    const req = http.request(`${url}/api/chat/sessions/${sessionId}/messages`, {
      method: 'POST',
      headers: { ...headers, accept: 'text/event-stream', 'content-type': 'application/json' },
    });
    req.on('error', () => undefined); // hanging up is expected
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
        const events = parseSse(body.slice(0, body.lastIndexOf('\n\n') + 2)).filter((e) => e.event === 'token');
        if (events.length >= tokens) {
          res.removeAllListeners('data');
          resolve({
            received: events.map((e) => (e.data as { text: string }).text).join(''),
            hangUp: () => {
              req.destroy();
              return Date.now();
            },
          });
        }
      });
    });
    req.on('timeout', () => reject(new Error('timeout')));
    req.end(JSON.stringify({ role: 'user', content: 'Count for me, forever', type: 'text', ...extra }));
  });
}

describe('stopping a streamed reply', () => {
  it('aborts the provider call within a second and stores what was produced, marked stopped', async () => {
    fake.mode = { kind: 'endless', intervalMs: 20 };
    const headers = userHeaders('pro');
    const created = await request(server)
      .post('/api/chat/sessions')
      .set(headers)
      .send({ personaId: 'kasa', title: 'Stop me' });
    const { received, hangUp } = await openStream(created.body.id, headers, 5);
    expect(received).toMatch(/^w1 w2 w3 w4 w5/);
    const stoppedAt = hangUp();

    const upstream = fake.requests[fake.requests.length - 1]!;
    const closedAt = await eventually(() => upstream.closedAt, 2_000);
    expect(closedAt - stoppedAt).toBeLessThan(1_000);

    const stored = await eventually(async () => {
      const doc = await env.db.collection('messages').findOne({
        sessionId: new Types.ObjectId(created.body.id as string),
        role: 'assistant',
        status: { $ne: 'streaming' },
      });
      return doc ?? undefined;
    });
    expect(stored.status).toBe('stopped');
    expect(stored.provider).toBe('endless');
    expect(String(stored.content).startsWith(received)).toBe(true);
    // Nothing was produced after the stop: the fake stopped writing once the call was aborted.
    expect(String(stored.content).length).toBeLessThan(received.length + 200);

    const attempts = await env.db.collection('provider_attempts').find({ messageId: stored._id }).toArray();
    expect(attempts.map((a) => [a.provider, a.outcome, a.answered])).toEqual([['endless', 'aborted', true]]);
    // The session shows the partial reply after a reload.
    const session = await request(server).get(`/api/chat/sessions/${created.body.id}`).set(headers);
    expect(session.body.messages[1]).toMatchObject({ role: 'assistant', status: 'stopped', content: stored.content });
  });

  it('does not count a stop against the provider (its circuit stays closed)', async () => {
    fake.mode = { kind: 'endless', intervalMs: 20 };
    const headers = userHeaders('pro');
    for (let i = 0; i < 6; i++) {
      const created = await request(server)
        .post('/api/chat/sessions')
        .set(headers)
        .send({ personaId: 'kasa', title: `Stop ${i}` });
      const { hangUp } = await openStream(created.body.id, headers, 2);
      hangUp();
    }
    const providers = await request(server).get('/api/chat/providers').set(headers);
    expect(providers.body.providers[0]).toMatchObject({ name: 'endless', circuit: 'closed' });
  });
});

/** Two replicas over the same database: sharing one process's memory, or each with its own Redis connection. */
describe.each(['memory', 'redis'] as const)('resumable replies (%s)', (mode) => {
  let writer: Server;
  let writerUrl: string;
  let other: Express;
  const providerEnv = { CHAT_PROVIDERS: 'endless', ENDLESS_BASE_URL: '', ENDLESS_MODEL: 'fake-endless' };

  beforeAll(async () => {
    providerEnv.ENDLESS_BASE_URL = fake.baseURL;
    let shared: Replies | undefined;
    const replies = async () =>
      mode === 'redis'
        ? env.redisReplies()
        : (shared ??= { streams: new MemoryReplyStreams(), slots: new MongoReplySlots(env.db, 10) });
    const { app } = await env.app(providerEnv, await replies());
    ({ app: other } = await env.app(providerEnv, await replies()));
    writer = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => writer.once('listening', resolve));
    writerUrl = `http://127.0.0.1:${(writer.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    writer.closeAllConnections();
    await new Promise((resolve) => writer.close(resolve));
  });

  const assistantOf = (sessionId: string) =>
    env.db.collection('messages').findOne({ sessionId: new Types.ObjectId(sessionId), role: 'assistant' });

  it('go on after the connection drops, and a follower sees the text so far and then the end', async () => {
    const words = Array.from({ length: 60 }, (_, i) => `word${i + 1}`).join(' ');
    fake.mode = { kind: 'ok', text: words, delayMs: 25 };
    const headers = userHeaders('pro');
    const created = await request(writer)
      .post('/api/chat/sessions')
      .set(headers)
      .send({ personaId: 'kasa', title: 'Reload' });
    const { received, hangUp } = await openStream(created.body.id, headers, 3, { resumable: true }, writerUrl);
    hangUp();
    await new Promise((r) => setTimeout(r, 150));
    expect(fake.requests[fake.requests.length - 1]!.closedAt).toBeUndefined();

    // After a "reload", through the other replica: the session shows the reply so far, still streaming...
    const partial = await eventually(async () => {
      const page = await request(other).get(`/api/chat/sessions/${created.body.id}`).set(headers);
      const reply = page.body.messages?.[1];
      return reply && reply.content.length > received.length ? reply : undefined;
    });
    expect(partial).toMatchObject({ role: 'assistant', status: 'streaming', provider: 'endless' });
    expect(partial.content.startsWith(received)).toBe(true);
    // ...while the database holds no copy of the growing text (it gets the reply when it is finished).
    expect((await assistantOf(created.body.id))?.content).toBe('');
    // Following it through the other replica gives the rest and the stored message.
    const follow = await request(other)
      .get(`/api/chat/sessions/${created.body.id}/messages/${partial.id}/stream`)
      .set(headers)
      .buffer(true)
      .parse((response, callback) => {
        let body = '';
        response.on('data', (c: Buffer) => (body += c.toString()));
        response.on('end', () => callback(null, body));
      });
    expect(follow.status).toBe(200);
    expect(follow.headers['content-type']).toMatch(/^text\/event-stream/);
    const events = parseSse(follow.body as string);
    expect(events[0]).toMatchObject({
      event: 'meta',
      data: { provider: 'endless', assistantMessageId: partial.id },
    });
    const text = events
      .filter((e) => e.event === 'token')
      .map((e) => (e.data as { text: string }).text)
      .join('');
    expect(text).toBe(words);
    expect(events[events.length - 1]).toMatchObject({ event: 'done', data: { content: words, status: 'complete' } });
    expect(await assistantOf(created.body.id)).toMatchObject({ content: words, status: 'complete' });
  });

  it('follow a finished reply from the database: its text and the stored message', async () => {
    fake.mode = { kind: 'ok', text: 'All done here.' };
    const headers = userHeaders('pro');
    const created = await request(writer)
      .post('/api/chat/sessions')
      .set(headers)
      .send({ personaId: 'kasa', title: 'F' });
    const sent = await request(writer)
      .post(`/api/chat/sessions/${created.body.id}/messages`)
      .set(headers)
      .send({ role: 'user', content: 'Hi', type: 'text', resumable: true });
    expect(sent.status).toBe(201);
    const follow = await request(other)
      .get(`/api/chat/sessions/${created.body.id}/messages/${sent.body.id}/stream`)
      .set(headers)
      .buffer(true)
      .parse((response, callback) => {
        let body = '';
        response.on('data', (c: Buffer) => (body += c.toString()));
        response.on('end', () => callback(null, body));
      });
    expect(parseSse(follow.body as string).map((e) => e.event)).toEqual(['meta', 'token', 'done']);
  });

  it('stop only when asked, within a second, even when the stop reaches another replica', async () => {
    fake.mode = { kind: 'endless', intervalMs: 20 };
    const headers = userHeaders('pro');
    const created = await request(writer)
      .post('/api/chat/sessions')
      .set(headers)
      .send({ personaId: 'kasa', title: 'Stop later' });
    const { hangUp } = await openStream(created.body.id, headers, 3, { resumable: true }, writerUrl);
    hangUp();
    const message = await eventually(async () => (await assistantOf(created.body.id)) ?? undefined);
    await new Promise((r) => setTimeout(r, 300));
    const upstream = fake.requests[fake.requests.length - 1]!;
    expect(upstream.closedAt).toBeUndefined();

    const stranger = await request(other)
      .post(`/api/chat/sessions/${created.body.id}/messages/${message._id.toString()}/stop`)
      .set(userHeaders('pro'));
    expect(stranger.status).toBe(404);

    const stoppedAt = Date.now();
    const stop = await request(other)
      .post(`/api/chat/sessions/${created.body.id}/messages/${message._id.toString()}/stop`)
      .set(headers);
    expect(stop.status).toBe(202);
    const closedAt = await eventually(() => upstream.closedAt, 2_000);
    expect(closedAt - stoppedAt).toBeLessThan(1_000);
    const stored = await eventually(async () => {
      const doc = await assistantOf(created.body.id);
      return doc?.status === 'stopped' ? doc : undefined;
    });
    expect(stored.content).toMatch(/^w1 w2 w3/);
  });
});

describe('replies whose writer died', () => {
  it('are marked failed when their writer died', async () => {
    const headers = userHeaders();
    const created = await request(server)
      .post('/api/chat/sessions')
      .set(headers)
      .send({ personaId: 'kasa', title: 'Orphan' });
    const { insertedId } = await env.db.collection('messages').insertOne({
      sessionId: new Types.ObjectId(created.body.id as string),
      ownerId: headers['x-kasa-user-id'],
      personaId: 'kasa',
      role: 'assistant',
      type: 'text',
      content: 'half a',
      status: 'streaming',
      createdAt: new Date(Date.now() - 20 * 60_000),
      updatedAt: new Date(Date.now() - 20 * 60_000),
    });
    expect(await chat.messages.sweepStale(10 * 60_000)).toBeGreaterThanOrEqual(1);
    expect(await env.db.collection('messages').findOne({ _id: insertedId })).toMatchObject({
      status: 'failed',
      content: 'half a',
    });
  });
});
