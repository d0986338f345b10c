import type { Express } from 'express';
import { Types } from 'mongoose';
import request from 'supertest';
import { TestEnvironment, userHeaders } from './support';

const env = new TestEnvironment('sessions');
let app: Express;

beforeAll(async () => {
  await env.start();
  ({ app } = await env.app());
});
afterAll(() => env.stop());

async function createSession(
  headers: Record<string, string>,
  body: object = { personaId: 'kasa', title: 'First chat' },
) {
  const res = await request(app).post('/api/chat/sessions').set(headers).send(body);
  expect(res.status).toBe(201);
  return res.body as { id: string; personaId: string; title: string; createdAt: string };
}

describe('GET /api/personas', () => {
  it('still lists the six personas in their order', async () => {
    const res = await request(app).get('/api/personas');
    expect(res.status).toBe(200);
    expect(res.body.map((p: { id: string }) => p.id)).toEqual(['kasa', 'merla', 'ticha', 'massa', 'nana', 'dokta']);
  });
});

describe('identity from the gateway', () => {
  it.each([
    ['no identity headers', {}],
    ['a user id without a tier', { 'x-kasa-user-id': 'u1', 'x-kasa-username': 'ama' }],
    ['an unknown tier', { 'x-kasa-user-id': 'u1', 'x-kasa-username': 'ama', 'x-kasa-tier': 'platinum' }],
  ])('answers 401 JSON for %s', async (_label, headers) => {
    const res = await request(app).get('/api/chat/sessions').set(headers);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({
      code: 'unauthenticated',
      message: expect.any(String),
      requestId: expect.any(String),
    });
  });

  it('also guards the message route', async () => {
    const res = await request(app)
      .post('/api/chat/sessions/0123456789abcdef01234567/messages')
      .send({ role: 'user', content: 'hi', type: 'text' });
    expect(res.status).toBe(401);
  });
});

describe('POST /api/chat/sessions', () => {
  it('creates a session as the spec reads it and announces it', async () => {
    const headers = userHeaders();
    const session = await createSession(headers, { personaId: 'merla', title: '  Budget for March  ' });
    expect(session).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      personaId: 'merla',
      title: 'Budget for March',
      createdAt: expect.any(String),
    });
    expect(new Date(session.createdAt).toISOString()).toBe(session.createdAt);
    const event = await env.eventOf('chat.session.created', (d) => d.sessionId === session.id);
    expect(event.data).toEqual({
      sessionId: session.id,
      userId: headers['x-kasa-user-id'],
      personaId: 'merla',
      title: 'Budget for March',
      createdAt: session.createdAt,
    });
  });

  it.each([
    ['an unknown persona', { personaId: 'socrates', title: 'x' }, /Unknown persona 'socrates'/],
    ['a missing title', { personaId: 'kasa' }, /title/],
    ['an empty title', { personaId: 'kasa', title: '   ' }, /title/],
    ['a title too long', { personaId: 'kasa', title: 'x'.repeat(201) }, /title/],
    ['a missing persona', { title: 'x' }, /personaId/],
  ])('answers 400 JSON for %s', async (_label, body, message) => {
    const res = await request(app).post('/api/chat/sessions').set(userHeaders()).send(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.message).toMatch(message);
  });

  it('answers 400 for a body that is not JSON', async () => {
    const res = await request(app)
      .post('/api/chat/sessions')
      .set(userHeaders())
      .set('content-type', 'application/json')
      .send('{"personaId":');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('malformed_json');
  });
});

describe('listing, reading, renaming and deleting sessions', () => {
  it('lists my sessions newest first, in pages with a cursor', async () => {
    const headers = userHeaders();
    const created = [];
    for (let i = 1; i <= 5; i++) created.push(await createSession(headers, { personaId: 'kasa', title: `Chat ${i}` }));
    await createSession(userHeaders(), { personaId: 'kasa', title: 'Someone else' });

    const first = await request(app).get('/api/chat/sessions?limit=2').set(headers);
    expect(first.status).toBe(200);
    expect(first.body.sessions.map((s: { title: string }) => s.title)).toEqual(['Chat 5', 'Chat 4']);
    expect(first.body.nextCursor).toBe(created[3]!.id);
    const second = await request(app).get(`/api/chat/sessions?limit=2&cursor=${first.body.nextCursor}`).set(headers);
    expect(second.body.sessions.map((s: { title: string }) => s.title)).toEqual(['Chat 3', 'Chat 2']);
    const third = await request(app).get(`/api/chat/sessions?limit=2&cursor=${second.body.nextCursor}`).set(headers);
    expect(third.body).toEqual({ sessions: [created[0]], nextCursor: null });
  });

  it.each([
    ['a limit over 50', '?limit=51'],
    ['a limit of 0', '?limit=0'],
    ['a cursor that is not an id', '?cursor=abc'],
    ['an unknown query parameter', '?sort=title'],
  ])('answers 400 for %s', async (_label, query) => {
    const res = await request(app).get(`/api/chat/sessions${query}`).set(userHeaders());
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
  });

  it('returns a session with its messages, and 404 when the session belongs to someone else', async () => {
    const owner = userHeaders('pro');
    const session = await createSession(owner);
    const mine = await request(app).get(`/api/chat/sessions/${session.id}`).set(owner);
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual({ ...session, messages: [], nextCursor: null });

    const stranger = userHeaders('enterprise');
    for (const [method, body] of [
      ['get', undefined],
      ['patch', { title: 'Mine now' }],
      ['delete', undefined],
    ] as const) {
      const res = await request(app)[method](`/api/chat/sessions/${session.id}`).set(stranger).send(body);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'not_found', message: 'Chat session not found' });
    }
    const messages = await request(app)
      .post(`/api/chat/sessions/${session.id}/messages`)
      .set(stranger)
      .send({ role: 'user', content: 'hello?', type: 'text' });
    expect(messages.status).toBe(404);
    // Nothing changed for the owner.
    expect((await request(app).get(`/api/chat/sessions/${session.id}`).set(owner)).body.title).toBe('First chat');
  });

  it('answers 400 for a session id that is not an id', async () => {
    const res = await request(app).get('/api/chat/sessions/not-an-id').set(userHeaders());
    expect(res.status).toBe(400);
  });

  it('renames a session', async () => {
    const headers = userHeaders();
    const session = await createSession(headers);
    const res = await request(app).patch(`/api/chat/sessions/${session.id}`).set(headers).send({ title: 'Renamed' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...session, title: 'Renamed' });
    const bad = await request(app).patch(`/api/chat/sessions/${session.id}`).set(headers).send({ title: '', extra: 1 });
    expect(bad.status).toBe(400);
  });

  it('deletes a session and its messages', async () => {
    const headers = userHeaders();
    const session = await createSession(headers);
    const sent = await request(app)
      .post(`/api/chat/sessions/${session.id}/messages`)
      .set(headers)
      .send({ role: 'user', content: 'What is Kasa?', type: 'text' });
    expect(sent.status).toBe(201);
    expect(await env.db.collection('messages').countDocuments({ sessionId: new Types.ObjectId(session.id) })).toBe(2);
    const res = await request(app).delete(`/api/chat/sessions/${session.id}`).set(headers);
    expect(res.status).toBe(204);
    expect((await request(app).get(`/api/chat/sessions/${session.id}`).set(headers)).status).toBe(404);
    const sessionId = new Types.ObjectId(session.id);
    expect(await env.db.collection('sessions').countDocuments({ _id: sessionId })).toBe(0);
    expect(await env.db.collection('messages').countDocuments({ sessionId })).toBe(0);
    const search = await request(app).get('/api/chat/search?q=Kasa').set(headers);
    expect(search.body.results).toEqual([]);
  });

  it('pages the messages of a session, newest page first, each page oldest first', async () => {
    const headers = userHeaders();
    const session = await createSession(headers);
    for (const content of ['one', 'two']) {
      const res = await request(app)
        .post(`/api/chat/sessions/${session.id}/messages`)
        .set(headers)
        .send({ role: 'user', content: `hello ${content}`, type: 'text' });
      expect(res.status).toBe(201);
    }
    const page = await request(app).get(`/api/chat/sessions/${session.id}?limit=3`).set(headers);
    expect(page.body.messages.map((m: { role: string }) => m.role)).toEqual(['assistant', 'user', 'assistant']);
    expect(page.body.messages[1].content).toBe('hello two');
    const older = await request(app)
      .get(`/api/chat/sessions/${session.id}?limit=3&cursor=${page.body.nextCursor}`)
      .set(headers);
    expect(older.body.messages).toEqual([
      expect.objectContaining({ role: 'user', content: 'hello one', type: 'text', status: 'complete' }),
    ]);
    expect(older.body.nextCursor).toBeNull();
  });
});

describe('GET /api/chat/search', () => {
  it('finds my own messages only, as literal text, case-insensitively', async () => {
    const me = userHeaders();
    const other = userHeaders();
    const mine = await createSession(me, { personaId: 'nana', title: 'Trip to Kumasi' });
    const theirs = await createSession(other, { personaId: 'nana', title: 'Their trip' });
    for (const [headers, session, content] of [
      [me, mine, 'Is the Kejetia market (a.k.a. the big one) open on Sunday?'],
      [other, theirs, 'Kejetia market opening hours?'],
    ] as const) {
      const res = await request(app)
        .post(`/api/chat/sessions/${session.id}/messages`)
        .set(headers)
        .send({ role: 'user', content, type: 'text' });
      expect(res.status).toBe(201);
    }
    const res = await request(app).get('/api/chat/search').query({ q: 'KEJETIA' }).set(me);
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      {
        sessionId: mine.id,
        sessionTitle: 'Trip to Kumasi',
        personaId: 'nana',
        message: expect.objectContaining({ role: 'user', content: expect.stringContaining('Kejetia market') }),
      },
    ]);
    // Regular-expression characters are searched for literally, not interpreted.
    const literal = await request(app).get('/api/chat/search').query({ q: '(a.k.a.' }).set(me);
    expect(literal.body.results).toHaveLength(1);
    const wildcard = await request(app).get('/api/chat/search').query({ q: 'K.j.tia' }).set(me);
    expect(wildcard.body.results).toHaveLength(0);
  });

  it.each([
    ['no query', ''],
    ['an empty query', '?q='],
    ['a query over 100 characters', `?q=${'a'.repeat(101)}`],
  ])('answers 400 for %s', async (_label, query) => {
    const res = await request(app).get(`/api/chat/search${query}`).set(userHeaders());
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
  });
});
