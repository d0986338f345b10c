import { eventually } from '@kasa/test-kit';
import { randomUUID } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { FakeOpenAI, fakeProviderEnv } from '../support/fakeOpenAI';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { Api, LEAKS, callFrom, listener, signToken, signingKeyPair } from './support';

/**
 * The OWASP API Security Top 10 (2023) against the running platform: the real gateway and services from their built
 * output, a fake AI provider over HTTP. Each describe block is one risk.
 */
const AUTH_LIMIT = 30;
const MAX_REPLIES = 3;

let platform: RunningPlatform;
let api: Api;
let provider: FakeOpenAI;
let signingKey: KeyObject;
let kid: string;
/** Two people: `alice` owns the objects, `bob` tries to reach them. */
let alice: Awaited<ReturnType<Api['register']>>;
let bob: Awaited<ReturnType<Api['register']>>;

beforeAll(async () => {
  provider = await new FakeOpenAI().start();
  const key = signingKeyPair();
  signingKey = key.privateKey;
  platform = await startPlatform({
    JWT_PRIVATE_KEY: key.pem,
    ...fakeProviderEnv(provider),
    AUTH_RATE_LIMIT_MAX: String(AUTH_LIMIT),
    CHAT_MAX_CONCURRENT_REPLIES: String(MAX_REPLIES),
  });
  api = new Api(platform.baseUrl);
  kid = (await api.call('GET', '/.well-known/jwks.json')).body.keys[0].kid;
  alice = await api.register('alice');
  bob = await api.register('bob');
}, 120_000);

afterAll(async () => {
  await platform?.stop();
  await provider?.stop();
});

/** A token signed with the auth service's own key, with any claims: what auth would issue, or a forgery of it. */
function mintToken(claims: Record<string, unknown>, options: { key?: KeyObject; alg?: string } = {}): string {
  const now = Math.floor(Date.now() / 1000);
  return signToken(
    { alg: options.alg ?? 'RS256', typ: 'JWT', kid },
    {
      sub: alice.id,
      username: alice.username,
      tier: 'free',
      jti: randomUUID(),
      iss: 'kasa-auth',
      aud: 'kasa',
      iat: now,
      exp: now + 600,
      ...claims,
    },
    options.alg === 'none' ? undefined : (options.key ?? signingKey),
  );
}

/** An Enterprise token for a person (the suite holds auth's signing key, so it issues one as auth would). */
const enterpriseToken = (person: { id: string; username: string }) =>
  mintToken({ sub: person.id, username: person.username, tier: 'enterprise' });

async function sessionOf(token: string) {
  const created = await api.call('POST', '/api/chat/sessions', { token, body: { personaId: 'kasa', title: 'Mine' } });
  expect(created.status).toBe(201);
  return created.body.id as string;
}

async function replyIn(token: string, sessionId: string, content: string) {
  const reply = await api.call('POST', `/api/chat/sessions/${sessionId}/messages`, {
    token,
    body: { role: 'user', content, type: 'text' },
  });
  expect(reply.status).toBe(201);
  return reply.body as { id: string; userMessageId: string; content: string; status: string };
}

describe('API1 broken object level authorization', () => {
  it("answers 404 for every route on another person's chat session and its messages", async () => {
    provider.mode = { kind: 'ok', text: 'Akwaaba, Alice.' };
    const session = await sessionOf(alice.token);
    const reply = await replyIn(alice.token, session, 'Private note about my bank account');
    const base = `/api/chat/sessions/${session}`;
    const attempts: Array<[string, string, unknown?]> = [
      ['GET', base],
      ['PATCH', base, { title: 'Taken over' }],
      ['DELETE', base],
      ['POST', `${base}/messages`, { role: 'user', content: 'hello', type: 'text' }],
      ['GET', `${base}/messages/${reply.id}/stream`],
      ['POST', `${base}/messages/${reply.id}/stop`],
    ];
    for (const [method, path, body] of attempts) {
      const answer = await api.call(method, path, { token: bob.token, body });
      expect([method, path, answer.status, answer.body?.code]).toEqual([method, path, 404, 'not_found']);
    }
    // Identity headers a client sends are never believed: only the verified token's.
    const spoofed = await api.call('GET', base, { token: bob.token, headers: { 'x-kasa-user-id': alice.id } });
    expect(spoofed.status).toBe(404);

    const bobsList = await api.call('GET', '/api/chat/sessions', { token: bob.token });
    expect(bobsList.body.sessions.map((s: { id: string }) => s.id)).not.toContain(session);
    const search = await api.call('GET', '/api/chat/search?q=bank', { token: bob.token });
    expect(search.status).toBe(200);
    expect(search.text).not.toContain('bank account');

    // And the session is untouched for its owner.
    const mine = await api.call('GET', base, { token: alice.token });
    expect(mine.status).toBe(200);
    expect(mine.body.title).toBe('Mine');
    expect(mine.body.messages.map((m: { content: string }) => m.content)).toContain(
      'Private note about my bank account',
    );
  });

  it("answers 404 when revoking another person's API key, which keeps working", async () => {
    const created = await api.call('POST', '/api/developer/keys', { token: alice.token, body: { name: 'alice key' } });
    expect(created.status).toBe(201);
    const revoke = await api.call('DELETE', `/api/developer/keys/${created.body.key.id}`, { token: bob.token });
    expect(revoke.status).toBe(404);
    const bobsKeys = await api.call('GET', '/api/developer/keys', { token: bob.token });
    expect(bobsKeys.body.keys).toEqual([]);
    expect((await api.call('GET', '/api/chat/sessions', { token: created.body.secret })).status).toBe(200);
  });

  it("answers 404 for another person's custom persona and payment", async () => {
    const persona = await api.call('POST', '/api/personas', {
      token: enterpriseToken(alice),
      body: { name: 'Auntie Ama', expertise: 'Recipes', systemPrompt: 'You cook.' },
    });
    expect(persona.status).toBe(201);
    const bobEnterprise = enterpriseToken(bob);
    const path = `/api/personas/${persona.body.id}`;
    expect((await api.call('PATCH', path, { token: bobEnterprise, body: { name: 'Mine now' } })).status).toBe(404);
    expect((await api.call('DELETE', path, { token: bobEnterprise })).status).toBe(404);
    const bobsPersonas = await api.call('GET', '/api/personas', { token: bobEnterprise });
    expect(bobsPersonas.text).not.toContain('Auntie Ama');
    // A session with someone else's persona is refused like a persona that does not exist.
    const borrowed = await api.call('POST', '/api/chat/sessions', {
      token: bobEnterprise,
      body: { personaId: persona.body.id, title: 'borrowed' },
    });
    expect(borrowed.status).toBeGreaterThanOrEqual(400);
    expect(borrowed.status).toBeLessThan(500);

    const payer = await api.register('payer');
    const { reference } = await api.upgrade(payer.token, 'pro');
    expect((await api.call('GET', `/api/billing/checkout/${reference}`, { token: payer.token })).status).toBe(200);
    const peek = await api.call('GET', `/api/billing/checkout/${reference}`, { token: bob.token });
    expect(peek.status).toBe(404);
  });
});

describe('API2 broken authentication', () => {
  const probe = (token: string) => api.call('GET', '/api/chat/sessions', { token });

  it('accepts a token signed with the auth key (the forgeries below differ from it in one thing only)', async () => {
    expect((await probe(mintToken({}))).status).toBe(200);
  });

  it.each([
    ['a tampered payload', () => tamper(mintToken({}))],
    ['an expired token', () => mintToken({ iat: 1_600_000_000, exp: 1_600_000_600 })],
    ['alg: none', () => mintToken({}, { alg: 'none' })],
    ['a wrong issuer', () => mintToken({ iss: 'evil-auth' })],
    ['a wrong audience', () => mintToken({ aud: 'someone-else' })],
    ['another key with the same kid', () => mintToken({}, { key: signingKeyPair().privateKey })],
    ['a token from the future', () => mintToken({ nbf: Math.floor(Date.now() / 1000) + 3600 })],
    ['no subject', () => mintToken({ sub: undefined })],
    ['garbage', () => 'eyJhbGciOiJSUzI1NiJ9.e30.AAAA'],
  ])('refuses %s with 401 JSON', async (_what, token) => {
    for (const path of ['/api/chat/sessions', '/api/auth/me', '/api/developer/keys']) {
      const answer = await api.call('GET', path, { token: token() });
      expect([path, answer.status, typeof answer.body?.message]).toEqual([path, 401, 'string']);
    }
  });

  it('refuses an HS256 token keyed with the public key (algorithm confusion)', async () => {
    const { createHmac } = await import('node:crypto');
    const jwks = await api.call('GET', '/.well-known/jwks.json');
    const secret = JSON.stringify(jwks.body.keys[0]);
    const now = Math.floor(Date.now() / 1000);
    const input = `${Buffer.from(JSON.stringify({ alg: 'HS256', kid })).toString('base64url')}.${Buffer.from(
      JSON.stringify({
        sub: alice.id,
        username: 'x',
        tier: 'enterprise',
        jti: randomUUID(),
        iss: 'kasa-auth',
        aud: 'kasa',
        iat: now,
        exp: now + 60,
      }),
    ).toString('base64url')}`;
    const token = `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
    expect((await probe(token)).status).toBe(401);
  });

  it('refuses a token after sign-out and an API key after it is revoked', async () => {
    const person = await api.register('leaver');
    expect((await api.call('POST', '/api/auth/logout', { token: person.token })).status).toBe(200);
    await eventually(async () => (await probe(person.token)).status === 401, {
      timeoutMs: 2_000,
      what: 'signed-out token refused',
    });

    const created = await api.call('POST', '/api/developer/keys', { token: alice.token, body: { name: 'temp' } });
    expect((await probe(created.body.secret)).status).toBe(200);
    expect(
      (await api.call('DELETE', `/api/developer/keys/${created.body.key.id}`, { token: alice.token })).status,
    ).toBe(204);
    await eventually(async () => (await probe(created.body.secret)).status === 401, {
      timeoutMs: 2_000,
      what: 'revoked key refused',
    });
    expect((await probe('ksk_' + 'a'.repeat(40))).status).toBe(401);
  });

  it('refuses a wrong password with the same answer as an unknown email', async () => {
    const wrong = await api.call('POST', '/api/auth/login', { body: { email: alice.email, password: 'not-it-1' } });
    const unknown = await api.call('POST', '/api/auth/login', {
      body: { email: `nobody.${randomUUID()}@example.com`, password: 'not-it-1' },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.message).toBe(unknown.body.message);
  });
});

function tamper(token: string): string {
  const [header, payload, signature] = token.split('.');
  const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
  claims.tier = 'enterprise';
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
}

describe('API3 broken object property level authorization (mass assignment)', () => {
  it('ignores subscriptionTier, role and id sent at registration', async () => {
    const forcedId = '0123456789abcdef01234567';
    const person = await api.register('mass', {
      subscriptionTier: 'enterprise',
      role: 'admin',
      id: forcedId,
      _id: forcedId,
      isAdmin: true,
      createdAt: '2000-01-01T00:00:00.000Z',
    });
    expect(person.answer.body.user.subscriptionTier).toBe('free');
    expect(person.id).not.toBe(forcedId);
    expect(person.answer.body.user).not.toHaveProperty('role');
    const claims = JSON.parse(Buffer.from(person.token.split('.')[1]!, 'base64url').toString());
    expect(claims.tier).toBe('free');
    const me = await api.call('GET', '/api/auth/me', { token: person.token });
    expect(me.body.user).toMatchObject({ id: person.id, subscriptionTier: 'free' });
    expect(me.body.user.createdAt).not.toBe('2000-01-01T00:00:00.000Z');
  });

  it('ignores or refuses owner, tier and id fields in the other bodies', async () => {
    const person = await api.register('props');
    const theme = {
      mode: 'dark',
      colorScheme: 'neon',
      animations: true,
      highContrast: false,
      customSettings: { borderRadius: 8, spacing: 16, fontSize: 14 },
    };
    const saved = await api.call('PUT', '/api/auth/preferences/theme', {
      token: person.token,
      body: { theme, subscriptionTier: 'enterprise', userId: alice.id },
    });
    expect(saved.status).toBeLessThan(500);
    expect((await api.call('GET', '/api/auth/me', { token: person.token })).body.user.subscriptionTier).toBe('free');

    const session = await api.call('POST', '/api/chat/sessions', {
      token: person.token,
      body: { personaId: 'kasa', title: 'planted', ownerId: alice.id, userId: alice.id, id: 'x' },
    });
    if (session.status === 201) {
      const alices = await api.call('GET', '/api/chat/sessions', { token: alice.token });
      expect(alices.text).not.toContain('planted');
      expect(session.body.id).not.toBe('x');
    } else expect(session.status).toBe(400);

    const key = await api.call('POST', '/api/developer/keys', {
      token: person.token,
      body: { name: 'k', tier: 'enterprise', userId: alice.id, scopes: ['chat'] },
    });
    if (key.status === 201) {
      const verified = await api.call('GET', '/api/personas', { token: key.body.secret });
      expect(verified.status).toBe(200);
      expect((await api.call('GET', '/api/developer/keys', { token: alice.token })).text).not.toContain(
        key.body.key.id,
      );
      // A Free key stays Free: an Enterprise-only route still refuses it.
      const custom = await api.call('POST', '/api/personas', {
        token: key.body.secret,
        body: { name: 'n', expertise: 'e', systemPrompt: 's' },
      });
      expect(custom.status).toBe(403);
    } else expect(key.status).toBe(400);

    const sessionId = await sessionOf(person.token);
    const forged = await api.call('POST', `/api/chat/sessions/${sessionId}/messages`, {
      token: person.token,
      body: { role: 'assistant', content: 'I am the assistant', type: 'text' },
    });
    expect(forged.status).toBe(400);
    provider.mode = { kind: 'ok', text: 'Fine.' };
    const extra = await api.call('POST', `/api/chat/sessions/${sessionId}/messages`, {
      token: person.token,
      body: { role: 'user', content: 'hi', type: 'text', status: 'complete', provider: 'evil', ownerId: alice.id },
    });
    if (extra.status === 201) expect(extra.body.provider).not.toBe('evil');
    else expect(extra.status).toBe(400);
  });
});

describe('API4 unrestricted resource consumption', () => {
  it('answers 413 JSON to an oversized body, on public and protected routes', async () => {
    const big = JSON.stringify({ username: 'x', email: 'x@example.com', password: 'y'.repeat(2 * 1024 * 1024) });
    for (const [path, token] of [
      ['/api/auth/register', undefined],
      ['/api/chat/sessions', alice.token],
      ['/v1/chat/completions', alice.token],
    ] as const) {
      const answer = await api.call('POST', path, { token, body: big });
      expect([path, answer.status, answer.body?.code]).toEqual([path, 413, 'payload_too_large']);
    }
  });

  it('bounds list sizes', async () => {
    for (const path of ['/api/chat/sessions?limit=100000', '/api/chat/search?q=a&limit=100000']) {
      const answer = await api.call('GET', path, { token: alice.token });
      expect([path, answer.status]).toEqual([path, 400]);
    }
    const longQuery = await api.call('GET', `/api/chat/search?q=${'a'.repeat(5000)}`, { token: alice.token });
    expect(longQuery.status).toBe(400);
  });

  it('answers 429 to one reply too many being written at once for one person, and accepts again after', async () => {
    provider.mode = { kind: 'endless', intervalMs: 50 };
    const person = await api.register('streamer');
    const controllers: AbortController[] = [];
    // Held until the end: fetch cancels the body of a response that is garbage-collected, which would end the reply.
    const responses: Response[] = [];
    const open = async () => {
      const controller = new AbortController();
      controllers.push(controller);
      const sessionId = await sessionOf(person.token);
      const res = await fetch(`${platform.baseUrl}/api/chat/sessions/${sessionId}/messages`, {
        method: 'POST',
        signal: controller.signal,
        headers: {
          authorization: `Bearer ${person.token}`,
          'content-type': 'application/json',
          accept: 'text/event-stream',
        },
        body: JSON.stringify({ role: 'user', content: 'Count forever', type: 'text' }),
      });
      responses.push(res);
      return res;
    };
    try {
      for (let i = 0; i < MAX_REPLIES; i++) expect((await open()).status).toBe(200);
      const extra = await open();
      expect(extra.status).toBe(429);
      expect(((await extra.json()) as { code: string }).code).toBe('rate_limited');
    } finally {
      for (const c of controllers) c.abort();
      for (const res of responses) await res.body?.cancel().catch(() => undefined);
    }
    provider.mode = { kind: 'ok', text: 'Back.' };
    await eventually(
      async () =>
        (
          await api.call('POST', `/api/chat/sessions/${await sessionOf(person.token)}/messages`, {
            token: person.token,
            body: { role: 'user', content: 'again', type: 'text' },
          })
        ).status === 201,
      { timeoutMs: 5_000, what: 'a reply accepted once the others stopped' },
    );
  }, 30_000);
});

describe('API5 broken function level authorization', () => {
  it('refuses Pro and Enterprise functions to a Free person with 403 naming the plan', async () => {
    const free = await api.register('free');
    const persona = await api.call('POST', '/api/personas', {
      token: free.token,
      body: { name: 'n', expertise: 'e', systemPrompt: 's' },
    });
    expect(persona.status).toBe(403);
    expect(persona.body.message).toMatch(/Enterprise/);
    const sessionId = await sessionOf(free.token);
    for (const type of ['voice', 'image']) {
      const message = await api.call('POST', `/api/chat/sessions/${sessionId}/messages`, {
        token: free.token,
        body: { role: 'user', content: 'data', type },
      });
      expect([type, message.status]).toEqual([type, 403]);
      expect(message.body.message).toMatch(/Pro/);
    }
  });

  it('enforces API key scopes, and keeps account functions to access tokens', async () => {
    const voiceOnly = await api.call('POST', '/api/developer/keys', {
      token: alice.token,
      body: { name: 'voice only', scopes: ['voice'] },
    });
    const secret = voiceOnly.body.secret as string;
    const chat = await api.call('GET', '/api/chat/sessions', { token: secret });
    expect(chat.status).toBe(403);
    expect(chat.body.message).toMatch(/chat/);
    expect((await api.call('POST', '/v1/chat/completions', { token: secret, body: {} })).status).toBe(403);
    for (const [method, path] of [
      ['GET', '/api/developer/keys'],
      ['POST', '/api/developer/keys'],
      ['GET', '/api/auth/me'],
      ['POST', '/api/billing/checkout'],
    ]) {
      const answer = await api.call(method!, path!, {
        token: secret,
        body: method === 'POST' ? { name: 'x' } : undefined,
      });
      expect([path, answer.status]).toEqual([path, 401]);
    }
  });

  it('never exposes the internal key check through the gateway', async () => {
    for (const path of [
      '/internal/api-keys/verify',
      '/api/internal/api-keys/verify',
      '/api/auth/../../internal/api-keys/verify',
    ]) {
      const answer = await api.call('POST', path, { body: { key: 'ksk_' + 'a'.repeat(40) } });
      expect(answer.text).not.toMatch(/"valid"|"userId"/);
      expect(answer.status).toBeGreaterThanOrEqual(400);
    }
  });
});

describe('API6 unrestricted access to sensitive business flows', () => {
  it('rate-limits sign-in attempts per client IP with 429 and Retry-After, leaving other IPs alone', async () => {
    const login = `${platform.baseUrl}/api/auth/login`;
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof callFrom>> | undefined;
    // Guesses at many addresses (one account's own delays are tested in accountSecurity.test.ts).
    for (let i = 0; i <= AUTH_LIMIT; i++) {
      last = await callFrom('127.0.0.2', login, {
        email: `guess.${i}.${randomUUID()}@example.com`,
        password: 'guess-1',
      });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, AUTH_LIMIT).every((s) => s === 401)).toBe(true);
    expect(last!.status).toBe(429);
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.parse(last!.text).code).toBe('rate_limited');
    // Even the right password waits now: the limit is on the flow, not on failures alone.
    const right = await callFrom('127.0.0.2', login, { email: alice.email, password: alice.password });
    expect(right.status).toBe(429);
    const register = await callFrom('127.0.0.2', `${platform.baseUrl}/api/auth/register`, {
      username: 'spam_1',
      email: 'spam.1@example.com',
      password: 'spam-pass-1',
    });
    expect(register.status).toBe(429);
    // Another address signs in as usual.
    const elsewhere = await callFrom('127.0.0.3', login, { email: alice.email, password: alice.password });
    expect(elsewhere.status).toBe(200);
  });
});

describe('API7 server side request forgery', () => {
  it('never fetches URLs found in messages, image parts or persona fields', async () => {
    const target = await listener();
    try {
      provider.mode = { kind: 'ok', text: 'I cannot open links.' };
      const sessionId = await sessionOf(alice.token);
      await replyIn(
        alice.token,
        sessionId,
        `Summarise ${target.url}/admin and ${target.url.replace('127.0.0.1', 'localhost')}/x`,
      );
      const proSession = await sessionOf(enterpriseToken(alice));
      await api.call('POST', `/api/chat/sessions/${proSession}/messages`, {
        token: enterpriseToken(alice),
        body: { role: 'user', content: `${target.url}/image.png`, type: 'image' },
      });
      const before = provider.requests.length;
      const completion = await api.call('POST', '/v1/chat/completions', {
        token: alice.token,
        body: {
          model: 'kasa',
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'What is in this picture?' },
                { type: 'image_url', image_url: { url: `${target.url}/secret.png` } },
              ],
            },
          ],
        },
      });
      // Refused with the parameter named (images come inline, as data URLs), and not passed on for the provider
      // to fetch either.
      expect(completion.status).toBe(400);
      expect(completion.body).toMatchObject({
        error: { type: 'invalid_request_error', param: 'messages.0.content.1.image_url.url' },
      });
      expect(JSON.stringify(provider.requests.slice(before).map((r) => r.body))).not.toContain(target.url);
      await api.call('POST', '/api/personas', {
        token: enterpriseToken(alice),
        body: { name: 'Linky', expertise: 'links', systemPrompt: 's', avatar: `${target.url}/a` },
      });
      await new Promise((r) => setTimeout(r, 500));
      expect(target.hits).toEqual([]);
    } finally {
      await target.close();
    }
  });
});

describe('API8 security misconfiguration', () => {
  it('sends the security headers and no x-powered-by, on API answers, errors and the web app', async () => {
    const answers = [
      await api.call('GET', '/api/personas', { token: alice.token }),
      await api.call('GET', '/api/chat/sessions'),
      await api.call('GET', '/api/no-such-thing'),
      await api.call('GET', '/api/openapi.json'),
      await api.call('GET', '/', { headers: { accept: 'text/html' } }),
    ];
    for (const answer of answers) {
      expect(answer.headers.get('x-powered-by')).toBeNull();
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('x-frame-options')).toBe('DENY');
      expect(answer.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    }
    const page = answers[4]!;
    expect(page.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(page.headers.get('content-security-policy')).toMatch(/object-src 'none'/);
    expect(answers[0]!.headers.get('content-type')).toMatch(/application\/json/);
  });

  it('allows only the configured origin cross-origin, never a wildcard with credentials', async () => {
    const evil = await api.call('GET', '/api/personas', {
      token: alice.token,
      headers: { origin: 'https://evil.example' },
    });
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${platform.baseUrl}/api/chat/sessions`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const own = `http://localhost:${platform.ports.gateway}`;
    const allowed = await api.call('GET', '/api/personas', { token: alice.token, headers: { origin: own } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe(own);
    for (const answer of [evil, allowed]) {
      const origin = answer.headers.get('access-control-allow-origin');
      if (answer.headers.get('access-control-allow-credentials') === 'true') expect(origin).not.toBe('*');
    }
  });

  it('answers malformed input with JSON errors that leak no stack or internals', async () => {
    const answers = [
      await api.call('POST', '/api/auth/login', { body: '{"email": ' }),
      await api.call('POST', '/api/chat/sessions', { token: alice.token, body: '{"personaId": [' }),
      await api.call('GET', '/api/chat/sessions/not-an-id', { token: alice.token }),
      await api.call('GET', '/api/chat/sessions/%E0%A4%A', { token: alice.token }),
      await api.call('POST', '/api/auth/login', { body: { email: { $gt: '' }, password: { $ne: null } } }),
      await api.call('POST', '/api/chat/sessions', {
        token: alice.token,
        body: 'personaId=kasa',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(typeof answer.body?.message).toBe('string');
      for (const leak of LEAKS) expect(answer.text).not.toMatch(leak);
    }
  });
});

describe('API9 improper inventory management', () => {
  it('serves every operation of the OpenAPI document (none is a missing route)', async () => {
    const doc = (await api.call('GET', '/api/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const missing: string[] = [];
    let operations = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of Object.keys(item)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        if (path.endsWith('/logout')) continue;
        operations += 1;
        const concrete = path.replace(/\{[^}]+\}/g, '0123456789abcdef01234567');
        const answer = await api.call(method.toUpperCase(), concrete, {
          token: alice.token,
          body: ['post', 'put', 'patch'].includes(method) ? {} : undefined,
        });
        // A route that exists answers anything but the "no route" 404 (a missing object is a different 404).
        if (answer.status === 404 && /^No route for/.test(answer.body?.message ?? ''))
          missing.push(`${method} ${path}`);
        if (answer.status === 404 && !answer.body) missing.push(`${method} ${path} (not JSON)`);
      }
    }
    expect(operations).toBeGreaterThan(20);
    expect(missing).toEqual([]);
  }, 60_000);

  it('answers 404 JSON to undocumented /api and /v1 paths, old versions and the services’ internals', async () => {
    for (const path of [
      '/api/admin',
      '/api/v0/chat/sessions',
      '/api/users',
      '/api/debug',
      '/api/chat-old/sessions',
      '/v1/no-such-endpoint',
      '/v1',
      '/api/auth/internal',
      '/api/metrics',
      '/api/healthz',
    ]) {
      const answer = await api.call('GET', path, { token: alice.token });
      expect([path, answer.status, answer.headers.get('content-type')]).toEqual([
        path,
        404,
        expect.stringMatching(/application\/json/),
      ]);
      expect(typeof answer.body.message).toBe('string');
    }
  });
});

describe('API10 unsafe consumption of APIs', () => {
  const hostile: Array<[string, string]> = [
    ['malformed JSON events', 'data: {"choices": [\n\ndata: not json at all\n\ndata: [DONE]\n\n'],
    [
      'a wrong shape',
      'data: {"choices": "nope", "id": 7}\n\ndata: {"choices": [{"delta": {"content": 42}}]}\n\ndata: [DONE]\n\n',
    ],
    ['HTML instead of events', '<html><script>alert(1)</script></html>'],
    [
      'a script in the text',
      `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: '<script>alert(document.cookie)</script><img src=x onerror=alert(1)>' } }] })}\n\ndata: [DONE]\n\n`,
    ],
  ];

  it.each(hostile)('survives a provider answering %s, and stores nothing unsafe', async (_what, body) => {
    provider.mode = { kind: 'raw', body };
    const sessionId = await sessionOf(alice.token);
    const answer = await api.call('POST', `/api/chat/sessions/${sessionId}/messages`, {
      token: alice.token,
      body: { role: 'user', content: 'Say something', type: 'text' },
    });
    // Either an answer (from the text that was usable, or the offline fallback) or a clean 503.
    expect([201, 503]).toContain(answer.status);
    expect(typeof (answer.body?.content ?? answer.body?.message)).toBe('string');
    for (const leak of LEAKS) expect(answer.text).not.toMatch(leak);
    const stored = await api.call('GET', `/api/chat/sessions/${sessionId}`, { token: alice.token });
    expect(stored.status).toBe(200);
    // Stored text goes out only as JSON, which a browser never runs: no HTML type, nosniff.
    expect(stored.headers.get('content-type')).toMatch(/^application\/json/);
    expect(stored.headers.get('x-content-type-options')).toBe('nosniff');
    for (const message of stored.body.messages as Array<{ content: string }>)
      expect(typeof message.content).toBe('string');
    // The chat service is still up.
    expect((await fetch(`http://127.0.0.1:${platform.ports.chat}/readyz`)).status).toBe(200);
  });
});
