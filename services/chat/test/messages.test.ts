import type { Express } from 'express';
import { Types } from 'mongoose';
import request from 'supertest';
import { makePdf } from './attachmentFixtures';
import { FakeOpenAI, TestEnvironment, parseSse, userHeaders } from './support';

const env = new TestEnvironment('messages');
let app: Express;

beforeAll(async () => {
  await env.start();
  ({ app } = await env.app());
});
afterAll(() => env.stop());

async function newSession(headers: Record<string, string>, personaId = 'massa', target = app) {
  const res = await request(target).post('/api/chat/sessions').set(headers).send({ personaId, title: 'Help' });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

const send = (target: Express, headers: Record<string, string>, sessionId: string, body: object) =>
  request(target).post(`/api/chat/sessions/${sessionId}/messages`).set(headers).send(body);

describe('POST /api/chat/sessions/:sessionId/messages without streaming', () => {
  it('stores both messages and answers 201 with the assistant message and the user message id', async () => {
    const headers = userHeaders();
    const sessionId = await newSession(headers);
    const res = await send(app, headers, sessionId, {
      role: 'user',
      content: 'How much does the Pro plan cost?',
      type: 'text',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      role: 'assistant',
      content: expect.stringContaining('Pro costs $29 per month'),
      timestamp: expect.any(String),
      type: 'text',
      status: 'complete',
      provider: 'offline',
      model: 'kasa-knowledge-base',
      userMessageId: expect.stringMatching(/^[0-9a-f]{24}$/),
    });
    expect(res.headers['x-kasa-user-message-id']).toBe(res.body.userMessageId);

    const session = await request(app).get(`/api/chat/sessions/${sessionId}`).set(headers);
    expect(session.body.messages).toEqual([
      expect.objectContaining({
        id: res.body.userMessageId,
        role: 'user',
        content: 'How much does the Pro plan cost?',
      }),
      expect.objectContaining({ id: res.body.id, role: 'assistant', content: res.body.content, status: 'complete' }),
    ]);

    const event = await env.eventOf('chat.message.created', (d) => d.messageId === res.body.id);
    expect(event.data).toMatchObject({
      sessionId,
      userId: headers['x-kasa-user-id'],
      personaId: 'massa',
      role: 'assistant',
      provider: 'offline',
      tokens: expect.any(Number),
      latencyMs: expect.any(Number),
    });
    await env.eventOf('chat.message.created', (d) => d.messageId === res.body.userMessageId && d.role === 'user');
  });

  it.each([
    ['a missing content', { role: 'user', type: 'text' }, /content/],
    ['an empty content', { role: 'user', content: '   ', type: 'text' }, /content is required/],
    ['the assistant role', { role: 'assistant', content: 'hi', type: 'text' }, /role/],
    ['an unknown type', { role: 'user', content: 'hi', type: 'video' }, /type/],
    ['a content over 16,000 characters', { role: 'user', content: 'x'.repeat(16_001), type: 'text' }, /content/],
    ['a bad language tag', { role: 'user', content: 'hi', type: 'text', language: 'english please' }, /language/],
  ])('answers 400 JSON for %s, storing nothing', async (_label, body, message) => {
    const headers = userHeaders();
    const sessionId = await newSession(headers);
    const res = await send(app, headers, sessionId, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', message: expect.stringMatching(message) });
    expect(await env.db.collection('messages').countDocuments({ sessionId: new Types.ObjectId(sessionId) })).toBe(0);
  });

  it('answers 404 for a session that does not exist', async () => {
    const res = await send(app, userHeaders(), new Types.ObjectId().toString(), {
      role: 'user',
      content: 'hi',
      type: 'text',
    });
    expect(res.status).toBe(404);
  });
});

describe('plan rules', () => {
  it.each(['voice', 'image'])(
    'refuses a %s message from a Free user with a 403 that names the Pro plan',
    async (type) => {
      const headers = userHeaders('free');
      const sessionId = await newSession(headers);
      const res = await send(app, headers, sessionId, { role: 'user', content: 'listen to this', type });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'forbidden', message: expect.stringMatching(/Pro plan/) });
      expect(await env.db.collection('messages').countDocuments({ sessionId: new Types.ObjectId(sessionId) })).toBe(0);
    },
  );

  it('refuses a Free user’s chosen reply language other than English, naming the Pro plan', async () => {
    const headers = userHeaders('free');
    const sessionId = await newSession(headers);
    const refused = await send(app, headers, sessionId, {
      role: 'user',
      content: 'Hello',
      type: 'text',
      language: 'tw',
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'forbidden', message: expect.stringMatching(/Pro plan/) });
    for (const language of ['auto', 'en', 'en-GB']) {
      const res = await send(app, headers, sessionId, { role: 'user', content: 'Hello', type: 'text', language });
      expect(res.status).toBe(201);
    }
    const pro = userHeaders('pro');
    const proSession = await newSession(pro);
    expect(
      (await send(app, pro, proSession, { role: 'user', content: 'Hi', type: 'text', language: 'tw' })).status,
    ).toBe(201);
  });

  it.each(['pro', 'enterprise'] as const)('accepts a voice message from a %s user', async (tier) => {
    const headers = userHeaders(tier);
    const sessionId = await newSession(headers);
    const res = await send(app, headers, sessionId, { role: 'user', content: 'What is Kasa?', type: 'voice' });
    expect(res.status).toBe(201);
  });
});

describe('streaming with Accept: text/event-stream', () => {
  it('streams meta, the tokens in order, then done with the stored message', async () => {
    const headers = userHeaders();
    const sessionId = await newSession(headers);
    const res = await send(app, { ...headers, accept: 'text/event-stream' }, sessionId, {
      role: 'user',
      content: 'Which SDKs are available?',
      type: 'text',
    })
      .buffer(true)
      .parse((response, callback) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => callback(null, body));
      });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.headers['cache-control']).toMatch(/no-cache/);
    expect(res.headers['x-accel-buffering']).toBe('no');
    expect(res.headers['content-encoding']).toBeUndefined();

    const events = parseSse(res.body as string);
    const names = events.map((e) => e.event);
    expect(names[0]).toBe('meta');
    expect(names[names.length - 1]).toBe('done');
    expect(names.slice(1, -1).every((n) => n === 'token')).toBe(true);
    expect(names.length).toBeGreaterThan(20);

    const meta = events[0]!.data as Record<string, unknown>;
    const done = events[events.length - 1]!.data as Record<string, unknown>;
    expect(meta).toEqual({
      userMessageId: done.userMessageId,
      assistantMessageId: done.id,
      provider: 'offline',
      model: 'kasa-knowledge-base',
      continued: false,
    });
    const streamed = events
      .filter((e) => e.event === 'token')
      .map((e) => (e.data as { text: string }).text)
      .join('');
    expect(streamed).toMatch(/JavaScript \d+\.\d+\.\d+/);
    expect(done).toMatchObject({ role: 'assistant', content: streamed, status: 'complete', provider: 'offline' });

    const stored = await env.db.collection('messages').findOne({ _id: new Types.ObjectId(done.id as string) });
    expect(stored).toMatchObject({ content: streamed, status: 'complete', provider: 'offline' });
  });

  it('sends a `: ping` heartbeat comment while a reply is open', async () => {
    const fake = await new FakeOpenAI().start();
    fake.mode = { kind: 'ok', text: 'slow but steady reply here', delayMs: 60 };
    try {
      const { app: slowApp } = await env.app({
        CHAT_PROVIDERS: 'slow',
        SLOW_BASE_URL: fake.baseURL,
        SLOW_MODEL: 'fake-slow',
        CHAT_SSE_HEARTBEAT_MS: '100',
      });
      const headers = userHeaders();
      const sessionId = await newSession(headers, 'kasa', slowApp);
      const res = await send(slowApp, { ...headers, accept: 'text/event-stream' }, sessionId, {
        role: 'user',
        content: 'hello',
        type: 'text',
      })
        .buffer(true)
        .parse((response, callback) => {
          let body = '';
          response.on('data', (c: Buffer) => (body += c.toString()));
          response.on('end', () => callback(null, body));
        });
      const events = parseSse(res.body as string);
      expect(events.some((e) => e.comment === 'ping')).toBe(true);
      expect(events[events.length - 1]!.data).toMatchObject({
        content: 'slow but steady reply here',
        provider: 'slow',
      });
    } finally {
      await fake.stop();
    }
  });
});

describe('the prompt', () => {
  it("sends the persona's system prompt, the history and the user's language to the provider", async () => {
    const fake = await new FakeOpenAI().start();
    fake.mode = { kind: 'ok', text: 'Noted.' };
    try {
      const { app: fakeApp } = await env.app({
        CHAT_PROVIDERS: 'capture',
        CAPTURE_BASE_URL: fake.baseURL,
        CAPTURE_MODEL: 'fake-1',
        CAPTURE_MODEL_DOKTA: 'fake-health',
      });
      const headers = userHeaders('pro');
      const sessionId = await newSession(headers, 'dokta', fakeApp);
      expect(
        (await send(fakeApp, headers, sessionId, { role: 'user', content: 'First question', type: 'text' })).status,
      ).toBe(201);
      const res = await send(fakeApp, headers, sessionId, {
        role: 'user',
        content: 'Second question',
        type: 'text',
        language: 'tw',
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ content: 'Noted.', provider: 'capture', model: 'fake-health' });
      const body = fake.requests[1]!.body;
      expect(body.model).toBe('fake-health');
      expect(body.stream).toBe(true);
      expect(body.messages[0]).toEqual({
        role: 'system',
        content: expect.stringMatching(/You are Dokta[\s\S]*language is Twi \(tw\); reply in it/),
      });
      expect(body.messages.slice(1).map((m) => [m.role, m.content])).toEqual([
        ['user', 'First question'],
        ['assistant', 'Noted.'],
        ['user', 'Second question'],
      ]);
      // Usage reported by the provider is what the reply is attributed with.
      const stored = await env.db.collection('messages').findOne({ _id: new Types.ObjectId(res.body.id) });
      expect(stored).toMatchObject({ tokens: 1, language: 'tw' });
    } finally {
      await fake.stop();
    }
  });

  it('detects the language of a message sent with language auto, and the person’s choice always wins', async () => {
    const fake = await new FakeOpenAI().start();
    fake.mode = { kind: 'ok', text: 'Yoo.' };
    try {
      const { app: fakeApp } = await env.app({
        CHAT_PROVIDERS: 'capture',
        CAPTURE_BASE_URL: fake.baseURL,
        CAPTURE_MODEL: 'fake-1',
      });
      const headers = userHeaders('pro');
      const sessionId = await newSession(headers, 'kasa', fakeApp);
      const systemOf = (index: number) => fake.requests[index]!.body.messages[0]!.content as string;
      const turns: Array<[Record<string, unknown>, RegExp | null, string | undefined]> = [
        [{ content: 'Habari yako? Ninataka kujifunza Kiswahili leo.' }, /language is Swahili \(sw\)/, 'sw'],
        [{ content: 'How do I get an API key?', language: 'auto' }, /language is English \(en\)/, 'en'],
        // A person who chose French gets French, whatever the message looks like.
        [{ content: 'Hello there, how are you?', language: 'fr' }, /language is French \(fr\)/, 'fr'],
        // Digits alone say nothing about a language: the prompt sets none, and the model mirrors the message.
        [{ content: '12345 678' }, null, undefined],
      ];
      for (const [index, [message, prompt, stored]] of turns.entries()) {
        const res = await send(fakeApp, headers, sessionId, { role: 'user', type: 'text', ...message });
        expect(res.status).toBe(201);
        if (prompt) expect(systemOf(index)).toMatch(prompt);
        else expect(systemOf(index)).not.toMatch(/language is/);
        const saved = await env.db.collection('messages').findOne({ _id: new Types.ObjectId(res.body.userMessageId) });
        expect(saved?.language).toBe(stored);
      }
    } finally {
      await fake.stop();
    }
  });

  it('keeps only the recent history that fits the token budget', async () => {
    const fake = await new FakeOpenAI().start();
    fake.mode = { kind: 'ok', text: 'ok' };
    try {
      const { app: fakeApp } = await env.app({
        CHAT_PROVIDERS: 'budget',
        BUDGET_BASE_URL: fake.baseURL,
        BUDGET_MODEL: 'm',
        CHAT_HISTORY_TOKEN_BUDGET: '60',
      });
      const headers = userHeaders();
      const sessionId = await newSession(headers, 'kasa', fakeApp);
      for (let i = 1; i <= 4; i++) {
        const res = await send(fakeApp, headers, sessionId, {
          role: 'user',
          content: `message ${i} ${'x'.repeat(80)}`,
          type: 'text',
        });
        expect(res.status).toBe(201);
      }
      const last = fake.requests[3]!.body.messages.filter((m) => m.role !== 'system');
      expect(last[last.length - 1]!.content).toMatch(/^message 4/);
      expect(last.length).toBeLessThan(7);
      expect(last[0]!.role).toBe('user');
      expect(last.some((m) => String(m.content).startsWith('message 1'))).toBe(false);
    } finally {
      await fake.stop();
    }
  });
});

describe('the offline provider through the API', () => {
  it.each([
    ['What is Kasa?', /voice-first, multilingual AI assistant platform/],
    ['How much does Enterprise cost?', /Enterprise costs \$199 per month/],
    ['Which personas are there?', /Merla is the finance expert/],
    ['How do I authenticate with an API key?', /Authorization: Bearer/],
    ['Does Kasa support Swahili?', /120\+ languages/],
    ['How do I use the OpenAI library with Kasa?', /OpenAI client library/],
  ])('answers %p from the knowledge base, saying it is offline and what it drew on', async (question, expected) => {
    const headers = userHeaders();
    const sessionId = await newSession(headers, 'massa');
    const res = await send(app, headers, sessionId, { role: 'user', content: question, type: 'text' });
    expect(res.status).toBe(201);
    expect(res.body.content).toMatch(/offline mode/);
    expect(res.body.content).toMatch(expected);
    expect(res.body.content).toMatch(/Sources: /);
    expect(res.body.content).not.toMatch(/CHAT_PROVIDERS|restart/);
  });

  it.each([
    ['dokta', 'I have a headache', /Most headaches come from tension[\s\S]*not a diagnosis or a prescription/],
    ['dokta', 'How can I save money each month?', /^That is outside what I can help with in offline mode; Merla/],
    ['merla', 'How can I save money each month?', /pay yourself first[\s\S]*not regulated financial advice/],
    ['kasa', 'What is the capital of Ghana?', /Ghana's capital and largest city is Accra/],
  ])(
    'answers %s the question a new person asks first, %p, from its own field or says who may know',
    async (persona, question, expected) => {
      const headers = userHeaders();
      const sessionId = await newSession(headers, persona);
      const res = await send(app, headers, sessionId, { role: 'user', content: question, type: 'text' });
      expect(res.status).toBe(201);
      expect(res.body.content).toMatch(expected);
      expect(res.body.content).not.toMatch(/1,000 requests per minute|West Africa Time/);
    },
  );

  it('answers a question about an attached PDF by quoting its page, cited as the document prompt labels it', async () => {
    const headers = userHeaders('pro');
    const pdf = await request(app)
      .post('/api/chat/attachments?name=report.pdf')
      .set(headers)
      .set('content-type', 'application/octet-stream')
      .send(makePdf(['Cocoa exports rose.', 'The budget owner is Ama Mensah.']));
    expect(pdf.status).toBe(201);
    const sessionId = await newSession(headers, 'kasa');
    const res = await send(app, headers, sessionId, {
      role: 'user',
      content: 'Who is the budget owner?',
      type: 'text',
      attachmentIds: [pdf.body.id],
    });
    expect(res.status).toBe(201);
    expect(res.body.provider).toBe('offline');
    expect(res.body.content).toContain('"The budget owner is Ama Mensah." [report.pdf, p. 2]');
    expect(res.body.content).not.toMatch(/Cocoa|do not cover that/);
  });

  it('says plainly when its notes do not cover a question', async () => {
    const headers = userHeaders();
    const sessionId = await newSession(headers, 'kasa');
    const res = await send(app, headers, sessionId, {
      role: 'user',
      content: 'Who painted the Mona Lisa?',
      type: 'text',
    });
    expect(res.status).toBe(201);
    expect(res.body.content).toMatch(/do not cover that, so I would rather not guess/);
    expect(res.body.content).not.toMatch(/Sources:/);
  });
});
