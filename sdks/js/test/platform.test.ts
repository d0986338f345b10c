import { Kasa, KasaError, type ReplyEvent } from '@kasa/sdk';
import { eventually } from '@kasa/test-kit';
import { randomUUID } from 'node:crypto';
import { usePlatformWithFakeProvider } from '../../../tests/support/fakeProviderPlatform';

const world = usePlatformWithFakeProvider();

function newPerson() {
  const id = randomUUID().slice(0, 8);
  return { username: `ama_${id}`, email: `ama.${id}@example.com`, password: 'adinkra-sika' };
}

/** A client signed in as a new person. */
async function signedIn(): Promise<Kasa> {
  const kasa = new Kasa({ baseUrl: world.platform.baseUrl });
  await kasa.auth.register(newPerson());
  return kasa;
}

describe('auth', () => {
  it('registers, signs in with the new token, reads me, and signs out', async () => {
    const person = newPerson();
    const kasa = new Kasa({ baseUrl: world.platform.baseUrl });

    const registered = await kasa.auth.register(person);
    expect(registered).toMatchObject({ success: true, user: { username: person.username, subscriptionTier: 'free' } });
    expect(kasa.token).toBe(registered.token);

    const other = new Kasa({ baseUrl: world.platform.baseUrl });
    const login = await other.auth.login({ email: person.email, password: person.password });
    expect(other.token).toBe(login.token);
    await expect(other.auth.me()).resolves.toMatchObject({ email: person.email, username: person.username });

    await other.auth.logout();
    expect(other.token).toBeUndefined();
    // The revoked token no longer works anywhere.
    const revoked = new Kasa({ baseUrl: world.platform.baseUrl, token: login.token });
    await expect(revoked.auth.me()).rejects.toMatchObject({ status: 401, code: 'unauthenticated' });
  });

  it('turns a wrong password into a 401 KasaError carrying the API’s message and request id', async () => {
    const person = newPerson();
    await new Kasa({ baseUrl: world.platform.baseUrl }).auth.register(person);
    const error = await new Kasa({ baseUrl: world.platform.baseUrl }).auth
      .login({ email: person.email, password: 'not-the-password' })
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(KasaError);
    expect(error).toMatchObject({ status: 401, code: 'unauthenticated', message: 'Invalid email or password' });
    expect((error as KasaError).requestId).toEqual(expect.any(String));
  });
});

describe('personas, sessions and messages', () => {
  it('lists the six personas', async () => {
    const kasa = await signedIn();
    const personas = await kasa.personas.list();
    expect(personas.map((p) => p.id)).toEqual(
      expect.arrayContaining(['kasa', 'merla', 'ticha', 'massa', 'nana', 'dokta']),
    );
  });

  it('creates, lists, renames and deletes a session, and sends a message', async () => {
    const kasa = await signedIn();
    const session = await kasa.chat.sessions.create({ personaId: 'ticha', title: 'Algebra' });
    expect(session).toMatchObject({ personaId: 'ticha', title: 'Algebra' });

    const reply = await kasa.chat.messages.send(session.id, { content: 'What is 2 + 2?' });
    expect(reply).toMatchObject({
      role: 'assistant',
      content: 'Hello from the fake provider.',
      status: 'complete',
    });

    const page = await kasa.chat.messages.list(session.id);
    expect(page.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'What is 2 + 2?'],
      ['assistant', 'Hello from the fake provider.'],
    ]);
    expect((await kasa.chat.sessions.list()).sessions.map((s) => s.id)).toContain(session.id);
    await expect(kasa.chat.sessions.rename(session.id, 'Maths')).resolves.toMatchObject({ title: 'Maths' });

    const link = await kasa.chat.sessions.share(session.id);
    expect(link).toMatchObject({ sessionId: session.id, messageCount: 2, path: `/share/${link.token}` });
    await expect(kasa.chat.sessions.getShare(session.id)).resolves.toEqual(link);
    const shared = await kasa.chat.sessions.readShared(link.token);
    expect(shared).toMatchObject({ title: 'Maths', persona: { id: 'ticha' }, truncated: false });
    expect(shared.messages.map((m) => m.content)).toEqual(['What is 2 + 2?', 'Hello from the fake provider.']);
    await kasa.chat.sessions.stopSharing(session.id);
    await expect(kasa.chat.sessions.readShared(link.token)).rejects.toMatchObject({ status: 404, code: 'not_found' });

    await kasa.chat.sessions.delete(session.id);
    await expect(kasa.chat.sessions.get(session.id)).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });
});

describe('streamed replies', () => {
  it('hands out meta, the tokens in order, then the stored reply', async () => {
    const text = 'Akwaaba one two three four five six seven eight nine ten';
    world.provider.mode = { kind: 'ok', text, delayMs: 5 };
    const kasa = await signedIn();
    const session = await kasa.chat.sessions.create({ personaId: 'kasa', title: 'Stream' });

    const stream = await kasa.chat.messages.stream(session.id, { content: 'Count to ten' });
    const events: ReplyEvent[] = [];
    for await (const event of stream) events.push(event);

    expect(events[0]).toMatchObject({ type: 'meta', provider: 'fake', continued: false });
    expect(events.at(-1)).toMatchObject({ type: 'done', message: { content: text, status: 'complete' } });
    const tokens = events.filter((e) => e.type === 'token').map((e) => (e as { text: string }).text);
    expect(tokens.length).toBeGreaterThan(5);
    expect(tokens.join('')).toBe(text);
  });

  it('stops the reply on the server when the call’s signal aborts', async () => {
    world.provider.mode = { kind: 'endless', intervalMs: 20 };
    const kasa = await signedIn();
    const session = await kasa.chat.sessions.create({ personaId: 'kasa', title: 'Stop' });
    const controller = new AbortController();

    const stream = await kasa.chat.messages.stream(
      session.id,
      { content: 'Go on forever' },
      { signal: controller.signal },
    );
    const tokens: string[] = [];
    const reading = (async () => {
      for await (const event of stream) {
        if (event.type === 'token') tokens.push(event.text);
        if (tokens.length === 3) controller.abort();
      }
    })();

    await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
    expect(tokens).toEqual(['w1 ', 'w2 ', 'w3 ']);
    const call = world.provider.requests.at(-1)!;
    await eventually(async () => call.closedAt, { timeoutMs: 1_000, what: 'the provider call to be cancelled' });
    const stopped = await eventually(
      async () => {
        const page = await kasa.chat.messages.list(session.id);
        return page.messages.find((m) => m.role === 'assistant' && m.status === 'stopped');
      },
      { what: 'the reply to be stored as stopped' },
    );
    expect(stopped.content.startsWith('w1 w2 w3')).toBe(true);
  });

  it('stops the reply when the reader leaves the loop early', async () => {
    world.provider.mode = { kind: 'endless', intervalMs: 20 };
    const kasa = await signedIn();
    const session = await kasa.chat.sessions.create({ personaId: 'kasa', title: 'Break' });
    const stream = await kasa.chat.messages.stream(session.id, { content: 'Go on' });
    for await (const event of stream) if (event.type === 'token') break;
    const call = world.provider.requests.at(-1)!;
    await eventually(async () => call.closedAt, { timeoutMs: 1_000, what: 'the provider call to be cancelled' });
  });

  it('rejects before streaming when the session is someone else’s', async () => {
    const owner = await signedIn();
    const session = await owner.chat.sessions.create({ personaId: 'kasa', title: 'Mine' });
    const stranger = await signedIn();
    await expect(stranger.chat.messages.stream(session.id, { content: 'Hi' })).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
    });
  });

  it('streams OpenAI-compatible completion chunks, and completes without streaming', async () => {
    world.provider.mode = { kind: 'ok', text: 'Me din de Ama', delayMs: 2 };
    const kasa = await signedIn();
    const messages = [{ role: 'user' as const, content: 'Hi' }];

    const stream = await kasa.completions.stream({ model: 'kasa', messages, stream_options: { include_usage: true } });
    let text = '';
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      usage ??= chunk.usage;
    }
    expect(text).toBe('Me din de Ama');
    expect(usage).toMatchObject({ completion_tokens: expect.any(Number) });

    const completion = await kasa.completions.create({ model: 'merla', messages });
    expect(completion.choices[0]?.message.content).toBe('Me din de Ama');
    expect((await kasa.completions.models()).data.map((m) => m.id)).toContain('dokta');
  });
});

/** A fetch that keeps every answer it hands over, to read headers the SDK does not surface. */
function recordingFetch(): {
  fetch: typeof fetch;
  answers: Array<{ method: string; url: string; response: Response }>;
} {
  const answers: Array<{ method: string; url: string; response: Response }> = [];
  return {
    answers,
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      answers.push({ method: init?.method ?? 'GET', url: String(input), response });
      return response;
    },
  };
}

describe('idempotency keys', () => {
  it('replays a creating call sent twice with the same key: one session, the second marked Idempotent-Replayed', async () => {
    const recorded = recordingFetch();
    const kasa = new Kasa({ baseUrl: world.platform.baseUrl, fetch: recorded.fetch });
    await kasa.auth.register(newPerson());
    const idempotencyKey = `trip-${randomUUID()}`;

    const first = await kasa.chat.sessions.create({ personaId: 'nana', title: 'Kumasi' }, { idempotencyKey });
    const second = await kasa.chat.sessions.create({ personaId: 'nana', title: 'Kumasi' }, { idempotencyKey });

    expect(second.id).toBe(first.id);
    const [firstAnswer, secondAnswer] = recorded.answers.slice(-2).map((answer) => answer.response);
    expect(firstAnswer!.headers.get('idempotent-replayed')).toBeNull();
    expect(secondAnswer!.headers.get('idempotent-replayed')).toBe('true');
    expect((await kasa.chat.sessions.list()).sessions.map((session) => session.id)).toEqual([first.id]);
    // The same key with another body is a mistake the API names.
    await expect(
      kasa.chat.sessions.create({ personaId: 'nana', title: 'Accra' }, { idempotencyKey }),
    ).rejects.toMatchObject({ status: 422, code: 'idempotency_key_reused' });
  });

  it('retries a create whose answer was lost with its automatic key, and the session is made once', async () => {
    const recorded = recordingFetch();
    let lost = false;
    // The first answer to the create arrives at the server's end but never reaches the caller.
    const losingFetch: typeof fetch = async (input, init) => {
      const response = await recorded.fetch(input, init);
      if (!lost && init?.method === 'POST' && String(input).endsWith('/api/chat/sessions')) {
        lost = true;
        await response.body?.cancel();
        throw new TypeError('fetch failed: the connection was reset');
      }
      return response;
    };
    const kasa = new Kasa({ baseUrl: world.platform.baseUrl, fetch: losingFetch });
    await kasa.auth.register(newPerson());

    const session = await kasa.chat.sessions.create({ personaId: 'kasa', title: 'Once' });

    const creates = recorded.answers.filter((answer) => answer.method === 'POST' && answer.url.endsWith('/sessions'));
    expect(creates.map((answer) => answer.response.headers.get('idempotent-replayed'))).toEqual([null, 'true']);
    expect((await kasa.chat.sessions.list()).sessions.map((s) => s.id)).toEqual([session.id]);
  });
});

describe('API keys', () => {
  it('creates a key that then works as the client’s apiKey, lists and revokes it', async () => {
    const owner = await signedIn();
    const created = await owner.apiKeys.create({ name: 'SDK test', scopes: ['chat'] });
    expect(created.secret).toMatch(/^ksk_/);

    const keyed = new Kasa({ baseUrl: world.platform.baseUrl, apiKey: created.secret });
    expect((await keyed.personas.list()).length).toBeGreaterThanOrEqual(6);
    const session = await keyed.chat.sessions.create({ personaId: 'massa', title: 'Via key' });
    const reply = await (await keyed.chat.messages.stream(session.id, { content: 'Hello' })).finalMessage();
    expect(reply.content).toBe('Hello from the fake provider.');
    // The key acts for its owner: the owner sees the session.
    expect((await owner.chat.sessions.list()).sessions.map((s) => s.id)).toContain(session.id);

    // Keys are refused for account routes, and a chat-only key for speech.
    await expect(keyed.auth.me()).rejects.toMatchObject({ status: 401 });
    await expect(keyed.voice.synthesize({ text: 'Hi' })).rejects.toMatchObject({ status: 403, code: 'forbidden' });

    const listed = await owner.apiKeys.list();
    expect(listed.find((k) => k.id === created.key.id)).toMatchObject({ name: 'SDK test', revokedAt: null });
    await owner.apiKeys.revoke(created.key.id);
    expect((await owner.apiKeys.list()).find((k) => k.id === created.key.id)?.revokedAt).toEqual(expect.any(String));
  });
});

describe('error mapping', () => {
  it('maps a missing credential to 401 unauthenticated', async () => {
    const anonymous = new Kasa({ baseUrl: world.platform.baseUrl });
    const error = await anonymous.chat.sessions.list().catch((err: unknown) => err);
    expect(error).toMatchObject({ name: 'KasaAuthenticationError', status: 401, code: 'unauthenticated' });
    expect((error as KasaError).requestId).toEqual(expect.any(String));
  });

  it('maps an unknown session to 404 not_found', async () => {
    const kasa = await signedIn();
    await expect(kasa.chat.sessions.get('0123456789abcdef01234567')).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
    });
  });

  it('maps invalid input to 400 with the details naming each field', async () => {
    const error = await new Kasa({ baseUrl: world.platform.baseUrl }).auth
      .register({ username: 'x', email: 'not-an-email', password: '123' })
      .catch((err: unknown) => err);
    expect(error).toMatchObject({ status: 400, code: 'validation_failed' });
    const fields = ((error as KasaError).details as Array<{ path: string }>).map((issue) => issue.path);
    expect(fields).toEqual(expect.arrayContaining(['username', 'email', 'password']));
  });

  it('maps a Free plan’s speech request to 403 naming the plan', async () => {
    const kasa = await signedIn();
    await expect(kasa.voice.synthesize({ text: 'Akwaaba' })).rejects.toMatchObject({
      status: 403,
      message: expect.stringMatching(/Pro/),
    });
  });
});

describe('languages, voices and geo', () => {
  it('lists and detects languages, lists voices and looks up an address', async () => {
    const kasa = new Kasa({ baseUrl: world.platform.baseUrl });
    const catalogue = await kasa.languages.list({ capability: 'detect' });
    expect(catalogue.count).toBeGreaterThan(30);
    expect(catalogue.languages.every((l) => l.capabilities.detect)).toBe(true);
    await expect(kasa.languages.get('twi')).resolves.toMatchObject({ code: 'tw' });
    await expect(kasa.languages.detect({ text: 'Bonjour, comment allez-vous aujourd’hui ?' })).resolves.toMatchObject({
      language: 'fr',
    });
    expect(Array.isArray(await kasa.voice.voices())).toBe(true);
    await expect(kasa.geo.lookup({ ip: '10.0.0.1' })).resolves.toMatchObject({ ip: '10.0.0.1', found: false });
    await expect(kasa.geo.lookup({ ip: 'not-an-ip' })).rejects.toMatchObject({ status: 400 });
  });
});
