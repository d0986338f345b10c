import {
  OpenAIResponsesRequest,
  type OpenAIResponsesConversationItem,
  type OpenAIResponsesInputItem,
} from '@kasa/contracts';
import { InputError, NotFoundError } from '@kasa/service-kit';
import {
  chatRequestOf,
  checkConversationSize,
  conversationItemsOf,
  renamedInputError,
  resolveReferences,
} from './responsesInput';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';

const parse = (body: Record<string, unknown>) => OpenAIResponsesRequest.safeParse({ model: 'kasa', ...body });
const request = (body: Record<string, unknown>) => OpenAIResponsesRequest.parse({ model: 'kasa', ...body });
const items = (input: unknown[]) => request({ input }).input as OpenAIResponsesConversationItem[];

/** The first problem of a refused request: its path, message and OpenAI code. */
function problemOf(body: Record<string, unknown>) {
  const result = parse(body);
  expect(result.success).toBe(false);
  const issue = result.error!.issues[0]!;
  return {
    path: issue.path.join('.'),
    message: issue.message,
    code: (issue as { params?: { code?: string } }).params?.code,
  };
}

const weatherTool = {
  type: 'function',
  name: 'get_weather',
  description: 'The weather in a city now',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  strict: true,
};

describe('OpenAIResponsesRequest', () => {
  it('reads a text input as one user message, and messages without type as messages', () => {
    expect(request({ input: 'Akwaaba' }).input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Akwaaba' }] },
    ]);
    expect(request({ input: [{ role: 'developer', content: 'Be brief.' }] }).input[0]).toMatchObject({
      type: 'message',
      role: 'developer',
    });
  });

  it('accepts what the official clients send by default, their own output items carried back included', () => {
    const result = parse({
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Weather?' }] },
        {
          type: 'message',
          id: 'msg_1',
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'Checking.', annotations: [] }],
        },
        {
          type: 'function_call',
          id: 'fc_1',
          status: 'completed',
          call_id: 'call_1',
          name: 'get_weather',
          arguments: '{}',
        },
        { type: 'function_call_output', call_id: 'call_1', output: '31 °C' },
        { type: 'item_reference', id: 'msg_2' },
      ],
      tools: [{ ...weatherTool, strict: null }],
      tool_choice: 'auto',
      text: {},
      include: ['reasoning.encrypted_content'],
      reasoning: { effort: null, summary: null },
      truncation: 'auto',
      store: true,
      stream: true,
      metadata: { app: 'agent' },
      prompt_cache_key: 'k',
      service_tier: 'auto',
    });
    expect(result.error?.issues).toBeUndefined();
  });

  it('refuses unknown and unsupported parameters, tools and items with OpenAI’s codes and the field’s path', () => {
    expect(problemOf({ input: 'x', seed: 1 })).toMatchObject({ path: 'seed', code: 'unknown_parameter' });
    expect(problemOf({ input: 'x', conversation: 'conv_1' })).toMatchObject({
      path: 'conversation',
      code: 'unsupported_parameter',
    });
    expect(problemOf({ input: 'x', background: true })).toMatchObject({
      path: 'background',
      code: 'unsupported_value',
    });
    expect(problemOf({ input: 'x', tools: [{ type: 'web_search' }] })).toMatchObject({
      path: 'tools.0.type',
      code: 'unsupported_value',
      message: expect.stringContaining('tools of type "web_search" are not supported'),
    });
    expect(problemOf({ input: [{ type: 'reasoning', summary: [] }] })).toMatchObject({
      path: 'input.0.type',
      code: 'unsupported_value',
    });
    expect(
      problemOf({ input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'file_1' }] }] }),
    ).toMatchObject({ path: 'input.0.content.0.type', code: 'unsupported_value' });
    expect(problemOf({ input: 'x', text: { verbosity: 'low' } })).toMatchObject({
      path: 'text.verbosity',
      code: 'unsupported_parameter',
    });
  });

  it('takes images as data URLs in user messages only, and checks the rules between fields', () => {
    expect(
      parse({ input: [{ role: 'user', content: [{ type: 'input_image', image_url: PNG, detail: 'auto' }] }] }).success,
    ).toBe(true);
    expect(
      problemOf({
        input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'https://example.com/a.png' }] }],
      }),
    ).toMatchObject({ path: 'input.0.content.0.image_url', message: expect.stringMatching(/not fetched/) });
    expect(problemOf({ input: [{ role: 'assistant', content: [{ type: 'input_image', image_url: PNG }] }] }).path).toBe(
      'input.0.content.0',
    );
    expect(problemOf({ input: 'x', tool_choice: 'required' }).path).toBe('tool_choice');
    expect(
      problemOf({ input: 'x', tools: [weatherTool], tool_choice: { type: 'function', name: 'get_time' } }).message,
    ).toMatch(/names the function 'get_time'/);
    expect(problemOf({ input: 'x'.repeat(64_001) }).path).toBe('input.0.content.0.text');
  });
});

describe('chatRequestOf', () => {
  it('runs the input as a chat completion: system text, images, a call with the text before it, its result', () => {
    const body = request({
      instructions: 'Answer in Twi.',
      input: [
        { role: 'developer', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is this? ' },
            { type: 'input_image', image_url: PNG },
          ],
        },
        { role: 'assistant', content: [{ type: 'output_text', text: 'Let me look.' }] },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Accra"}' },
        { type: 'function_call', call_id: 'call_2', name: 'get_weather', arguments: '{"city":"Kumasi"}' },
        { type: 'function_call_output', call_id: 'call_1', output: '31 °C' },
        { type: 'function_call_output', call_id: 'call_2', output: [{ type: 'input_text', text: '29 °C' }] },
      ],
      tools: [weatherTool],
      tool_choice: { type: 'function', name: 'get_weather' },
      parallel_tool_calls: false,
      text: { format: { type: 'json_schema', name: 'weather', schema: { type: 'object' }, strict: true } },
      temperature: 0.2,
      max_output_tokens: 300,
      user: 'u-1',
    });
    const { request: chat } = chatRequestOf(body, [], body.input as OpenAIResponsesConversationItem[]);
    expect(chat.messages).toEqual([
      { role: 'system', content: 'Answer in Twi.' },
      { role: 'developer', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this? ' },
          { type: 'image_url', image_url: { url: PNG, detail: 'auto' } },
        ],
      },
      {
        role: 'assistant',
        content: 'Let me look.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Accra"}' } },
          { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Kumasi"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '31 °C' },
      { role: 'tool', tool_call_id: 'call_2', content: '29 °C' },
    ]);
    expect(chat).toMatchObject({
      model: 'kasa',
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: weatherTool.description,
            parameters: weatherTool.parameters,
            strict: true,
          },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: false,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'weather', schema: { type: 'object' }, strict: true },
      },
      temperature: 0.2,
      max_completion_tokens: 300,
      user: 'u-1',
    });
  });

  it('puts the stored conversation first, and answers a call from it', () => {
    const history = conversationItemsOf([
      {
        id: 'fc_x',
        type: 'function_call',
        status: 'completed',
        call_id: 'call_9',
        name: 'get_weather',
        arguments: '{}',
      },
    ]);
    const body = request({ input: [{ type: 'function_call_output', call_id: 'call_9', output: 'sunny' }] });
    const stored = [...items([{ role: 'user', content: 'Weather?' }]), ...history];
    const { request: chat } = chatRequestOf(body, stored, body.input as OpenAIResponsesConversationItem[]);
    expect(chat.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  });

  it('refuses a call output that answers no call, and input that does not end with a question or results', () => {
    const orphan = request({
      input: [
        { role: 'user', content: 'Hi' },
        { type: 'function_call_output', call_id: 'call_404', output: 'x' },
      ],
    });
    expect(() => chatRequestOf(orphan, [], orphan.input as OpenAIResponsesConversationItem[])).toThrow(
      expect.objectContaining({ details: [expect.objectContaining({ path: 'input.1.call_id' })] }),
    );
    const ending = request({
      input: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello' },
      ],
    });
    expect(() => chatRequestOf(ending, [], ending.input as OpenAIResponsesConversationItem[])).toThrow(
      /input must end with a user message/,
    );
  });

  it('names the Chat Completions fields of a 400 as this request names them', () => {
    const body = request({
      input: [
        { role: 'user', content: 'a' },
        { role: 'user', content: [{ type: 'input_image', image_url: PNG }] },
      ],
    });
    const { paramOf } = chatRequestOf(
      body,
      items([{ role: 'user', content: 'old' }]),
      body.input as OpenAIResponsesConversationItem[],
    );
    expect(paramOf('messages.2.content.0.image_url.url')).toBe('input.1.content.0.image_url');
    expect(paramOf('messages.0.content.0.image_url.url')).toBe('previous_response_id');
    const schema = renamedInputError(
      new InputError('response_format.json_schema.schema: the JSON schema cannot be used', [
        { path: 'response_format.json_schema.schema', message: 'the JSON schema cannot be used' },
      ]),
      paramOf,
    );
    expect(schema.message).toBe('text.format.schema: the JSON schema cannot be used');
    expect(schema.details).toEqual([{ path: 'text.format.schema', message: 'the JSON schema cannot be used' }]);
    const unsupported = renamedInputError(
      new InputError('cannot give structured output', [{ path: 'response_format', message: 'x' }], 'unsupported_value'),
      paramOf,
    );
    expect(unsupported).toMatchObject({ code: 'unsupported_value', details: [{ path: 'text.format' }] });
  });
});

describe('resolveReferences', () => {
  it('replaces references by the items they name, and a reference to nothing of the caller’s is a 404', async () => {
    const answer: OpenAIResponsesConversationItem = {
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'Checking.', annotations: [] }],
    };
    const input = request({
      input: [
        { role: 'user', content: 'Weather?' },
        { type: 'item_reference', id: 'msg_known' },
      ],
    }).input as OpenAIResponsesInputItem[];
    const find = async (id: string) => (id === 'msg_known' ? answer : undefined);
    expect((await resolveReferences(input, find))[1]).toBe(answer);
    await expect(resolveReferences([{ type: 'item_reference', id: 'msg_other' }], find)).rejects.toThrow(NotFoundError);
  });
});

describe('checkConversationSize', () => {
  it('refuses a conversation past the limits, naming previous_response_id (or input, for its references)', () => {
    const one = items([{ role: 'user', content: 'x' }]);
    expect(() => checkConversationSize(Array(200).fill(one[0]), one)).toThrow(
      expect.objectContaining({
        message: expect.stringMatching(/would hold 201 items \(at most 200\)/),
        details: [expect.objectContaining({ path: 'previous_response_id' })],
      }),
    );
    const long = items([{ role: 'user', content: 'x'.repeat(60_000) }]);
    expect(() => checkConversationSize(Array(6).fill(long[0]), long)).toThrow(/characters/);
    expect(() => checkConversationSize(Array(199).fill(one[0]), one)).not.toThrow();
    // Items named by references count too.
    expect(() => checkConversationSize([], Array(201).fill(one[0]))).toThrow(
      expect.objectContaining({ details: [expect.objectContaining({ path: 'input' })] }),
    );
  });
});
