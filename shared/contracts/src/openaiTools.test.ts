import { OpenAIChatCompletionRequest } from './chat';

const weather = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};
const user = { role: 'user', content: 'What is the weather in Accra?' };

/** The issues of a request as `path: message`, or [] when it is valid. */
function problems(body: Record<string, unknown>): string[] {
  const result = OpenAIChatCompletionRequest.safeParse({ model: 'kasa', messages: [user], ...body });
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('OpenAIChatCompletionRequest with tools and response_format', () => {
  it('accepts tools, every tool_choice and parallel_tool_calls', () => {
    for (const tool_choice of ['auto', 'none', 'required', { type: 'function', function: { name: 'get_weather' } }])
      expect(problems({ tools: [weather], tool_choice, parallel_tool_calls: true })).toEqual([]);
  });

  it('accepts a tool round trip: the assistant’s calls and the tool messages answering them', () => {
    const messages = [
      user,
      {
        role: 'assistant',
        content: null,
        refusal: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Accra"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '31 °C and sunny' },
    ];
    expect(problems({ tools: [weather], messages })).toEqual([]);
  });

  it('refuses a tool_choice without tools, or naming a tool that is not offered', () => {
    expect(problems({ tool_choice: 'required' })).toEqual([
      'tool_choice: tool_choice is only allowed when tools are specified',
    ]);
    expect(problems({ tools: [weather], tool_choice: { type: 'function', function: { name: 'get_time' } } })).toEqual([
      "tool_choice: tool_choice names the function 'get_time', which is not in tools",
    ]);
    expect(problems({ tools: [weather], tool_choice: 'sometimes' })[0]).toMatch(/^tool_choice: tool_choice must be/);
  });

  it('refuses tools that are not functions, bad names and the same name twice', () => {
    expect(problems({ tools: [{ type: 'file_search' }] })).toContain(
      'tools.0.type: only tools of type "function" are supported',
    );
    expect(problems({ tools: [{ type: 'function', function: { name: 'get weather' } }] })).toEqual([
      'tools.0.function.name: a function name has 1 to 64 letters, digits, underscores or dashes',
    ]);
    expect(problems({ tools: [weather, weather] })).toEqual([
      "tools.1.function.name: the tool 'get_weather' is listed twice",
    ]);
  });

  it('refuses a tool message that answers no earlier call, or names none', () => {
    expect(problems({ messages: [user, { role: 'tool', tool_call_id: 'call_9', content: 'x' }] })).toEqual([
      "messages.1.tool_call_id: a tool message must answer a call of an earlier assistant message: no tool call has the id 'call_9'",
    ]);
    expect(problems({ messages: [user, { role: 'tool', content: 'x' }] })).toEqual([
      'messages.1.tool_call_id: a tool message needs the tool_call_id of the call it answers',
    ]);
  });

  it('wants content except on an assistant message with tool calls', () => {
    expect(problems({ messages: [{ role: 'user', content: null }] })).toEqual([
      'messages.0.content: content is required (only an assistant message with tool_calls may leave it out)',
    ]);
    expect(
      problems({
        messages: [
          user,
          {
            role: 'user',
            content: 'x',
            tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
        ],
      }),
    ).toEqual(['messages.1.tool_calls: only assistant messages may carry tool_calls']);
  });

  it('accepts the three response formats and refuses others with a clear message', () => {
    expect(problems({ response_format: { type: 'text' } })).toEqual([]);
    expect(problems({ response_format: { type: 'json_object' } })).toEqual([]);
    expect(
      problems({
        response_format: {
          type: 'json_schema',
          json_schema: { name: 'weather', schema: { type: 'object' }, strict: true },
        },
      }),
    ).toEqual([]);
    expect(problems({ response_format: { type: 'xml' } })).toEqual([
      'response_format.type: response_format.type must be "text", "json_object" or "json_schema"',
    ]);
    expect(problems({ response_format: { type: 'json_schema', json_schema: { schema: {} } } })).toEqual([
      'response_format.json_schema.name: the schema name is required',
    ]);
  });

  it('still refuses the deprecated functions parameter, pointing to tools', () => {
    const result = OpenAIChatCompletionRequest.safeParse({
      model: 'kasa',
      messages: [user],
      functions: [{ name: 'f' }],
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: ['functions'], params: { code: 'unsupported_parameter' } });
    expect(result.error?.issues[0]?.message).toMatch(/use tools$/);
  });
});
