import type { Express } from 'express';
import { Types } from 'mongoose';
import request from 'supertest';
import { FakeOpenAI, TestEnvironment, eventually, parseSse, userHeaders } from './support';

/**
 * Editing a message and regenerating an answer: versions of a message, branches of a conversation, the branch that is
 * shown and the history a reply's prompt is made of. Each scenario runs on a replica that keeps its replies and the
 * recent history in memory, and on one sharing replies through Redis (which reads every prompt's history from the
 * database).
 */
const env = new TestEnvironment('versions');
const provider = new FakeOpenAI();
const PROVIDER_ENV = { CHAT_PROVIDERS: 'capture', CAPTURE_BASE_URL: '', CAPTURE_MODEL: 'fake-1' };

beforeAll(async () => {
  await Promise.all([env.start(), provider.start()]);
  PROVIDER_ENV.CAPTURE_BASE_URL = provider.baseURL;
});
afterAll(async () => {
  await provider.stop();
  await env.stop();
});

interface Listed {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  status: string;
  version: { index: number; count: number; siblingIds: string[] };
}

describe.each(['memory', 'redis'] as const)('versions of messages (replies in %s)', (store) => {
  let app: Express;

  beforeAll(async () => {
    ({ app } = await env.app(PROVIDER_ENV, store === 'redis' ? await env.redisReplies() : undefined));
  });

  const base = (sessionId: string) => `/api/chat/sessions/${sessionId}`;

  async function newSession(headers: Record<string, string>): Promise<string> {
    const res = await request(app).post('/api/chat/sessions').set(headers).send({ personaId: 'kasa', title: 'Tree' });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  /** Makes the fake provider answer `text`, then runs `call`; answers the call and the prompt the provider got. */
  async function answered(text: string, call: () => Promise<request.Response>) {
    provider.mode = { kind: 'ok', text };
    const before = provider.requests.length;
    const res = await call();
    const prompt =
      provider.requests.length > before
        ? provider.requests[before]!.body.messages.filter((m) => m.role !== 'system').map(
            (m) => `${m.role}: ${m.content}`,
          )
        : [];
    return { res, prompt };
  }

  async function send(headers: Record<string, string>, sessionId: string, content: string, reply: string) {
    const { res, prompt } = await answered(reply, () =>
      request(app)
        .post(`${base(sessionId)}/messages`)
        .set(headers)
        .send({ role: 'user', content, language: 'en' }),
    );
    expect(res.status).toBe(201);
    return { reply: res.body as Listed & { userMessageId: string }, prompt };
  }

  async function listed(headers: Record<string, string>, sessionId: string, query = ''): Promise<Listed[]> {
    const res = await request(app)
      .get(`${base(sessionId)}${query}`)
      .set(headers);
    expect(res.status).toBe(200);
    return res.body.messages as Listed[];
  }

  const contents = (messages: Listed[]) => messages.map((m) => m.content);

  it('edits a message: the edit and its answer replace what followed it, and the prompt holds that branch only', async () => {
    const headers = userHeaders('pro');
    const sessionId = await newSession(headers);
    const first = await send(headers, sessionId, 'Where is Kumasi?', 'In Ghana.');
    const second = await send(headers, sessionId, 'What is kente?', 'A woven cloth.');
    expect(second.prompt).toEqual(['user: Where is Kumasi?', 'assistant: In Ghana.', 'user: What is kente?']);

    const { res, prompt } = await answered('Adinkra are Akan symbols.', () =>
      request(app)
        .post(`${base(sessionId)}/messages/${second.reply.userMessageId}/edit`)
        .set(headers)
        .send({ content: 'What is adinkra?', language: 'en' }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      role: 'assistant',
      content: 'Adinkra are Akan symbols.',
      status: 'complete',
      userMessageId: expect.stringMatching(/^[0-9a-f]{24}$/),
      version: { index: 0, count: 1, siblingIds: [res.body.id] },
    });
    expect(res.headers['x-kasa-user-message-id']).toBe(res.body.userMessageId);
    expect(res.body.userMessageId).not.toBe(second.reply.userMessageId);
    // What the provider was given: the branch up to the edited message, never the replaced question or its answer.
    expect(prompt).toEqual(['user: Where is Kumasi?', 'assistant: In Ghana.', 'user: What is adinkra?']);

    const messages = await listed(headers, sessionId);
    expect(contents(messages)).toEqual([
      'Where is Kumasi?',
      'In Ghana.',
      'What is adinkra?',
      'Adinkra are Akan symbols.',
    ]);
    expect(messages[2]!.version).toEqual({
      index: 1,
      count: 2,
      siblingIds: [second.reply.userMessageId, res.body.userMessageId],
    });
    expect(messages[0]!.version).toEqual({ index: 0, count: 1, siblingIds: [first.reply.userMessageId] });

    // The next message continues the edited branch.
    const third = await send(headers, sessionId, 'Name one.', 'Gye Nyame.');
    expect(third.prompt).toEqual([
      'user: Where is Kumasi?',
      'assistant: In Ghana.',
      'user: What is adinkra?',
      'assistant: Adinkra are Akan symbols.',
      'user: Name one.',
    ]);

    // The old branch is kept: choosing the first version shows it again, down to its answer.
    const selected = await request(app)
      .post(`${base(sessionId)}/messages/${second.reply.userMessageId}/select`)
      .set(headers);
    expect(selected.status).toBe(200);
    expect(contents(selected.body.messages)).toEqual([
      'Where is Kumasi?',
      'In Ghana.',
      'What is kente?',
      'A woven cloth.',
    ]);
    expect(contents(await listed(headers, sessionId))).toEqual([
      'Where is Kumasi?',
      'In Ghana.',
      'What is kente?',
      'A woven cloth.',
    ]);
    // And back: the edited branch comes back down to the leaf last shown there.
    const back = await request(app)
      .post(`${base(sessionId)}/messages/${res.body.userMessageId}/select`)
      .set(headers);
    expect(contents(back.body.messages).slice(2)).toEqual([
      'What is adinkra?',
      'Adinkra are Akan symbols.',
      'Name one.',
      'Gye Nyame.',
    ]);
  });

  it('regenerates an answer into versions of one answer, each asked with the history up to its question', async () => {
    const headers = userHeaders('pro');
    const sessionId = await newSession(headers);
    await send(headers, sessionId, 'Say hello.', 'Hello.');
    const asked = await send(headers, sessionId, 'Say it in Twi.', 'Maakye.');
    const regenerate = (messageId: string, text: string) =>
      answered(text, () =>
        request(app)
          .post(`${base(sessionId)}/messages/${messageId}/regenerate`)
          .set(headers),
      );

    const second = await regenerate(asked.reply.id, 'Akwaaba.');
    expect(second.res.status).toBe(201);
    expect(second.res.body).toMatchObject({
      content: 'Akwaaba.',
      userMessageId: asked.reply.userMessageId,
      version: { index: 1, count: 2, siblingIds: [asked.reply.id, second.res.body.id] },
    });
    expect(second.prompt).toEqual(['user: Say hello.', 'assistant: Hello.', 'user: Say it in Twi.']);
    // Regenerating an earlier version adds a version too: always to the same question.
    const third = await regenerate(asked.reply.id, 'Ɛte sɛn?');
    expect(third.res.body.version).toEqual({
      index: 2,
      count: 3,
      siblingIds: [asked.reply.id, second.res.body.id, third.res.body.id],
    });
    expect(third.prompt).toEqual(second.prompt);

    const messages = await listed(headers, sessionId);
    expect(contents(messages)).toEqual(['Say hello.', 'Hello.', 'Say it in Twi.', 'Ɛte sɛn?']);
    expect(messages[3]!.version).toEqual({ index: 2, count: 3, siblingIds: third.res.body.version.siblingIds });
    // One question, three answers: no message of the person's was stored again.
    const stored = await env.db
      .collection('messages')
      .find({ sessionId: new Types.ObjectId(sessionId) })
      .toArray();
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'assistant', 'assistant']);

    // The version chosen is kept across a fresh read, and the conversation goes on from it.
    const chosen = await request(app)
      .post(`${base(sessionId)}/messages/${second.res.body.id}/select`)
      .set(headers);
    expect(chosen.status).toBe(200);
    expect(chosen.body.messages[3]).toMatchObject({ content: 'Akwaaba.', version: { index: 1, count: 3 } });
    expect(contents(await listed(headers, sessionId))).toEqual(['Say hello.', 'Hello.', 'Say it in Twi.', 'Akwaaba.']);
    const next = await send(headers, sessionId, 'Thanks.', 'You are welcome.');
    expect(next.prompt).toEqual([
      'user: Say hello.',
      'assistant: Hello.',
      'user: Say it in Twi.',
      'assistant: Akwaaba.',
      'user: Thanks.',
    ]);
  });

  it('streams an edit and a regenerated answer exactly like a sent message', async () => {
    const headers = userHeaders('pro');
    const sessionId = await newSession(headers);
    const first = await send(headers, sessionId, 'One?', 'Baako.');
    provider.mode = { kind: 'ok', text: 'Mmienu ne abiesa.' };
    const edited = await request(app)
      .post(`${base(sessionId)}/messages/${first.reply.userMessageId}/edit`)
      .set({ ...headers, accept: 'text/event-stream' })
      .send({ role: 'user', content: 'Two and three?' });
    expect(edited.status).toBe(200);
    expect(edited.headers['content-type']).toMatch(/^text\/event-stream/);
    const events = parseSse(edited.text);
    expect(events[0]).toMatchObject({ event: 'meta', data: { provider: 'capture', continued: false } });
    const meta = events[0]!.data as { userMessageId: string; assistantMessageId: string };
    expect(
      events
        .filter((e) => e.event === 'token')
        .map((e) => (e.data as { text: string }).text)
        .join(''),
    ).toBe('Mmienu ne abiesa.');
    expect(events.at(-1)).toMatchObject({
      event: 'done',
      data: { id: meta.assistantMessageId, userMessageId: meta.userMessageId, status: 'complete' },
    });

    provider.mode = { kind: 'ok', text: 'Enan.' };
    const regenerated = await request(app)
      .post(`${base(sessionId)}/messages/${meta.assistantMessageId}/regenerate`)
      .set({ ...headers, accept: 'text/event-stream' })
      .send({});
    const again = parseSse(regenerated.text);
    expect(again.map((e) => e.event)).toEqual(['meta', 'token', 'done']);
    expect(again[0]!.data).toMatchObject({ userMessageId: meta.userMessageId });
    expect(again.at(-1)!.data).toMatchObject({ content: 'Enan.', version: { index: 1, count: 2 } });
    expect(contents(await listed(headers, sessionId))).toEqual(['Two and three?', 'Enan.']);
  });

  it('answers 400 for editing an answer or regenerating a message of mine, and stores nothing', async () => {
    const headers = userHeaders('pro');
    const sessionId = await newSession(headers);
    const { reply } = await send(headers, sessionId, 'Hi', 'Hello.');
    const editAnswer = await request(app)
      .post(`${base(sessionId)}/messages/${reply.id}/edit`)
      .set(headers)
      .send({ content: 'Changed' });
    expect(editAnswer.status).toBe(400);
    expect(editAnswer.body).toMatchObject({
      code: 'validation_failed',
      message: expect.stringMatching(/Only your own messages can be edited.*regenerate it/),
    });
    const regenerateMine = await request(app)
      .post(`${base(sessionId)}/messages/${reply.userMessageId}/regenerate`)
      .set(headers);
    expect(regenerateMine.status).toBe(400);
    expect(regenerateMine.body.message).toMatch(/Only an answer can be regenerated.*edit it/);
    const badBody = await request(app)
      .post(`${base(sessionId)}/messages/${reply.id}/regenerate`)
      .set(headers)
      .send({ content: 'not a field of regenerate' });
    expect(badBody.status).toBe(400);
    const emptyEdit = await request(app)
      .post(`${base(sessionId)}/messages/${reply.userMessageId}/edit`)
      .set(headers)
      .send({ content: '   ' });
    expect(emptyEdit.body).toMatchObject({ code: 'validation_failed', message: 'content is required' });
    expect(await env.db.collection('messages').countDocuments({ sessionId: new Types.ObjectId(sessionId) })).toBe(2);
  });

  it('answers 404 for someone else’s session or message, and for a message of another conversation', async () => {
    const owner = userHeaders('pro');
    const stranger = userHeaders('pro');
    const sessionId = await newSession(owner);
    const { reply } = await send(owner, sessionId, 'Private question', 'Private answer.');
    const strangersSession = await newSession(stranger);
    const mineElsewhere = await newSession(owner);
    const calls = (headers: Record<string, string>, session: string) => [
      request(app)
        .post(`${base(session)}/messages/${reply.userMessageId}/edit`)
        .set(headers)
        .send({ content: 'x' }),
      request(app)
        .post(`${base(session)}/messages/${reply.id}/regenerate`)
        .set(headers),
      request(app)
        .post(`${base(session)}/messages/${reply.id}/select`)
        .set(headers),
    ];
    for (const res of await Promise.all([
      ...calls(stranger, sessionId),
      ...calls(stranger, strangersSession),
      ...calls(owner, mineElsewhere),
      request(app)
        .post(`${base(sessionId)}/messages/${new Types.ObjectId()}/select`)
        .set(owner),
    ])) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    expect(contents(await listed(owner, sessionId))).toEqual(['Private question', 'Private answer.']);
  });

  it('keeps the plan rules: a Free user cannot edit into a voice message nor choose another reply language', async () => {
    const headers = userHeaders('free');
    const sessionId = await newSession(headers);
    const { reply } = await send(headers, sessionId, 'Hello', 'Hi.');
    const voice = await request(app)
      .post(`${base(sessionId)}/messages/${reply.userMessageId}/edit`)
      .set(headers)
      .send({ content: 'Hello again', type: 'voice' });
    expect(voice.status).toBe(403);
    const twi = await request(app)
      .post(`${base(sessionId)}/messages/${reply.id}/regenerate`)
      .set(headers)
      .send({ language: 'tw' });
    expect(twi.status).toBe(403);
    expect(twi.body.message).toMatch(/Pro plan/);
    expect(await env.db.collection('messages').countDocuments({ sessionId: new Types.ObjectId(sessionId) })).toBe(2);
  });

  it('pages the current branch newest page first, the cursor walking back along it', async () => {
    const headers = userHeaders('pro');
    const sessionId = await newSession(headers);
    const first = await send(headers, sessionId, 'q1', 'a1');
    await send(headers, sessionId, 'q2', 'a2');
    // A version of the first answer, then two more turns below it.
    await answered('a1 again', () =>
      request(app)
        .post(`${base(sessionId)}/messages/${first.reply.id}/regenerate`)
        .set(headers),
    );
    await send(headers, sessionId, 'q3', 'a3');
    const page = await request(app)
      .get(`${base(sessionId)}?limit=3`)
      .set(headers);
    expect(contents(page.body.messages)).toEqual(['a1 again', 'q3', 'a3']);
    const older = await request(app)
      .get(`${base(sessionId)}?limit=3&cursor=${page.body.nextCursor}`)
      .set(headers);
    expect(contents(older.body.messages)).toEqual(['q1']);
    expect(older.body.nextCursor).toBeNull();
  });

  it('shares a conversation that branched along the branch shown when it was shared', async () => {
    const headers = userHeaders('pro');
    const sessionId = await newSession(headers);
    const first = await send(headers, sessionId, 'Old question', 'Old answer.');
    await answered('New answer.', () =>
      request(app)
        .post(`${base(sessionId)}/messages/${first.reply.userMessageId}/edit`)
        .set(headers)
        .send({ content: 'New question' }),
    );
    const shared = await request(app)
      .post(`${base(sessionId)}/share`)
      .set(headers);
    expect(shared.status).toBe(201);
    expect(shared.body.messageCount).toBe(2);
    const read = await request(app).get(`/api/chat/shared/${shared.body.token}`);
    expect(read.body.messages.map((m: { content: string }) => m.content)).toEqual(['New question', 'New answer.']);
    // Choosing the old version later does not change what the link shows until it is shared again.
    await request(app)
      .post(`${base(sessionId)}/messages/${first.reply.userMessageId}/select`)
      .set(headers);
    const still = await request(app).get(`/api/chat/shared/${shared.body.token}`);
    expect(still.body.messages.map((m: { content: string }) => m.content)).toEqual(['New question', 'New answer.']);
    await request(app)
      .post(`${base(sessionId)}/share`)
      .set(headers);
    const now = await request(app).get(`/api/chat/shared/${shared.body.token}`);
    expect(now.body.messages.map((m: { content: string }) => m.content)).toEqual(['Old question', 'Old answer.']);
  });

  it('reads a conversation stored before messages had parents as one line, and branches it', async () => {
    const headers = userHeaders('pro');
    const owner = headers['x-kasa-user-id'];
    const at = (minutes: number) => new Date(Date.UTC(2024, 0, 1, 9, minutes));
    // A conversation as it was stored before: a session without `branched`, messages without `parentId`.
    const sessionId = new Types.ObjectId(Math.floor(at(0).getTime() / 1000)).toString();
    await env.db.collection('sessions').insertOne({
      _id: new Types.ObjectId(sessionId),
      ownerId: owner,
      personaId: 'kasa',
      title: 'Before branches',
      createdAt: at(0),
      updatedAt: at(0),
    });
    const old = (role: 'user' | 'assistant', content: string, minutes: number) => ({
      _id: new Types.ObjectId(Math.floor(at(minutes).getTime() / 1000)),
      sessionId: new Types.ObjectId(sessionId),
      ownerId: owner,
      personaId: 'kasa',
      role,
      type: 'text',
      content,
      status: 'complete',
      createdAt: at(minutes),
      updatedAt: at(minutes),
    });
    const stored = [
      old('user', 'Old one', 1),
      old('assistant', 'Old reply one', 2),
      old('user', 'Old two', 3),
      old('assistant', 'Old reply two', 4),
    ];
    await env.db.collection('messages').insertMany(stored);
    const before = await listed(headers, sessionId);
    expect(contents(before)).toEqual(['Old one', 'Old reply one', 'Old two', 'Old reply two']);
    expect(before.every((m) => m.version.count === 1)).toBe(true);

    // A new message follows the old ones; then the old second question is edited.
    const next = await send(headers, sessionId, 'New three', 'New reply three');
    expect(next.prompt.slice(0, 4)).toEqual([
      'user: Old one',
      'assistant: Old reply one',
      'user: Old two',
      'assistant: Old reply two',
    ]);
    const { res, prompt } = await answered('Edited reply', () =>
      request(app)
        .post(`${base(sessionId)}/messages/${stored[2]!._id.toString()}/edit`)
        .set(headers)
        .send({ content: 'Old two, edited' }),
    );
    expect(res.status).toBe(201);
    expect(prompt).toEqual(['user: Old one', 'assistant: Old reply one', 'user: Old two, edited']);
    const after = await listed(headers, sessionId);
    expect(contents(after)).toEqual(['Old one', 'Old reply one', 'Old two, edited', 'Edited reply']);
    expect(after[2]!.version).toMatchObject({ index: 1, count: 2 });
    const original = await request(app)
      .post(`${base(sessionId)}/messages/${stored[2]!._id.toString()}/select`)
      .set(headers);
    expect(contents(original.body.messages)).toEqual([
      'Old one',
      'Old reply one',
      'Old two',
      'Old reply two',
      'New three',
      'New reply three',
    ]);
  });
});

describe('a regenerated answer being written', () => {
  let app: Express;

  beforeAll(async () => {
    ({ app } = await env.app({ ...PROVIDER_ENV, CHAT_MAX_CONCURRENT_REPLIES: '1' }));
  });

  it('takes a reply slot, can be stopped, and is followed as a stream once stopped', async () => {
    const headers = userHeaders('pro');
    const session = await request(app).post('/api/chat/sessions').set(headers).send({ personaId: 'kasa', title: 'S' });
    const sessionId = session.body.id as string;
    provider.mode = { kind: 'ok', text: 'First answer.' };
    const first = await request(app)
      .post(`/api/chat/sessions/${sessionId}/messages`)
      .set(headers)
      .send({ role: 'user', content: 'Count for me' });
    expect(first.status).toBe(201);

    provider.mode = { kind: 'endless', intervalMs: 20 };
    const writing = request(app)
      .post(`/api/chat/sessions/${sessionId}/messages/${first.body.id}/regenerate`)
      .set(headers)
      .send({ resumable: true })
      .then((res) => res);
    const replyId = await eventually(async () => {
      const doc = await env.db
        .collection('messages')
        .findOne({ sessionId: new Types.ObjectId(sessionId), status: 'streaming' });
      return doc?._id.toString();
    }, 10_000);
    // The provider has begun the new answer.
    await eventually(() => (provider.requests.at(-1)?.firstTokenAt ? true : undefined), 10_000);

    // The one slot this person has is taken by the regenerated answer.
    const busy = await request(app)
      .post(`/api/chat/sessions/${sessionId}/messages/${first.body.id}/regenerate`)
      .set(headers);
    expect(busy.status).toBe(429);
    expect(busy.headers['retry-after']).toBe('5');

    const stopped = await request(app).post(`/api/chat/sessions/${sessionId}/messages/${replyId}/stop`).set(headers);
    expect(stopped.status).toBe(202);
    const res = await writing;
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: replyId, status: 'stopped', version: { index: 1, count: 2 } });
    expect(res.body.content).toMatch(/^w1 /);

    const followed = await request(app)
      .get(`/api/chat/sessions/${sessionId}/messages/${replyId}/stream`)
      .set({ ...headers, accept: 'text/event-stream' });
    expect(parseSse(followed.text).at(-1)).toMatchObject({
      event: 'done',
      data: { id: replyId, status: 'stopped', userMessageId: first.body.userMessageId },
    });
  });
});
