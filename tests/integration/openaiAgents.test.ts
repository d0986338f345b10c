import { createOpenAI } from '@ai-sdk/openai';
import { z } from '@kasa/contracts';
import { AIMessageChunk, HumanMessage, ToolMessage, type AIMessage, type BaseMessage } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { Output, generateObject, generateText, stepCountIs, streamText, tool, type LanguageModel } from 'ai';
import OpenAI from 'openai';
import { FakeOpenAI, fakeProviderEnv, toolResultsOf, type FakeMode } from '../support/fakeOpenAI';
import { freeApiKey } from '../support/accounts';
import { startPlatform, type RunningPlatform } from '../support/platform';

/**
 * Agent frameworks and OpenAI's client, unchanged, against the built platform through the gateway with an API key:
 * the Vercel AI SDK's OpenAI provider (its default Responses API and `.chat` Chat Completions), LangChain's ChatOpenAI
 * (Chat Completions and `useResponsesApi`), and the official `openai` client's Responses API (plain, streamed,
 * continued with previous_response_id, retrieved and deleted). A fake OpenAI-compatible provider at the edge calls
 * the tool and answers JSON in OpenAI's wire format.
 */
const QUESTION = 'What is the weather in Accra?';
const PREAMBLE = 'Let me check the weather. ';
const ANSWER = 'It is 31 °C and sunny in Accra.';
const WEATHER = { city: 'Accra', celsius: 31, sky: 'sunny' };

/** Calls get_weather for Accra first (after a few words); answers once the conversation holds the tool's result. */
const weatherRoundTrip: FakeMode = {
  kind: 'choose',
  choose: (body) =>
    body.messages.at(-1)?.role === 'tool'
      ? { kind: 'ok', text: ANSWER }
      : { kind: 'tool-calls', text: PREAMBLE, calls: [{ name: 'get_weather', arguments: '{"city":"Accra"}' }] },
};

const weatherParameters = {
  type: 'object',
  properties: { city: { type: 'string', description: 'The city' } },
  required: ['city'],
  additionalProperties: false,
};
const Weather = z.object({ city: z.string(), celsius: z.number(), sky: z.string() });

/** A new Free account's API key, through the gateway. */
const keyFor = (platform: RunningPlatform) => freeApiKey(platform.baseUrl, 'agents', 'Agents');

/** The error a call failed with, checked to be of the client's class for it. */
async function errorOf<T extends abstract new (...args: never[]) => Error>(call: Promise<unknown>, kind: T) {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(kind);
  return err as InstanceType<T>;
}

let platform: RunningPlatform;
let provider: FakeOpenAI;
let apiKey: string;
let baseURL: string;

beforeAll(async () => {
  provider = await new FakeOpenAI().start();
  platform = await startPlatform(fakeProviderEnv(provider));
  apiKey = await keyFor(platform);
  baseURL = `${platform.baseUrl}/v1`;
}, 120_000);
afterAll(async () => {
  await platform?.stop();
  await provider?.stop();
});
beforeEach(() => {
  provider.requests.length = 0;
  provider.mode = weatherRoundTrip;
});

/** What the provider was sent on the second step: the tool's result answering the model's call. */
function expectToolRoundTrip(): void {
  expect(provider.requests).toHaveLength(2);
  const second = provider.requests[1]!;
  expect(second.body.messages.at(-2)).toMatchObject({
    role: 'assistant',
    tool_calls: [{ id: 'call_fake_1', type: 'function', function: { name: 'get_weather' } }],
  });
  const [result] = toolResultsOf(second);
  expect(result!.tool_call_id).toBe('call_fake_1');
  expect(JSON.parse(String(result!.content))).toEqual(WEATHER);
}

describe.each([
  ['the Responses API (the provider’s default)', (model: ReturnType<typeof createOpenAI>) => model('kasa')],
  ['Chat Completions (.chat)', (model: ReturnType<typeof createOpenAI>) => model.chat('kasa')],
])(
  'the Vercel AI SDK’s OpenAI provider over %s',
  (_api, modelOf: (p: ReturnType<typeof createOpenAI>) => LanguageModel) => {
    let model: LanguageModel;
    let asked: unknown[];
    /** The bodies the SDK sent to Kasa, as it sent them. */
    const sent: Array<{ url: string; body: Record<string, unknown> }> = [];
    const tools = () => ({
      get_weather: tool({
        description: 'The weather in a city now',
        inputSchema: z.object({ city: z.string() }),
        execute: async (input: { city: string }) => {
          asked.push(input);
          return WEATHER;
        },
      }),
    });

    beforeAll(() => {
      const recording: typeof fetch = (url, init) => {
        sent.push({ url: String(url), body: JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown> });
        return fetch(url, init);
      };
      model = modelOf(createOpenAI({ baseURL, apiKey, fetch: recording }));
    });
    beforeEach(() => {
      asked = [];
      sent.length = 0;
    });

    it('runs a two-step tool-calling agent with generateText', async () => {
      const result = await generateText({ model, prompt: QUESTION, tools: tools(), stopWhen: stepCountIs(3) });
      expect(result.text).toBe(ANSWER);
      expect(result.steps).toHaveLength(2);
      expect(result.steps[0]!.finishReason).toBe('tool-calls');
      expect(result.steps[0]!.text).toBe(PREAMBLE);
      expect(asked).toEqual([{ city: 'Accra' }]);
      expectToolRoundTrip();
      // The model's words before its call went back with it; over the Responses API the SDK names them by their
      // item id (an item_reference), and Kasa finds them in the response it stored.
      expect(provider.requests[1]!.body.messages.at(-2)).toMatchObject({ content: PREAMBLE });
      if (sent[1]!.url.endsWith('/responses'))
        expect(sent[1]!.body.input).toContainEqual({ type: 'item_reference', id: expect.stringMatching(/^msg_/) });
      expect(result.totalUsage.inputTokens).toBeGreaterThan(0);
    });

    it('runs the same agent streamed with streamText', async () => {
      const result = streamText({ model, prompt: QUESTION, tools: tools(), stopWhen: stepCountIs(3) });
      let streamed = '';
      for await (const delta of result.textStream) streamed += delta;
      expect(streamed).toBe(PREAMBLE + ANSWER);
      expect(await result.text).toBe(ANSWER);
      expect((await result.steps).map((step) => step.finishReason)).toEqual(['tool-calls', 'stop']);
      expect(asked).toEqual([{ city: 'Accra' }]);
      expectToolRoundTrip();
    });

    it('gives structured output with generateObject and Output.object', async () => {
      provider.mode = { kind: 'json', json: WEATHER };
      const { object } = await generateObject({ model, schema: Weather, prompt: QUESTION });
      expect(object).toEqual(WEATHER);
      const { output } = await generateText({ model, output: Output.object({ schema: Weather }), prompt: QUESTION });
      expect(output).toEqual(WEATHER);
      // The provider was asked for JSON against the schema.
      expect(provider.requests[0]!.body.response_format).toMatchObject({ type: 'json_schema' });
    });
  },
);

describe.each([
  ['Chat Completions', false],
  ['the Responses API', true],
])('LangChain’s ChatOpenAI over %s', (_api, useResponsesApi) => {
  const weatherTool = {
    type: 'function' as const,
    function: { name: 'get_weather', description: 'The weather in a city now', parameters: weatherParameters },
  };
  const chatModel = () =>
    new ChatOpenAI({ model: 'kasa', apiKey, configuration: { baseURL }, maxRetries: 0, useResponsesApi });

  /** The model's answer, whole (`invoke`) or as the chunks of `stream` added up. */
  async function answerOf(
    runnable: {
      invoke(input: BaseMessage[]): Promise<AIMessage>;
      stream(input: BaseMessage[]): Promise<AsyncIterable<AIMessageChunk>>;
    },
    input: BaseMessage[],
    streamed: boolean,
  ): Promise<AIMessage | AIMessageChunk> {
    if (!streamed) return runnable.invoke(input);
    let whole: AIMessageChunk | undefined;
    for await (const chunk of await runnable.stream(input)) whole = whole ? whole.concat(chunk) : chunk;
    return whole!;
  }

  it.each([false, true])('runs a two-step tool loop with bindTools (streamed: %s)', async (streamed) => {
    const llm = chatModel().bindTools([weatherTool]);
    const messages: BaseMessage[] = [new HumanMessage(QUESTION)];
    const first = await answerOf(llm, messages, streamed);
    expect(first.tool_calls).toEqual([expect.objectContaining({ name: 'get_weather', args: { city: 'Accra' } })]);
    // The caller runs the tool and sends its result back.
    messages.push(
      first,
      new ToolMessage({ tool_call_id: first.tool_calls![0]!.id!, content: JSON.stringify(WEATHER) }),
    );
    const second = await answerOf(llm, messages, streamed);
    expect(second.tool_calls ?? []).toEqual([]);
    expect(second.text).toBe(ANSWER);
    expectToolRoundTrip();
  });

  it.each([false, true])('gives structured output with withStructuredOutput (streamed: %s)', async (streamed) => {
    provider.mode = { kind: 'json', json: WEATHER };
    const structured = chatModel().withStructuredOutput(Weather, { name: 'weather' });
    if (!streamed) {
      expect(await structured.invoke(QUESTION)).toEqual(WEATHER);
      return;
    }
    let last: unknown;
    for await (const chunk of await structured.stream(QUESTION)) last = chunk;
    expect(last).toEqual(WEATHER);
  });
});

describe('the openai client’s Responses API', () => {
  let client: OpenAI;
  let someoneElse: OpenAI;

  beforeAll(async () => {
    client = new OpenAI({ baseURL, apiKey, maxRetries: 0 });
    someoneElse = new OpenAI({ baseURL, apiKey: await keyFor(platform), maxRetries: 0 });
  });
  beforeEach(() => {
    provider.mode = { kind: 'ok', text: 'Akwaaba! Medaase.' };
  });

  it('answers a response object in OpenAI’s shape', async () => {
    const response = await client.responses.create({
      model: 'kasa',
      input: 'Greet me in Twi.',
      instructions: 'Be brief.',
      metadata: { run: 'plain' },
    });
    expect(response).toMatchObject({
      id: expect.stringMatching(/^resp_[0-9a-f]{32}$/),
      object: 'response',
      status: 'completed',
      model: 'kasa',
      error: null,
      incomplete_details: null,
      instructions: 'Be brief.',
      previous_response_id: null,
      store: true,
      metadata: { run: 'plain' },
      tools: [],
      tool_choice: 'auto',
      text: { format: { type: 'text' } },
      output: [
        {
          id: expect.stringMatching(/^msg_/),
          type: 'message',
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'Akwaaba! Medaase.', annotations: [] }],
        },
      ],
      usage: { input_tokens: expect.any(Number), output_tokens: expect.any(Number), total_tokens: expect.any(Number) },
    });
    // The client adds output_text itself.
    expect(response.output_text).toBe('Akwaaba! Medaase.');
    // The instructions reached the persona's system prompt.
    expect(provider.requests[0]!.body.messages[0]).toMatchObject({
      role: 'system',
      content: expect.stringContaining('Be brief.'),
    });
  });

  it('streams OpenAI’s events in order, numbered, ending with the completed response', async () => {
    const stream = await client.responses.create({ model: 'kasa', input: 'Greet me.', stream: true });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const types = events.map((e) => e.type);
    expect(types.slice(0, 4)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
    ]);
    expect(types.slice(-4)).toEqual([
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(new Set(types.slice(4, -4))).toEqual(new Set(['response.output_text.delta']));
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const deltas = events.filter(
      (e): e is OpenAI.Responses.ResponseTextDeltaEvent => e.type === 'response.output_text.delta',
    );
    expect(deltas.map((e) => e.delta).join('')).toBe('Akwaaba! Medaase.');
    const completed = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
    expect(completed.response.output).toHaveLength(1);
    expect((events[0] as OpenAI.Responses.ResponseCreatedEvent).response).toMatchObject({
      id: completed.response.id,
      status: 'in_progress',
      output: [],
    });

    // The client's stream helper assembles the same response.
    const final = await client.responses.stream({ model: 'kasa', input: 'Greet me.' }).finalResponse();
    expect(final.output_text).toBe('Akwaaba! Medaase.');
  });

  it('streams function calls and their arguments', async () => {
    provider.mode = {
      kind: 'tool-calls',
      argumentPieces: 3,
      calls: [{ name: 'get_weather', arguments: '{"city":"Accra"}' }],
    };
    const stream = await client.responses.create({
      model: 'nana',
      input: QUESTION,
      tools: [{ type: 'function', name: 'get_weather', parameters: weatherParameters, strict: true }],
      stream: true,
    });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const pieces = events.filter((e) => e.type === 'response.function_call_arguments.delta');
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.map((e) => (e as OpenAI.Responses.ResponseFunctionCallArgumentsDeltaEvent).delta).join('')).toBe(
      '{"city":"Accra"}',
    );
    expect(events.find((e) => e.type === 'response.function_call_arguments.done')).toMatchObject({
      name: 'get_weather',
      arguments: '{"city":"Accra"}',
    });
    const completed = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
    expect(completed.response.output).toEqual([
      {
        id: expect.stringMatching(/^fc_/),
        type: 'function_call',
        status: 'completed',
        call_id: 'call_fake_1',
        name: 'get_weather',
        arguments: '{"city":"Accra"}',
      },
    ]);
  });

  it('continues a stored response with previous_response_id, and refuses someone else’s', async () => {
    const first = await client.responses.create({ model: 'kasa', input: 'My name is Ama.', instructions: 'Be brief.' });
    provider.mode = { kind: 'ok', text: 'Your name is Ama.' };
    provider.requests.length = 0;
    const second = await client.responses.create({
      model: 'kasa',
      input: 'What is my name?',
      previous_response_id: first.id,
    });
    expect(second).toMatchObject({ previous_response_id: first.id, instructions: null });
    expect(second.output_text).toBe('Your name is Ama.');
    // The provider got the whole conversation; instructions are not carried over, as OpenAI does.
    const sent = provider.requests[0]!.body.messages;
    expect(sent.slice(1)).toEqual([
      { role: 'user', content: 'My name is Ama.' },
      { role: 'assistant', content: 'Akwaaba! Medaase.' },
      { role: 'user', content: 'What is my name?' },
    ]);
    expect(String(sent[0]!.content)).not.toContain('Be brief.');

    const stolen = await errorOf(
      someoneElse.responses.create({ model: 'kasa', input: 'And mine?', previous_response_id: first.id }),
      OpenAI.NotFoundError,
    );
    expect(stolen).toMatchObject({ status: 404, type: 'not_found_error' });
    await errorOf(someoneElse.responses.retrieve(first.id), OpenAI.NotFoundError);
    await errorOf(someoneElse.responses.delete(first.id), OpenAI.NotFoundError);
    await errorOf(
      client.responses.create({ model: 'kasa', input: 'x', previous_response_id: 'resp_unknown' }),
      OpenAI.NotFoundError,
    );
  });

  it('retrieves and deletes a stored response; store: false keeps nothing', async () => {
    const created = await client.responses.create({ model: 'kasa', input: 'Keep this.' });
    const retrieved = await client.responses.retrieve(created.id);
    expect(retrieved).toEqual({ ...created, output_text: retrieved.output_text });
    const deleted = await fetch(`${baseURL}/responses/${created.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(await deleted.json()).toMatchObject({ id: created.id, object: 'response.deleted', deleted: true });
    await errorOf(client.responses.retrieve(created.id), OpenAI.NotFoundError);
    await errorOf(client.responses.delete(created.id), OpenAI.NotFoundError);

    const another = await client.responses.create({ model: 'kasa', input: 'Forget this.' });
    await client.responses.delete(another.id);
    const unstored = await client.responses.create({ model: 'kasa', input: 'Do not keep this.', store: false });
    expect(unstored).toMatchObject({ store: false });
    await errorOf(client.responses.retrieve(unstored.id), OpenAI.NotFoundError);
  });

  it('checks JSON output: a reply that is not JSON is a 502, and streamed a response.failed with no text', async () => {
    provider.mode = { kind: 'json', json: 'Sure! It is hot.' };
    const format = { format: { type: 'json_object' as const } };
    const plain = await errorOf(
      client.responses.create({ model: 'kasa', input: 'Weather as JSON?', text: format }),
      OpenAI.InternalServerError,
    );
    expect(plain).toMatchObject({ status: 502, code: 'invalid_model_output' });

    const stream = await client.responses.create({
      model: 'kasa',
      input: 'Weather as JSON?',
      text: format,
      stream: true,
    });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events.map((e) => e.type)).toEqual(['response.created', 'response.in_progress', 'response.failed']);
    expect((events[2] as OpenAI.Responses.ResponseFailedEvent).response).toMatchObject({
      status: 'failed',
      output: [],
      error: { code: 'invalid_model_output', message: expect.stringMatching(/did not reply with valid JSON/) },
    });
  });

  it('answers bad requests with OpenAI’s 400 naming the parameter, before calling the provider', async () => {
    const unknown = await errorOf(
      client.responses.create({
        model: 'kasa',
        input: 'x',
        seed: 1,
      } as OpenAI.Responses.ResponseCreateParamsNonStreaming),
      OpenAI.BadRequestError,
    );
    expect(unknown).toMatchObject({ param: 'seed', code: 'unknown_parameter', type: 'invalid_request_error' });
    const hosted = await errorOf(
      client.responses.create({ model: 'kasa', input: 'x', tools: [{ type: 'web_search' }] }),
      OpenAI.BadRequestError,
    );
    expect(hosted).toMatchObject({ param: 'tools.0.type', code: 'unsupported_value' });
    const orphan = await errorOf(
      client.responses.create({
        model: 'kasa',
        input: [{ type: 'function_call_output', call_id: 'call_404', output: '31 °C' }],
      }),
      OpenAI.BadRequestError,
    );
    expect(orphan.param).toBe('input.0.call_id');
    expect(provider.requests).toHaveLength(0);
  });
});
