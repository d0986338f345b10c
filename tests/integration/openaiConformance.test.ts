import type { AuthResponse, CreateApiKeyResponse } from '@kasa/contracts';
import { eventually } from '@kasa/test-kit';
import OpenAI from 'openai';
import { randomUUID } from 'node:crypto';
import { FakeOpenAI, fakeProviderEnv, imagePartsOf } from '../support/fakeOpenAI';
import { startPlatform, type RunningPlatform } from '../support/platform';

/**
 * The OpenAI-compatible API as integrators use it: OpenAI's official `openai` npm client (pinned in
 * tests/package.json) against the built platform through the gateway, with a fake provider at the edge. Every error
 * class the client knows must arrive with Kasa's explanation in OpenAI's `error` shape, and a spent monthly quota
 * must not be retried.
 */
// A small monthly quota for Free accounts, so that one account can spend it in a few calls; and a per-minute limit
// per key below it, so that one key reaches the per-minute limit first.
const FREE_MONTHLY = 12;
const PER_MINUTE = 8;
/** A function tool, as integrators declare one. */
const weatherTool: OpenAI.ChatCompletionFunctionTool = {
  type: 'function',
  function: { name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};
/** A 1×1 PNG. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

let platform: RunningPlatform;
let provider: FakeOpenAI;

beforeAll(async () => {
  provider = await new FakeOpenAI().start();
  platform = await startPlatform({
    ...fakeProviderEnv(provider),
    PLAN_FREE_MONTHLY_CALLS: String(FREE_MONTHLY),
    API_RATE_LIMIT_PER_MINUTE: String(PER_MINUTE),
    // The fake provider sees images, as a vision model does.
    FAKE_VISION: 'true',
    // A duplicate of a request still running is told to come back after 2 s here (30 s by default).
    IDEMPOTENCY_WAIT_MS: '2000',
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
  return (await accountWithKeys(1, scopes))[0]!;
}

/** A new Free account with `count` API keys (all scopes unless given). */
async function accountWithKeys(count: number, scopes?: string[]): Promise<string[]> {
  const id = randomUUID().slice(0, 8);
  const registered = await fetch(`${platform.baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: `oa_${id}`, email: `oa.${id}@example.com`, password: 'medaase-42' }),
  });
  expect(registered.status).toBe(201);
  const { token } = (await registered.json()) as AuthResponse;
  const secrets: string[] = [];
  for (let i = 0; i < count; i++) {
    const created = await fetch(`${platform.baseUrl}/api/developer/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: `OpenAI client ${i + 1}`, ...(scopes ? { scopes } : {}) }),
    });
    expect(created.status).toBe(201);
    secrets.push(((await created.json()) as CreateApiKeyResponse).secret);
  }
  return secrets;
}

/** Waits, if needed, until the current calendar minute has `seconds` left (the per-minute windows are calendar minutes). */
async function awaitMinuteWithRoom(seconds: number): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
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
  // A key of its own for each test: the per-minute limit is per key.
  beforeEach(async () => {
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
      presence_penalty: 0.4,
      frequency_penalty: -0.6,
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
      presence_penalty: 0.4,
      frequency_penalty: -0.6,
      user: 'person-7',
    });
  });

  it('sends an image as a data URL content part to the vision provider', async () => {
    const completion = await client.chat.completions.create({
      model: 'kasa',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this picture?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
          ],
        },
      ],
    });
    expect(completion.choices[0]!.message.content).toBe('Akwaaba! How can I help you today?');
    const images = imagePartsOf(provider.requests[0]!);
    expect(images).toHaveLength(1);
    expect(images[0]!.url).toMatch(/^data:image\/png;base64,/);
    expect(Buffer.from(images[0]!.url.split(',')[1]!, 'base64')).toEqual(Buffer.from(PNG_BASE64, 'base64'));
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

    // Tools are accepted (see below), checked as OpenAI checks them: two tools of one name are the caller's mistake.
    const twice = await errorOf(
      client.chat.completions.create({
        model: 'kasa',
        messages: [{ role: 'user', content: 'What is the weather?' }],
        tools: [weatherTool, weatherTool],
      }),
      OpenAI.BadRequestError,
    );
    expect(twice).toMatchObject({ param: 'tools.1.function.name', type: 'invalid_request_error' });
    expect(twice.message).toMatch(/the tool 'weather' is listed twice/);
    expect(provider.requests).toHaveLength(0);
  });

  it('passes tools and JSON mode to the provider, and answers with its tool calls and its checked JSON', async () => {
    provider.mode = { kind: 'tool-calls', calls: [{ name: 'weather', arguments: '{"city":"Accra"}' }] };
    const called = await client.chat.completions.create({
      model: 'kasa',
      messages: [{ role: 'user', content: 'What is the weather in Accra?' }],
      tools: [weatherTool],
    });
    expect(called.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: {
        content: null,
        tool_calls: [{ type: 'function', function: { name: 'weather', arguments: '{"city":"Accra"}' } }],
      },
    });
    expect(provider.requests[0]!.body).toMatchObject({ tools: [{ type: 'function', function: { name: 'weather' } }] });

    provider.mode = { kind: 'json', json: { city: 'Accra', celsius: 31 } };
    const json = await client.chat.completions.create({
      model: 'kasa',
      messages: [{ role: 'user', content: 'The weather in Accra, as JSON' }],
      response_format: { type: 'json_object' },
    });
    expect(JSON.parse(json.choices[0]!.message.content!)).toEqual({ city: 'Accra', celsius: 31 });
    expect(provider.requests[1]!.body.response_format).toEqual({ type: 'json_object' });
  });

  it('refuses an unsupported or unknown parameter with BadRequestError naming it', async () => {
    // The deprecated form of function calling stays refused, pointing to the one that works.
    const functions = await errorOf(
      client.chat.completions.create({
        model: 'kasa',
        messages: [{ role: 'user', content: 'Hi' }],
        functions: [{ name: 'weather', parameters: { type: 'object', properties: {} } }],
      }),
      OpenAI.BadRequestError,
    );
    expect(functions).toMatchObject({
      param: 'functions',
      type: 'invalid_request_error',
      code: 'unsupported_parameter',
    });
    expect(functions.message).toMatch(/use tools/);
    const unknown = await errorOf(
      client.chat.completions.create({
        model: 'kasa',
        messages: [{ role: 'user', content: 'Hi' }],
        top_k: 40,
      } as OpenAI.ChatCompletionCreateParamsNonStreaming),
      OpenAI.BadRequestError,
    );
    expect(unknown).toMatchObject({ param: 'top_k', type: 'invalid_request_error', code: 'unknown_parameter' });
    expect(unknown.message).toContain('Unrecognized request argument supplied: top_k');
    expect(provider.requests).toHaveLength(0);
  });

  it('answers the same Idempotency-Key with another body with UnprocessableEntityError', async () => {
    const idempotencyKey = `conformance-${randomUUID()}`;
    const headers = { 'Idempotency-Key': idempotencyKey };
    const first = await client.chat.completions.create(
      { model: 'kasa', messages: [{ role: 'user', content: 'Hello' }] },
      { headers },
    );
    const replayed = await client.chat.completions
      .create({ model: 'kasa', messages: [{ role: 'user', content: 'Hello' }] }, { headers })
      .withResponse();
    expect(replayed.data.id).toBe(first.id);
    expect(replayed.response.headers.get('idempotent-replayed')).toBe('true');

    const reused = await errorOf(
      client.chat.completions.create({ model: 'kasa', messages: [{ role: 'user', content: 'Goodbye' }] }, { headers }),
      OpenAI.UnprocessableEntityError,
    );
    expect(reused).toMatchObject({ status: 422, type: 'invalid_request_error', code: 'idempotency_key_reused' });
    expect(reused.message).toMatch(/^422 \S.+/);
    expect(provider.requests).toHaveLength(1);
  });

  it('answers a duplicate of a request still running with a retryable ConflictError', async () => {
    provider.mode = { kind: 'endless', intervalMs: 50 };
    const headers = { 'Idempotency-Key': `conformance-${randomUUID()}` };
    const body = {
      model: 'kasa',
      messages: [{ role: 'user' as const, content: 'Talk forever' }],
      stream: true as const,
    };
    const controller = new AbortController();
    await client.chat.completions.create(body, { headers, signal: controller.signal });
    try {
      // The duplicate waits for the first answer (IDEMPOTENCY_WAIT_MS), then is told to come back.
      const conflict = await errorOf(client.chat.completions.create(body, { headers }), OpenAI.ConflictError);
      expect(conflict).toMatchObject({ status: 409, type: 'invalid_request_error', code: 'idempotency_in_progress' });
      expect(conflict.headers.get('retry-after')).toBe('1');
      expect(conflict.headers.get('x-should-retry')).not.toBe('false');
    } finally {
      controller.abort();
    }
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

  it('retries the per-minute limit: RateLimitError with Retry-After', async () => {
    await awaitMinuteWithRoom(15);
    const { client: limited, requests } = clientFor(await keyFor());
    for (let i = 0; i < PER_MINUTE; i++) await limited.models.retrieve('kasa');
    const refused = await errorOf(limited.models.retrieve('kasa'), OpenAI.RateLimitError);
    expect(refused).toMatchObject({ status: 429, code: 'rate_limit_exceeded', type: 'rate_limit_error' });
    expect(refused.message).toMatch(/Rate limit of 8 requests per minute reached for this API key/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('x-should-retry')).not.toBe('false');
    expect(requests()).toBe(PER_MINUTE + 1);
  });

  it('does not retry a spent monthly quota, and says so', async () => {
    // Two keys of one account: the month counts them together, each stays below the per-minute limit.
    const keys = await accountWithKeys(2);
    const spenders = keys.map((key) => clientFor(key).client);
    const key = keys[0]!;
    let spent = false;
    for (let i = 0; i <= FREE_MONTHLY && !spent; i++) {
      spent = await spenders[i % 2]!.models.retrieve('kasa').then(
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
