import { toModelMessages } from './aiSdkProvider';
import { outputOf, providerToolOptions, toolChoiceOf, toolSetOf } from './aiSdkTools';

describe('the AI SDK’s view of a tool turn', () => {
  it('offers each tool with its JSON schema (through the SDK’s jsonSchema) and no execute', async () => {
    const parameters = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const tools = toolSetOf([{ name: 'get_weather', description: 'The weather', parameters, strict: true }]);
    const weather = tools.get_weather!;
    expect(weather).toMatchObject({ description: 'The weather', strict: true });
    expect(weather.execute).toBeUndefined();
    expect(await (weather.inputSchema as { jsonSchema: unknown }).jsonSchema).toEqual(parameters);
  });

  it('names the tool the model must call as the SDK does', () => {
    expect(toolChoiceOf('required')).toBe('required');
    expect(toolChoiceOf({ name: 'get_weather' })).toEqual({ type: 'tool', toolName: 'get_weather' });
  });

  it('asks for an object with the schema, or any JSON', async () => {
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } } };
    expect(await outputOf({ type: 'json', schema, name: 'answer' }).responseFormat).toEqual({
      type: 'json',
      schema,
      name: 'answer',
    });
    expect(await outputOf({ type: 'json' }).responseFormat).toEqual({ type: 'json' });
  });

  it('turns tool calls and results into the SDK’s parts, results in a row into one tool message', () => {
    expect(
      toModelMessages([
        { role: 'user', content: 'Weather in Accra and Tamale?' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [
            { id: 'c1', name: 'get_weather', arguments: '{"city":"Accra"}' },
            { id: 'c2', name: 'get_weather', arguments: 'not json' },
          ],
        },
        { role: 'tool', content: '31 °C', toolCallId: 'c1', toolName: 'get_weather' },
        { role: 'tool', content: '35 °C', toolCallId: 'c2', toolName: 'get_weather' },
      ]),
    ).toEqual([
      { role: 'user', content: 'Weather in Accra and Tamale?' },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: { city: 'Accra' } },
          { type: 'tool-call', toolCallId: 'c2', toolName: 'get_weather', input: 'not json' },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c1', toolName: 'get_weather', output: { type: 'text', value: '31 °C' } },
          { type: 'tool-result', toolCallId: 'c2', toolName: 'get_weather', output: { type: 'text', value: '35 °C' } },
        ],
      },
    ]);
  });
});

describe('providerToolOptions', () => {
  it('passes parallel calls and schema strictness to OpenAI, and the end user as before', () => {
    expect(
      providerToolOptions({ name: 'openai', kind: 'openai' }, { user: 'u-1', parallel: false, strictSchema: true }),
    ).toEqual({
      openai: { user: 'u-1', parallelToolCalls: false, strictJsonSchema: true },
      openaiCompatible: { user: 'u-1', strictJsonSchema: true },
      anthropic: { disableParallelToolUse: true },
      groq: { parallelToolCalls: false },
    });
  });

  it('sends parallel_tool_calls to an OpenAI-compatible server under its own name, as a request field', () => {
    expect(providerToolOptions({ name: 'local', kind: 'openai-compatible' }, { parallel: true })).toMatchObject({
      local: { parallel_tool_calls: true },
    });
  });

  it('sets nothing when nothing was asked', () => {
    expect(providerToolOptions({ name: 'local', kind: 'openai-compatible' }, {})).toEqual({});
  });
});
