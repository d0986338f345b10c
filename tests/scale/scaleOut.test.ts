import { ChatClient, streamingAgent } from '../support/chatClient';
import { FakeOpenAI } from '../support/fakeOpenAI';
import { startScaledPlatform, type ScaledPlatform } from '../support/scaleOut';

/**
 * Kasa scaled out: two gateways and two chat replicas, each pair behind a round-robin balancer, sharing one database,
 * broker and Redis. Each step is pinned to a replica (the balancers' `x-gateway-replica` / `x-chat-replica` headers)
 * so that "written through one, read through the other" is what actually happens.
 */
const PER_MINUTE = 30;
const MAX_REPLIES = 4;

const OPERATOR_EMAIL = `ops.${Math.random().toString(36).slice(2, 10)}@example.com`;

let platform: ScaledPlatform;
let provider: FakeOpenAI;
const dispatcher = streamingAgent();

beforeAll(async () => {
  provider = await new FakeOpenAI().start();
  platform = await startScaledPlatform({
    CHAT_PROVIDERS: 'scalefake',
    SCALEFAKE_BASE_URL: provider.baseURL,
    SCALEFAKE_MODEL: 'fake-model',
    API_RATE_LIMIT_PER_MINUTE: String(PER_MINUTE),
    CHAT_MAX_CONCURRENT_REPLIES: String(MAX_REPLIES),
    KASA_OPERATOR_EMAILS: OPERATOR_EMAIL,
  });
}, 180_000);

afterAll(async () => {
  await platform?.stop();
  await provider?.stop();
  await dispatcher.close();
});

const pin = (gateway: number, chat?: number): Record<string, string> => ({
  'x-gateway-replica': String(gateway),
  ...(chat === undefined ? {} : { 'x-chat-replica': String(chat) }),
});

async function call(
  method: string,
  path: string,
  options: { token?: string; body?: unknown; via: Record<string, string> },
) {
  const res = await fetch(`${platform.baseUrl}${path}`, {
    method,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.via,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: (text ? JSON.parse(text) : undefined) as any,
  };
}

async function person(prefix: string, email?: string) {
  const id = Math.random().toString(36).slice(2, 10);
  const credentials = { email: email ?? `${prefix}.${id}@example.com`, password: 'scale-pass-1' };
  const registered = await call('POST', '/api/auth/register', {
    body: { ...credentials, username: `${prefix}_${id}` },
    via: pin(0),
  });
  expect(registered.status).toBe(201);
  const login = await call('POST', '/api/auth/login', { body: credentials, via: pin(1) });
  expect(login.status).toBe(200);
  return login.body.token as string;
}

async function eventually(probe: () => Promise<boolean>, timeoutMs: number, what: string): Promise<number> {
  const started = Date.now();
  while (!(await probe())) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return Date.now() - started;
}

it('registers through one gateway and signs in through the other', async () => {
  const token = await person('reg');
  for (const gateway of [0, 1]) {
    const me = await call('GET', '/api/auth/me', { token, via: pin(gateway) });
    expect([gateway, me.status, me.headers.get('x-gateway-replica')]).toEqual([gateway, 200, String(gateway)]);
  }
});

it('reads a chat session created on one replica through the other gateway and chat replica', async () => {
  const token = await person('sess');
  const created = await call('POST', '/api/chat/sessions', {
    token,
    body: { personaId: 'nana', title: 'Trip to Kumasi' },
    via: pin(0, 0),
  });
  expect(created.status).toBe(201);
  expect(created.headers.get('x-chat-replica')).toBe('0');
  const read = await call('GET', `/api/chat/sessions/${created.body.id}`, { token, via: pin(1, 1) });
  expect(read.status).toBe(200);
  expect(read.headers.get('x-chat-replica')).toBe('1');
  expect(read.body).toMatchObject({ id: created.body.id, title: 'Trip to Kumasi', personaId: 'nana' });
  const list = await call('GET', '/api/chat/sessions', { token, via: pin(1, 1) });
  expect(list.body.sessions.map((s: { id: string }) => s.id)).toContain(created.body.id);
});

it('streams a reply whichever chat replica and gateway serve it, and the other replica shows it stored', async () => {
  provider.mode = { kind: 'ok', text: 'Akwaaba from the fake provider.' };
  const token = await person('stream');
  for (const [gateway, chat] of [
    [0, 0],
    [1, 1],
    [0, 1],
    [1, 0],
  ] as const) {
    const sessionId = (
      await call('POST', '/api/chat/sessions', { token, body: { personaId: 'kasa', title: 't' }, via: pin(gateway) })
    ).body.id;
    // The gateway forwards the pin to the chat balancer.
    const streamed = await streamPinned(gateway, token, sessionId, chat);
    expect([gateway, chat, streamed.done, streamed.text]).toEqual([
      gateway,
      chat,
      true,
      'Akwaaba from the fake provider.',
    ]);
    const stored = await call('GET', `/api/chat/sessions/${sessionId}`, { token, via: pin(1 - gateway, 1 - chat) });
    expect(stored.body.messages.map((m: { content: string }) => m.content)).toEqual([
      'Tell me about Kasa.',
      'Akwaaba from the fake provider.',
    ]);
  }
});

/** One streamed turn through `gateway` whose chat request is pinned to a chat replica. */
function streamPinned(
  gateway: number,
  token: string,
  sessionId: string,
  chat: number,
  options: Parameters<ChatClient['streamTurn']>[2] = {},
) {
  const client = new ChatClient(platform.gateways[gateway]!.url, dispatcher, { 'x-chat-replica': String(chat) });
  return client.streamTurn(token, sessionId, options);
}

it('stops a reply when the stop request lands on the other chat replica', async () => {
  provider.mode = { kind: 'endless', intervalMs: 20 };
  const token = await person('stop');
  for (const resumable of [false, true]) {
    const sessionId = (
      await call('POST', '/api/chat/sessions', { token, body: { personaId: 'kasa', title: 's' }, via: pin(0) })
    ).body.id;
    const before = provider.requests.length;
    let stopAnswer: Promise<{ status: number }> | undefined;
    let stoppedAt = 0;
    const turn = await streamPinned(0, token, sessionId, 0, {
      resumable,
      onFirstToken: ({ messageId }) => {
        stoppedAt = Date.now();
        stopAnswer = call('POST', `/api/chat/sessions/${sessionId}/messages/${messageId}/stop`, {
          token,
          via: pin(1, 1),
        });
      },
    });
    expect((await stopAnswer!).status).toBe(202);
    // The stream ended by itself (the writer on replica 0 stopped), with the reply stored as stopped.
    expect(turn.done).toBe(true);
    const cancelMs = await eventually(
      async () => provider.requests[before]?.closedAt !== undefined,
      5_000,
      'provider call cancelled',
    );
    const closedAfter = provider.requests[before]!.closedAt! - stoppedAt;
    console.log(
      `scale-out: stop on the other replica (resumable ${resumable}) cancelled the provider call after ${closedAfter} ms`,
    );
    expect(closedAfter).toBeLessThan(2_000);
    void cancelMs;
    const stored = await call('GET', `/api/chat/sessions/${sessionId}`, { token, via: pin(1, 1) });
    expect(stored.body.messages.at(-1).status).toBe('stopped');
  }
});

it('resumes a reply after a reload through the other chat replica (shared through Redis)', async () => {
  const words = Array.from({ length: 40 }, (_, i) => `word${i + 1}`).join(' ');
  provider.mode = { kind: 'ok', text: words, delayMs: 40 };
  const token = await person('resume');
  const sessionId = (
    await call('POST', '/api/chat/sessions', { token, body: { personaId: 'kasa', title: 'r' }, via: pin(0) })
  ).body.id;
  // The page is closed after the first token: the resumable reply goes on being written on replica 0.
  const page = new AbortController();
  let messageId: string | undefined;
  await streamPinned(0, token, sessionId, 0, {
    resumable: true,
    signal: page.signal,
    onFirstToken: (meta) => {
      messageId = meta.messageId;
      page.abort();
    },
  });
  expect(messageId).toEqual(expect.any(String));
  // Reloaded, through the other gateway and chat replica: the session shows the reply so far, still being written
  // (the database has no copy of the growing text: replica 1 reads it from Redis)...
  let shown: { id: string; status: string; content: string } | undefined;
  await eventually(
    async () => {
      const reloaded = await call('GET', `/api/chat/sessions/${sessionId}`, { token, via: pin(1, 1) });
      shown = reloaded.body.messages.at(-1);
      return shown?.content.startsWith('word1 word2') === true;
    },
    1_000,
    'the text so far shown by the other replica',
  );
  expect(shown).toMatchObject({ id: messageId, status: 'streaming' });
  // ...and following it gives the whole reply, then the stored message.
  const res = await fetch(`${platform.baseUrl}/api/chat/sessions/${sessionId}/messages/${messageId}/stream`, {
    headers: { ...pin(1, 1), authorization: `Bearer ${token}` },
  });
  expect([res.status, res.headers.get('x-chat-replica')]).toEqual([200, '1']);
  const events = (await res.text())
    .split('\n\n')
    .filter((block) => block.startsWith('event: '))
    .map((block) => ({
      event: block.slice(7, block.indexOf('\n')),
      data: JSON.parse(block.slice(block.indexOf('data: ') + 6)) as {
        text?: string;
        content?: string;
        status?: string;
      },
    }));
  expect(
    events
      .filter((e) => e.event === 'token')
      .map((e) => e.data.text)
      .join(''),
  ).toBe(words);
  expect(events.at(-1)).toMatchObject({ event: 'done', data: { content: words, status: 'complete' } });
});

it('holds the concurrent-replies limit of one person across both chat replicas', async () => {
  provider.mode = { kind: 'endless', intervalMs: 50 };
  const token = await person('busy');
  const controllers: AbortController[] = [];
  // Held until the end: fetch cancels the body of a response that is garbage-collected, which would end the reply.
  const responses: Response[] = [];
  const open = async (chat: number) => {
    const sessionId = (
      await call('POST', '/api/chat/sessions', { token, body: { personaId: 'kasa', title: 'b' }, via: pin(chat) })
    ).body.id;
    const controller = new AbortController();
    controllers.push(controller);
    const res = await fetch(`${platform.baseUrl}/api/chat/sessions/${sessionId}/messages`, {
      method: 'POST',
      signal: controller.signal,
      headers: {
        ...pin(chat, chat),
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: JSON.stringify({ role: 'user', content: 'Count forever', type: 'text' }),
    });
    responses.push(res);
    return res.status;
  };
  try {
    for (let i = 0; i < MAX_REPLIES; i++) expect(await open(i % 2)).toBe(200);
    // Each replica writes only half of them: only a shared count refuses the next one.
    expect([await open(0), await open(1)]).toEqual([429, 429]);
  } finally {
    for (const controller of controllers) controller.abort();
    for (const res of responses) await res.body?.cancel().catch(() => undefined);
  }
});

it('shares the per-minute limit between the gateways (Redis)', async () => {
  const token = await person('limit');
  // Keep the calls inside one calendar minute (the window the limit counts in).
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 50_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 200));
  const statuses: number[] = [];
  for (let i = 0; i < PER_MINUTE; i++)
    statuses.push((await call('GET', '/api/personas', { token, via: pin(i % 2) })).status);
  expect(statuses.every((s) => s === 200)).toBe(true);
  // Each gateway saw only half the calls: only a shared count refuses the next one, on either gateway.
  for (const gateway of [0, 1]) {
    const over = await call('GET', '/api/personas', { token, via: pin(gateway) });
    expect([gateway, over.status]).toEqual([gateway, 429]);
  }
}, 90_000);

it('refuses an API key on the other gateway within 2 s of its revocation through one', async () => {
  const token = await person('keys');
  const created = await call('POST', '/api/developer/keys', { token, body: { name: 'scaled' }, via: pin(0) });
  expect(created.status).toBe(201);
  const secret = created.body.secret as string;
  // Both gateways have checked (and cached) the key.
  for (const gateway of [0, 1])
    expect((await call('GET', '/api/chat/sessions', { token: secret, via: pin(gateway) })).status).toBe(200);
  const revoked = await call('DELETE', `/api/developer/keys/${created.body.key.id}`, { token, via: pin(0) });
  expect(revoked.status).toBe(204);
  const ms = await eventually(
    async () => (await call('GET', '/api/chat/sessions', { token: secret, via: pin(1) })).status === 401,
    2_000,
    'revoked key refused by the other gateway',
  );
  console.log(`scale-out: the other gateway refused the revoked key after ${ms} ms`);
});

it('puts an AI provider an operator connects through one chat replica in the other replica’s chain within seconds', async () => {
  provider.mode = { kind: 'ok', text: 'Akwaaba from the fake provider.' };
  const added = await new FakeOpenAI().start();
  added.mode = { kind: 'ok', text: 'The provider connected in the browser answers.' };
  try {
    const operator = await person('ops', OPERATOR_EMAIL);
    const token = await person('asker');
    const reply = async (chat: number) => {
      const sessionId = (
        await call('POST', '/api/chat/sessions', { token, body: { personaId: 'kasa', title: 't' }, via: pin(0, chat) })
      ).body.id;
      return (await streamPinned(0, token, sessionId, chat)).text;
    };
    expect(await reply(1)).toBe('Akwaaba from the fake provider.');
    const created = await call('POST', '/api/admin/providers', {
      token: operator,
      body: { name: 'connected', kind: 'openai-compatible', baseURL: added.baseURL, model: 'fake-added' },
      via: pin(0, 0),
    });
    expect(created.status).toBe(201);
    const order = await call('PUT', '/api/admin/provider-order', {
      token: operator,
      body: { names: ['connected', 'scalefake'] },
      via: pin(0, 0),
    });
    expect(order.status).toBe(200);
    // Replica 1 was not asked: it hears `chat.providers.changed` on its broadcast queue and reloads.
    const ms = await eventually(
      async () => (await reply(1)) === 'The provider connected in the browser answers.',
      10_000,
      'the other chat replica answers from the provider connected through the first',
    );
    console.log(`scale-out: the other chat replica used the new provider after ${ms} ms`);
    expect((await call('DELETE', '/api/admin/providers/connected', { token: operator, via: pin(1, 1) })).status).toBe(
      204,
    );
    await eventually(
      async () => (await reply(0)) === 'Akwaaba from the fake provider.',
      10_000,
      'the first replica falls back once the provider is removed through the other',
    );
  } finally {
    await added.stop();
  }
});

it('spread the calls over both gateways and both chat replicas', () => {
  expect(platform.front.served.every((n) => n > 0)).toBe(true);
  expect(platform.chatBalancer.served.every((n) => n > 0)).toBe(true);
});
