import { z } from '@kasa/contracts';
import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { FakeOpenAI, fakeProviderEnv, toolResultsOf, type FakeMode } from '../support/fakeOpenAI';
import { freeApiKey } from '../support/accounts';
import { startPlatform, type RunningPlatform } from '../support/platform';

/**
 * Function calling and structured output on /v1/chat/completions as integrators use them: OpenAI's official `openai`
 * npm client and its helpers (runTools, stream, parse) against the built platform through the gateway, with a fake
 * OpenAI-compatible provider at the edge that calls tools and answers JSON in OpenAI's wire format.
 */
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
const question: OpenAI.ChatCompletionMessageParam = { role: 'user', content: 'What is the weather in Accra?' };
const ANSWER = 'It is 31 °C and sunny in Accra.';

/** Calls get_weather for Accra first; answers once the conversation holds the tool's result. */
const weatherRoundTrip: FakeMode = {
  kind: 'choose',
  choose: (body) =>
    body.messages.at(-1)?.role === 'tool'
      ? { kind: 'ok', text: ANSWER }
      : { kind: 'tool-calls', calls: [{ name: 'get_weather', arguments: '{"city":"Accra"}' }] },
};

/** A new Free account's API key, through the gateway. */
const keyFor = (platform: RunningPlatform) => freeApiKey(platform.baseUrl, 'tools', 'Tools client');

const clientOf = async (platform: RunningPlatform) =>
  new OpenAI({ baseURL: `${platform.baseUrl}/v1`, apiKey: await keyFor(platform), maxRetries: 0 });

/** The error a call failed with, checked to be of the client's class for it. */
async function errorOf<T extends abstract new (...args: never[]) => Error>(call: Promise<unknown>, kind: T) {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(kind);
  return err as InstanceType<T>;
}

describe('with a provider that calls tools', () => {
  let platform: RunningPlatform;
  let provider: FakeOpenAI;
  let client: OpenAI;

  beforeAll(async () => {
    provider = await new FakeOpenAI().start();
    platform = await startPlatform({ ...fakeProviderEnv(provider), FAKE_EMBEDDING_MODEL: 'fake-embed' });
    client = await clientOf(platform);
  }, 120_000);
  afterAll(async () => {
    await platform?.stop();
    await provider?.stop();
  });
  beforeEach(() => {
    provider.requests.length = 0;
    provider.mode = weatherRoundTrip;
  });

  it('answers with tool_calls and finish_reason "tool_calls", passing the tools to the provider', async () => {
    const completion = await client.chat.completions.create({
      model: 'nana',
      messages: [question],
      tools: [weatherTool],
      tool_choice: 'required',
      parallel_tool_calls: false,
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
    expect(provider.requests[0]!.body).toMatchObject({
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: weatherParameters } }],
      tool_choice: 'required',
      parallel_tool_calls: false,
    });
  });

  it('runs a whole tool round trip with the client’s runTools helper', async () => {
    const asked: unknown[] = [];
    const runner = client.chat.completions.runTools({
      model: 'nana',
      messages: [question],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'The weather in a city now',
            parameters: weatherParameters,
            parse: JSON.parse,
            function: (args: { city: string }) => {
              asked.push(args);
              return { city: args.city, celsius: 31, sky: 'sunny' };
            },
          },
        },
      ],
    });
    expect(await runner.finalContent()).toBe(ANSWER);
    expect(asked).toEqual([{ city: 'Accra' }]);
    // The second request carried the model's call and the tool's result back to the provider.
    expect(provider.requests).toHaveLength(2);
    const second = provider.requests[1]!;
    const call = second.body.messages.at(-2) as { role: string; tool_calls?: OpenAI.ChatCompletionMessageToolCall[] };
    expect(call).toMatchObject({
      role: 'assistant',
      tool_calls: [{ id: 'call_fake_1', type: 'function', function: { name: 'get_weather' } }],
    });
    const args = (call.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall).function.arguments;
    expect(JSON.parse(args)).toEqual({ city: 'Accra' });
    expect(toolResultsOf(second)).toEqual([
      { tool_call_id: 'call_fake_1', content: JSON.stringify({ city: 'Accra', celsius: 31, sky: 'sunny' }) },
    ]);
  });

  it('streams tool calls as OpenAI does: id, type and name first, then argument pieces by index', async () => {
    provider.mode = {
      kind: 'tool-calls',
      argumentPieces: 3,
      calls: [
        { name: 'get_weather', arguments: '{"city":"Accra"}' },
        { name: 'get_weather', arguments: '{"city":"Tamale"}' },
      ],
    };
    const stream = await client.chat.completions.create({
      model: 'nana',
      messages: [{ role: 'user', content: 'Weather in Accra and Tamale?' }],
      tools: [weatherTool],
      stream: true,
    });
    const deltas: OpenAI.ChatCompletionChunk.Choice.Delta.ToolCall[] = [];
    const finishes: (string | null)[] = [];
    for await (const chunk of stream) {
      deltas.push(...(chunk.choices[0]?.delta.tool_calls ?? []));
      if (chunk.choices[0]) finishes.push(chunk.choices[0].finish_reason);
    }
    const firsts = deltas.filter((d) => d.id);
    expect(firsts).toEqual([
      { index: 0, id: 'call_fake_1', type: 'function', function: { name: 'get_weather', arguments: '' } },
      { index: 1, id: 'call_fake_2', type: 'function', function: { name: 'get_weather', arguments: '' } },
    ]);
    const pieces = (index: number) => deltas.filter((d) => d.index === index && !d.id);
    expect(pieces(0).length).toBeGreaterThan(1);
    for (const piece of [...pieces(0), ...pieces(1)]) expect(Object.keys(piece).sort()).toEqual(['function', 'index']);
    expect(
      pieces(0)
        .map((d) => d.function!.arguments)
        .join(''),
    ).toBe('{"city":"Accra"}');
    expect(
      pieces(1)
        .map((d) => d.function!.arguments)
        .join(''),
    ).toBe('{"city":"Tamale"}');
    expect(finishes.at(-1)).toBe('tool_calls');
    expect(finishes.slice(0, -1).every((f) => f === null)).toBe(true);
  });

  it('lets the client’s stream helper assemble the streamed calls, and runTools run them streamed', async () => {
    provider.mode = { kind: 'tool-calls', calls: [{ name: 'get_weather', arguments: '{"city":"Accra"}' }] };
    const stream = client.chat.completions.stream({ model: 'nana', messages: [question], tools: [weatherTool] });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]!.finish_reason).toBe('tool_calls');
    expect(final.choices[0]!.message.tool_calls).toEqual([
      { id: 'call_fake_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Accra"}' } },
    ]);

    provider.mode = weatherRoundTrip;
    provider.requests.length = 0;
    const runner = client.chat.completions.runTools({
      model: 'nana',
      messages: [question],
      stream: true,
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'The weather in a city now',
            parameters: weatherParameters,
            parse: JSON.parse,
            function: (args: { city: string }) => `31 °C in ${args.city}`,
          },
        },
      ],
    });
    let streamed = '';
    runner.on('content', (delta) => (streamed += delta));
    expect(await runner.finalContent()).toBe(ANSWER);
    expect(streamed).toBe(ANSWER);
    expect(toolResultsOf(provider.requests[1]!)).toEqual([{ tool_call_id: 'call_fake_1', content: '31 °C in Accra' }]);
  });

  it('returns JSON valid against a json_schema, and the client parses it', async () => {
    const schema = {
      type: 'object',
      properties: { city: { type: 'string' }, celsius: { type: 'number' } },
      required: ['city', 'celsius'],
      additionalProperties: false,
    };
    provider.mode = { kind: 'json', json: { city: 'Accra', celsius: 31 } };
    const completion = await client.chat.completions.parse({
      model: 'kasa',
      messages: [question],
      response_format: { type: 'json_schema', json_schema: { name: 'weather', schema, strict: true } },
    });
    expect(completion.choices[0]!.message.parsed).toEqual({ city: 'Accra', celsius: 31 });
    // An OpenAI-compatible server is given the schema (strict as the caller asked), and so is the model's prompt.
    const sent = provider.requests[0]!.body;
    expect(sent.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'weather', schema, strict: true },
    });
    expect(sent.messages[0]).toMatchObject({
      role: 'system',
      content: expect.stringContaining(JSON.stringify(schema)),
    });

    // Streamed, with the client's own zod helper: the checked JSON arrives whole, and the helper parses it.
    const Weather = z.object({ city: z.string(), celsius: z.number() });
    const streamed = client.chat.completions.stream({
      model: 'kasa',
      messages: [question],
      response_format: zodResponseFormat(Weather, 'weather'),
    });
    const contents: string[] = [];
    streamed.on('content', (delta) => contents.push(delta));
    expect((await streamed.finalChatCompletion()).choices[0]!.message.parsed).toEqual({ city: 'Accra', celsius: 31 });
    expect(contents).toEqual(['{"city":"Accra","celsius":31}']);
  });

  it('refuses a reply that breaks the schema or is not JSON with an error in OpenAI’s shape', async () => {
    const schema = { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] };
    provider.mode = { kind: 'json', json: { celsius: 'hot' } };
    const invalid = await errorOf(
      client.chat.completions.create({
        model: 'kasa',
        messages: [question],
        response_format: { type: 'json_schema', json_schema: { name: 'weather', schema } },
      }),
      OpenAI.InternalServerError,
    );
    expect(invalid).toMatchObject({ status: 502, type: 'api_error', code: 'invalid_model_output' });
    expect(invalid.message).toMatch(/does not match the JSON schema 'weather' \(celsius: /);

    provider.mode = { kind: 'json', json: 'Sure! It is hot.' };
    const notJson = await errorOf(
      client.chat.completions.create({ model: 'kasa', messages: [question], response_format: { type: 'json_object' } }),
      OpenAI.InternalServerError,
    );
    expect(notJson.message).toMatch(/did not reply with valid JSON/);

    // Streamed: no JSON that was not checked reaches the client, only the error.
    const stream = await client.chat.completions.create({
      model: 'kasa',
      messages: [question],
      response_format: { type: 'json_object' },
      stream: true,
    });
    let content = '';
    const failed = await (async () => {
      for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? '';
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(content).toBe('');
    expect(failed).toBeInstanceOf(OpenAI.APIError);
    expect((failed as Error).message).toMatch(/did not reply with valid JSON/);
  });

  it('answers bad tool input with a 400 naming the parameter, before calling the provider', async () => {
    const unknownChoice = await errorOf(
      client.chat.completions.create({
        model: 'kasa',
        messages: [question],
        tools: [weatherTool],
        tool_choice: { type: 'function', function: { name: 'get_time' } },
      }),
      OpenAI.BadRequestError,
    );
    expect(unknownChoice).toMatchObject({ param: 'tool_choice', type: 'invalid_request_error' });
    expect(unknownChoice.message).toContain("names the function 'get_time'");
    const orphan = await errorOf(
      client.chat.completions.create({
        model: 'kasa',
        tools: [weatherTool],
        messages: [question, { role: 'tool', tool_call_id: 'call_404', content: '31 °C' }],
      }),
      OpenAI.BadRequestError,
    );
    expect(orphan.param).toBe('messages.1.tool_call_id');
    expect(provider.requests).toHaveLength(0);
  });

  it('embeds texts with the official client, in base64 (its default) and as floats, the same text the same', async () => {
    const texts = ['Akwaaba', 'Medaase paa', 'Akwaaba'];
    const packed = await client.embeddings.create({ model: 'kasa-embedding', input: texts });
    expect(packed.model).toBe('fake-embed');
    expect(packed.data.map((d) => d.index)).toEqual([0, 1, 2]);
    for (const d of packed.data) expect(d.embedding).toHaveLength(8);
    expect(packed.data[0]!.embedding).toEqual(packed.data[2]!.embedding);
    expect(packed.data[0]!.embedding).not.toEqual(packed.data[1]!.embedding);
    expect(packed.usage.prompt_tokens).toBeGreaterThan(0);
    expect(provider.embeddingRequests.at(-1)).toMatchObject({ model: 'fake-embed', input: texts });

    const floats = await client.embeddings.create({
      model: 'kasa-embedding',
      input: 'Akwaaba',
      encoding_format: 'float',
    });
    floats.data[0]!.embedding.forEach((value, i) => expect(value).toBeCloseTo(packed.data[0]!.embedding[i]!, 6));

    const tooMany = await errorOf(
      client.embeddings.create({ model: 'kasa-embedding', input: Array.from({ length: 300 }, () => 'x') }),
      OpenAI.BadRequestError,
    );
    expect(tooMany.message).toMatch(/1 to 256 texts/);
  });
});

describe('with only the built-in offline engine', () => {
  let platform: RunningPlatform;
  let client: OpenAI;

  beforeAll(async () => {
    platform = await startPlatform({ CHAT_PROVIDERS: '' });
    client = await clientOf(platform);
  }, 120_000);
  afterAll(async () => {
    await platform?.stop();
  });

  it('refuses tools and structured output with a 400 naming the model, and still answers text', async () => {
    const tools = await errorOf(
      client.chat.completions.create({ model: 'kasa', messages: [question], tools: [weatherTool] }),
      OpenAI.BadRequestError,
    );
    expect(tools).toMatchObject({ param: 'tools', type: 'invalid_request_error', code: 'unsupported_parameter' });
    expect(tools.message).toMatch(/The model 'kasa' cannot call tools here/);

    const json = await errorOf(
      client.chat.completions.create({
        model: 'merla',
        messages: [question],
        response_format: { type: 'json_object' },
        stream: true,
      }),
      OpenAI.BadRequestError,
    );
    expect(json).toMatchObject({ param: 'response_format', code: 'unsupported_value' });
    expect(json.message).toMatch(/The model 'merla' cannot give structured output here/);

    const text = await client.chat.completions.create({ model: 'kasa', messages: [question] });
    expect(text.choices[0]!.message.content!.length).toBeGreaterThan(0);
  });

  it('refuses embeddings with a 400 that says an operator can connect a provider that has them', async () => {
    const err = await errorOf(
      client.embeddings.create({ model: 'kasa-embedding', input: 'Akwaaba' }),
      OpenAI.BadRequestError,
    );
    expect(err).toMatchObject({ param: 'model', code: 'unsupported_value' });
    expect(err.message).toMatch(/No AI provider with embeddings is connected/);
  });
});
