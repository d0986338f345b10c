import type { AuthResponse, CreateApiKeyResponse } from '@kasa/contracts';
import { eventually } from '@kasa/test-kit';
import OpenAI from 'openai';
import { randomUUID } from 'node:crypto';
import { FakeOpenAI, fakeProviderEnv } from '../support/fakeOpenAI';
import { startPlatform, type RunningPlatform } from '../support/platform';

/**
 * The OpenAI-compatible API as integrators use it: OpenAI's official `openai` npm client (pinned in
 * tests/package.json) against the built platform through the gateway, with a fake provider at the edge. Every error
 * class the client knows must arrive with Kasa's explanation in OpenAI's `error` shape, and a spent monthly quota
 * must not be retried.
 */
// A small monthly quota for Free accounts, so that one account can spend it in a few calls.
const FREE_MONTHLY = 12;

let platform: RunningPlatform;
let provider: FakeOpenAI;

beforeAll(async () => {
  provider = await new FakeOpenAI().start();
  platform = await startPlatform({
    ...fakeProviderEnv(provider),
    PLAN_FREE_MONTHLY_CALLS: String(FREE_MONTHLY),
  });
}, 120_000);

afterAll(async () => {
  await platform?.stop();
  await provider?.stop();
});

beforeEach(() => {
  provider.requests.length = 0;
  provider.mode = { kind: 'ok', text: 'Akwaaba! How can I help you today?' };
});

/** A new Free account with an API key (all scopes unless given). */
async function keyFor(scopes?: string[]): Promise<string> {
  const id = randomUUID().slice(0, 8);
  const registered = await fetch(`${platform.baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: `oa_${id}`, email: `oa.${id}@example.com`, password: 'medaase-42' }),
  });
  expect(registered.status).toBe(201);
  const { token } = (await registered.json()) as AuthResponse;
  const created = await fetch(`${platform.baseUrl}/api/developer/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: 'OpenAI client', ...(scopes ? { scopes } : {}) }),
  });
  expect(created.status).toBe(201);
  return ((await created.json()) as CreateApiKeyResponse).secret;
}

/** The official client as an integrator configures it, counting the HTTP requests it makes (retries included). */
function clientFor(apiKey: string, maxRetries = 0): { client: OpenAI; requests: () => number } {
  let requests = 0;
  const client = new OpenAI({
    baseURL: `${platform.baseUrl}/v1`,
    apiKey,
    maxRetries,
    fetch: (input, init) => {
      requests += 1;
      return fetch(input, init);
    },
  });
  return { client, requests: () => requests };
}

/** The error a call failed with, checked to be of the client's class for it. */
async function errorOf<T extends abstract new (...args: never[]) => Error>(call: Promise<unknown>, kind: T) {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(kind);
  return err as InstanceType<T>;
}

describe('the OpenAI client against the built platform', () => {
  let client: OpenAI;
  beforeAll(async () => {
    client = clientFor(await keyFor()).client;
  });

  it('lists the personas as models and retrieves one', async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual(expect.arrayContaining(['kasa', 'merla', 'ticha', 'massa', 'nana', 'dokta']));
    await expect(client.models.retrieve('nana')).resolves.toMatchObject({ id: 'nana', object: 'model' });
  });

  it('creates a completion with the sampling parameters passed to the provider', async () => {
    provider.mode = { kind: 'ok', text: 'one two three four five six' };
    const completion = await client.chat.completions.create({
      model: 'kasa',
      messages: [{ role: 'user', content: 'Count for me' }],
      max_completion_tokens: 4,
      temperature: 0.3,
      top_p: 0.8,
      stop: 'END',
      seed: 11,
      user: 'person-7',
    });
    expect(completion.choices[0]).toMatchObject({
      finish_reason: 'length',
      message: { content: 'one two three four' },
    });
    expect(provider.requests[0]!.body).toMatchObject({
      max_tokens: 4,
      temperature: 0.3,
      top_p: 0.8,
      stop: ['END'],
      seed: 11,
      user: 'person-7',
    });
  });

  it('streams with usage in the last chunk', async () => {
    const stream = await client.chat.completions.create({
      model: 'merla',
      messages: [{ role: 'user', content: 'Hello' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe('Akwaaba! How can I help you today?');
    expect(usage).toMatchObject({ completion_tokens: 7, prompt_tokens: 42, total_tokens: 49 });
  });

  it('stops the provider when the client aborts a stream', async () => {
    provider.mode = { kind: 'endless', intervalMs: 20 };
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: 'kasa', messages: [{ role: 'user', content: 'Talk forever' }], stream: true },
      { signal: controller.signal },
    );
    let chunks = 0;
    // The client ends the iteration quietly when its signal aborts.
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta.content && ++chunks === 3) controller.abort();
    }
    expect(chunks).toBe(3);
    await eventually(() => provider.requests[0]?.closedAt !== undefined, { timeoutMs: 2_000 });
  });

  it('gets every error class with Kasa’s explanation in OpenAI’s shape', async () => {
    const badKey = clientFor('ksk_not_a_real_key_0000000000000000').client;
    const unauthenticated = await errorOf(badKey.models.list(), OpenAI.AuthenticationError);
    expect(unauthenticated).toMatchObject({ status: 401, type: 'authentication_error' });
    expect(unauthenticated.message).toMatch(/^401 \S.+/);

    const voiceOnly = clientFor(await keyFor(['voice'])).client;
    const denied = await errorOf(
      voiceOnly.chat.completions.create({ model: 'kasa', messages: [{ role: 'user', content: 'Hi' }] }),
      OpenAI.PermissionDeniedError,
    );
    expect(denied).toMatchObject({ status: 403, type: 'permission_error' });
    expect(denied.message).toContain('does not have the "chat" scope');

    const missing = await errorOf(client.models.retrieve('gpt-4o'), OpenAI.NotFoundError);
    expect(missing.type).toBe('not_found_error');
    expect(missing.message).toContain("The model 'gpt-4o' does not exist");

    const tooMany = await errorOf(
      client.chat.completions.create({ model: 'kasa', messages: [{ role: 'user', content: 'Hi' }], n: 3 }),
      OpenAI.BadRequestError,
    );
    expect(tooMany).toMatchObject({ param: 'n', type: 'invalid_request_error' });
    const empty = await errorOf(
      client.chat.completions.create({ model: 'kasa', messages: [] }),
      OpenAI.BadRequestError,
    );
    expect(empty.param).toBe('messages');
    expect(provider.requests).toHaveLength(0);
  });

  it('sees a 503 as InternalServerError with the explanation when the chat service is down', async () => {
    await platform.kill('chat');
    try {
      const down = await errorOf(client.models.list(), OpenAI.InternalServerError);
      expect(down).toMatchObject({ status: 503, type: 'api_error' });
      expect(down.message).toMatch(/^503 \S.+/);
    } finally {
      await platform.restart('chat');
    }
  });

  it('does not retry a spent monthly quota, and says so', async () => {
    const key = await keyFor();
    const spender = clientFor(key).client;
    let spent = false;
    for (let i = 0; i <= FREE_MONTHLY && !spent; i++) {
      spent = await spender.models.retrieve('kasa').then(
        () => false,
        (err: unknown) => {
          expect(err).toBeInstanceOf(OpenAI.RateLimitError);
          return true;
        },
      );
    }
    expect(spent).toBe(true);

    const { client: retrying, requests } = clientFor(key, 3);
    const refused = await errorOf(retrying.models.list(), OpenAI.RateLimitError);
    expect(refused).toMatchObject({ code: 'insufficient_quota', type: 'rate_limit_error' });
    expect(refused.headers.get('x-should-retry')).toBe('false');
    expect(refused.headers.get('retry-after')).toBeNull();
    expect(refused.message).toMatch(/Monthly API call quota/);
    // One request, although this client retries up to three times.
    expect(requests()).toBe(1);
  });
});
