import { OpenAIChatCompletionRequest } from '@kasa/contracts';
import type { PromptMessage } from '../providers/chatProvider';
import { keepToolExchangesWhole, toolPromptMessageOf, toolRequestOf } from './toolMessages';

const weather = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'The weather in a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};
const request = (extra: Record<string, unknown>) =>
  OpenAIChatCompletionRequest.parse({ model: 'kasa', messages: [{ role: 'user', content: 'Hi' }], ...extra });

describe('toolRequestOf', () => {
  it('is undefined for a turn without tools', () => {
    expect(toolRequestOf(request({}))).toBeUndefined();
    expect(toolRequestOf(request({ tools: [], tool_choice: 'none' }))).toBeUndefined();
  });

  it('gives the tools, the choice (auto by default) and parallel calls', () => {
    expect(toolRequestOf(request({ tools: [weather], parallel_tool_calls: false }))).toEqual({
      tools: [
        {
          name: 'get_weather',
          description: 'The weather in a city',
          parameters: weather.function.parameters,
        },
      ],
      choice: 'auto',
      parallel: false,
    });
    expect(
      toolRequestOf(request({ tools: [weather], tool_choice: { type: 'function', function: { name: 'get_weather' } } }))
        ?.choice,
    ).toEqual({ name: 'get_weather' });
    expect(toolRequestOf(request({ tools: [weather], tool_choice: 'required' }))?.choice).toBe('required');
  });

  it('gives a function without parameters an empty object schema', () => {
    const tools = toolRequestOf(request({ tools: [{ type: 'function', function: { name: 'now', strict: true } }] }))!;
    expect(tools.tools[0]).toEqual({ name: 'now', parameters: { type: 'object', properties: {} }, strict: true });
  });

  it('makes a conversation holding tool calls a tool turn even without tools, with none to call', () => {
    const turn = toolRequestOf(
      OpenAIChatCompletionRequest.parse({
        model: 'kasa',
        messages: [
          { role: 'user', content: 'Weather?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 'c1', content: 'Sunny' },
        ],
      }),
    );
    expect(turn).toEqual({ tools: [], choice: 'none' });
  });
});

describe('toolPromptMessageOf', () => {
  it('turns tool calls and tool results into prompt messages, naming each result’s tool', () => {
    const names = new Map<string, string>();
    const assistant = toolPromptMessageOf(
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Kumasi"}' } }],
      },
      names,
    );
    expect(assistant).toEqual({
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c1', name: 'get_weather', arguments: '{"city":"Kumasi"}' }],
    });
    expect(
      toolPromptMessageOf({ role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: '29 °C' }] }, names),
    ).toEqual({
      role: 'tool',
      content: '29 °C',
      toolCallId: 'c1',
      toolName: 'get_weather',
    });
    expect(toolPromptMessageOf({ role: 'user', content: 'Hi' }, names)).toBeUndefined();
  });
});

describe('keepToolExchangesWhole', () => {
  const question: PromptMessage = { role: 'user', content: 'Weather in Kumasi?' };
  const call: PromptMessage = { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'w', arguments: '{}' }] };
  const result: PromptMessage = { role: 'tool', content: 'Sunny', toolCallId: 'c1', toolName: 'w' };

  it('widens a history that starts with a tool result back to the question', () => {
    const all = [{ role: 'user', content: 'Hello' } as PromptMessage, question, call, result];
    expect(keepToolExchangesWhole(all, [result])).toEqual([question, call, result]);
  });

  it('leaves a history that starts with a user message alone', () => {
    const all = [question, call, result];
    expect(keepToolExchangesWhole(all, all)).toBe(all);
  });
});
