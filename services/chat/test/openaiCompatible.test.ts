import OpenAI from 'openai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeOpenAI, TestEnvironment, userHeaders } from './support';

const env = new TestEnvironment('openai');
const fake = new FakeOpenAI();
let server: http.Server;
let client: OpenAI;
let baseURL: string;

beforeAll(async () => {
  await Promise.all([env.start(), fake.start()]);
  const { app } = await env.app({
    CHAT_PROVIDERS: 'upstream',
    UPSTREAM_BASE_URL: fake.baseURL,
    UPSTREAM_MODEL: 'fake-up',
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  // The gateway turns the API key into these headers; here the test plays the gateway.
  client = new OpenAI({ baseURL, apiKey: 'kasa_test_key', defaultHeaders: userHeaders('enterprise'), maxRetries: 0 });
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await fake.stop();
  await env.stop();
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.mode = { kind: 'ok', text: 'Akwaaba! How can I help you today?' };
});

describe('the OpenAI-compatible API with the official openai library', () => {
  it('lists the personas as models', async () => {
    const models = [];
    for await (const model of client.models.list()) models.push(model);
    expect(models.map((m) => m.id)).toEqual(['kasa', 'merla', 'ticha', 'massa', 'nana', 'dokta']);
    expect(models[0]).toMatchObject({ object: 'model', owned_by: 'kasa' });
  });

  it('answers a chat completion with the persona as the model', async () => {
    const completion = await client.chat.completions.create({
      model: 'merla',
      messages: [
        { role: 'system', content: 'Answer in one sentence.' },
        { role: 'user', content: 'Hello' },
      ],
    });
    expect(completion).toMatchObject({
      object: 'chat.completion',
      model: 'merla',
      choices: [
        {
          index: 0,
          finish_reason: 'stop',
          message: { role: 'assistant', content: 'Akwaaba! How can I help you today?' },
        },
      ],
      usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 },
    });
    const upstream = fake.requests[0]!.body.messages;
    expect(upstream[0]).toEqual({
      role: 'system',
      content: expect.stringMatching(/^You are Merla[\s\S]*Answer in one sentence\.$/),
    });
    expect(upstream.slice(1)).toEqual([{ role: 'user', content: 'Hello' }]);
  });

  it('streams a chat completion in OpenAI chunks, with usage when asked', async () => {
    const stream = await client.chat.completions.create({
      model: 'kasa',
      messages: [{ role: 'user', content: 'Hello' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const deltas: string[] = [];
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      if (choice?.delta.content) deltas.push(choice.delta.content);
      if (choice?.finish_reason) finish = choice.finish_reason;
      if (chunk.usage) usage = chunk.usage;
      expect(chunk.object).toBe('chat.completion.chunk');
    }
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe('Akwaaba! How can I help you today?');
    expect(finish).toBe('stop');
    expect(usage).toEqual({ prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 });
  });

  it('falls back to the offline knowledge base when the provider fails', async () => {
    fake.mode = { kind: 'status', status: 500 };
    const completion = await client.chat.completions.create({
      model: 'massa',
      messages: [{ role: 'user', content: 'How much does Pro cost?' }],
    });
    expect(completion.choices[0]!.message.content).toMatch(/offline mode[\s\S]*Pro costs \$29 per month/);
  });

  it('answers an unknown model with the error the library understands', async () => {
    await expect(
      client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] }),
    ).rejects.toMatchObject({ status: 404, message: expect.stringMatching(/The model 'gpt-4o' does not exist/) });
  });

  it('answers bad input with a 400 and no identity with a 401', async () => {
    await expect(client.chat.completions.create({ model: 'kasa', messages: [] })).rejects.toBeInstanceOf(
      OpenAI.BadRequestError,
    );
    const anonymous = new OpenAI({ baseURL, apiKey: 'kasa_test_key', maxRetries: 0 });
    await expect(anonymous.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });
});

describe('OpenAI parameters and conformance details', () => {
  it('retrieves one model, and answers an unknown one with NotFoundError', async () => {
    const model = await client.models.retrieve('dokta');
    expect(model).toMatchObject({ id: 'dokta', object: 'model', owned_by: 'kasa' });
    await expect(client.models.retrieve('gpt-4o')).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('passes the sampling parameters to the provider', async () => {
    await client.chat.completions.create({
      model: 'kasa',
      messages: [{ role: 'user', content: 'Hello' }],
      max_completion_tokens: 50,
      temperature: 0.2,
      top_p: 0.9,
      stop: ['END'],
      seed: 7,
      presence_penalty: 0.5,
      frequency_penalty: -0.5,
      user: 'end-user-42',
    });
    const sent = fake.requests[0]!.body;
    expect(sent).toMatchObject({
      max_tokens: 50,
      temperature: 0.2,
      top_p: 0.9,
      stop: ['END'],
      seed: 7,
      presence_penalty: 0.5,
      frequency_penalty: -0.5,
      user: 'end-user-42',
    });
  });

  it('ends with finish_reason "length" when max_tokens cuts the reply, streamed or not', async () => {
    fake.mode = { kind: 'ok', text: 'one two three four five six seven eight nine ten' };
    const plain = await client.chat.completions.create({
      model: 'kasa',
      messages: [{ role: 'user', content: 'Count' }],
      max_tokens: 3,
    });
    expect(plain.choices[0]).toMatchObject({ finish_reason: 'length', message: { content: 'one two three' } });
    expect(plain.usage?.completion_tokens).toBe(3);

    const stream = await client.chat.completions.create({
      model: 'kasa',
      messages: [{ role: 'user', content: 'Count' }],
      max_tokens: 3,
      stream: true,
    });
    let text = '';
    let finish: string | null = null;
    const fingerprints = new Set<string | undefined>();
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      fingerprints.add(chunk.system_fingerprint);
    }
    expect(text).toBe('one two three');
    expect(finish).toBe('length');
    // One fingerprint, the same as the plain answer's.
    expect([...fingerprints]).toEqual([plain.system_fingerprint]);
  });

  it('cuts the offline knowledge base at max_tokens too', async () => {
    fake.mode = { kind: 'status', status: 500 };
    const completion = await client.chat.completions.create({
      model: 'massa',
      messages: [{ role: 'user', content: 'How much does Pro cost?' }],
      max_tokens: 5,
    });
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe('length');
    expect(choice.message.content!.length).toBeGreaterThan(0);
    expect(choice.message.content!.length).toBeLessThanOrEqual(5 * 4);
  });

  const refusedParameters: Array<[string, Record<string, unknown>, RegExp, string]> = [
    ['n', { n: 2 }, /one choice per request/, 'unsupported_value'],
    // As on OpenAI's API: a tool choice other than "none" needs tools to choose from.
    ['tool_choice', { tool_choice: 'auto' }, /only allowed when tools are specified/, 'validation_failed'],
    [
      'functions',
      { functions: [{ name: 'f', parameters: {} }] },
      /deprecated parameter\): use tools/,
      'unsupported_parameter',
    ],
    [
      'response_format.type',
      { response_format: { type: 'xml' } },
      /must be "text", "json_object" or "json_schema"/,
      'validation_failed',
    ],
    ['logprobs', { logprobs: true }, /logprobs must be false/, 'unsupported_value'],
    ['top_logprobs', { top_logprobs: 2 }, /top_logprobs is not supported/, 'unsupported_parameter'],
    ['logit_bias', { logit_bias: { '50256': -100 } }, /logit_bias is not supported/, 'unsupported_parameter'],
    ['modalities', { modalities: ['text', 'audio'] }, /only the text modality/, 'unsupported_value'],
    ['audio', { audio: { voice: 'alloy', format: 'mp3' } }, /audio output is not supported/, 'unsupported_parameter'],
    [
      'prediction',
      { prediction: { type: 'content', content: 'x' } },
      /prediction is not supported/,
      'unsupported_parameter',
    ],
    ['reasoning_effort', { reasoning_effort: 'high' }, /reasoning_effort is not supported/, 'unsupported_parameter'],
    ['store', { store: true }, /store must be false/, 'unsupported_value'],
    ['service_tier', { service_tier: 'flex' }, /service_tier must be/, 'unsupported_value'],
    ['top_k', { top_k: 40 }, /Unrecognized request argument supplied: top_k/, 'unknown_parameter'],
    [
      'messages.0.content.0.type',
      {
        messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } }] }],
      },
      /"input_audio" are not supported/,
      'unsupported_value',
    ],
  ];
  it.each(refusedParameters)('refuses %s with a 400 that names the parameter', async (param, extra, message, code) => {
    const err = await client.chat.completions
      .create({ model: 'kasa', messages: [{ role: 'user', content: 'Hi' }], ...extra } as never)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err).toMatchObject({
      status: 400,
      param,
      code,
      type: 'invalid_request_error',
      message: expect.stringMatching(message),
    });
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses an unknown parameter streamed too, before any chunk', async () => {
    const res = await fetch(`${baseURL}/chat/completions`, {
      method: 'POST',
      headers: { ...userHeaders('enterprise'), 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'kasa', messages: [{ role: 'user', content: 'Hi' }], stream: true, guidance: 1 }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: { type: 'invalid_request_error', param: 'guidance', code: 'unknown_parameter' },
    });
  });

  it('accepts the harmless parameters official clients send, and passes none of them on', async () => {
    const completion = await client.chat.completions.create({
      model: 'kasa',
      messages: [{ role: 'user', content: 'Hello' }],
      response_format: { type: 'text' },
      logprobs: false,
      parallel_tool_calls: true,
      metadata: { trace: 'abc' },
      store: false,
      service_tier: 'auto',
      modalities: ['text'],
      prompt_cache_key: 'conversation-1',
      tools: [],
      tool_choice: 'none',
    });
    expect(completion.choices[0]!.message.content).toBe('Akwaaba! How can I help you today?');
    const sent = fake.requests[0]!.body as Record<string, unknown>;
    for (const name of [
      'response_format',
      'logprobs',
      'parallel_tool_calls',
      'metadata',
      'store',
      'tools',
      'tool_choice',
    ])
      expect(sent).not.toHaveProperty(name);
  });

  it('passes safety_identifier as the end user when user is not set', async () => {
    await client.chat.completions.create({
      model: 'kasa',
      messages: [{ role: 'user', content: 'Hello' }],
      safety_identifier: 'hashed-user-7',
    });
    expect(fake.requests[0]!.body).toMatchObject({ user: 'hashed-user-7' });
  });

  it('accepts the parameters official clients send as null', async () => {
    const completion = await client.chat.completions.create({
      model: 'kasa',
      messages: [{ role: 'user', content: 'Hello' }],
      temperature: null,
      max_tokens: null,
      stop: null,
      n: 1,
    });
    expect(completion.choices[0]!.finish_reason).toBe('stop');
  });
});

describe('tools and structured output with a provider that supports them', () => {
  const weatherParameters = {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  };
  const weatherTool: OpenAI.ChatCompletionFunctionTool = {
    type: 'function',
    function: { name: 'get_weather', description: 'The weather in a city now', parameters: weatherParameters },
  };

  it('passes tools and tool_choice "auto" to the provider, and answers with the calls it made', async () => {
    fake.mode = { kind: 'tool-calls', calls: [{ name: 'get_weather', arguments: '{"city":"Accra"}' }] };
    const completion = await client.chat.completions.create({
      model: 'kasa',
      messages: [{ role: 'user', content: 'What is the weather in Accra?' }],
      tools: [weatherTool],
      tool_choice: 'auto',
    });
    expect(completion.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_fake_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Accra"}' } },
        ],
      },
    });
    expect(fake.requests[0]!.body).toMatchObject({
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: weatherParameters } }],
      tool_choice: 'auto',
    });
  });

  it('answers json_object with the provider’s JSON, asking the provider for JSON', async () => {
    fake.mode = { kind: 'json', json: { city: 'Accra', celsius: 31 } };
    const completion = await client.chat.completions.create({
      model: 'kasa',
      messages: [{ role: 'user', content: 'The weather in Accra, as JSON' }],
      response_format: { type: 'json_object' },
    });
    expect(JSON.parse(completion.choices[0]!.message.content!)).toEqual({ city: 'Accra', celsius: 31 });
    expect(fake.requests[0]!.body.response_format).toEqual({ type: 'json_object' });
  });

  it('sends a json_schema to an OpenAI-compatible server as it is, and returns the reply once it matches', async () => {
    const schema = {
      type: 'object',
      properties: { city: { type: 'string' }, celsius: { type: 'number' } },
      required: ['city', 'celsius'],
      additionalProperties: false,
    };
    fake.mode = { kind: 'json', json: { city: 'Accra', celsius: 31 } };
    const completion = await client.chat.completions.create({
      model: 'kasa',
      messages: [{ role: 'user', content: 'The weather in Accra' }],
      response_format: { type: 'json_schema', json_schema: { name: 'weather', schema } },
    });
    expect(JSON.parse(completion.choices[0]!.message.content!)).toEqual({ city: 'Accra', celsius: 31 });
    // Not strict unless the caller asks for it, as on OpenAI's API.
    expect(fake.requests[0]!.body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'weather', schema, strict: false },
    });
  });
});
