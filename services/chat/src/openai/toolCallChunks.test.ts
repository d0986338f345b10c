import { ToolCallChunks, toolCallsOf, type OpenAIToolCallDelta } from './toolCallChunks';

function collect(): { chunks: ToolCallChunks; sent: OpenAIToolCallDelta[] } {
  const sent: OpenAIToolCallDelta[] = [];
  return { chunks: new ToolCallChunks((deltas) => sent.push(...deltas)), sent };
}

describe('ToolCallChunks', () => {
  it('streams each call as OpenAI does: a first delta with id, type and name, then argument pieces by index', () => {
    const { chunks, sent } = collect();
    chunks.add({ type: 'tool-call-start', id: 'call_a', name: 'get_weather' });
    chunks.add({ type: 'tool-call-delta', id: 'call_a', arguments: '{"city":' });
    chunks.add({ type: 'tool-call-start', id: 'call_b', name: 'get_time' });
    chunks.add({ type: 'tool-call-delta', id: 'call_a', arguments: '"Accra"}' });
    chunks.add({ type: 'tool-call', id: 'call_a', name: 'get_weather', arguments: '{"city":"Accra"}' });
    chunks.add({ type: 'tool-call-delta', id: 'call_b', arguments: '{}' });
    chunks.add({ type: 'tool-call', id: 'call_b', name: 'get_time', arguments: '{}' });
    expect(sent).toEqual([
      { index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } },
      { index: 0, function: { arguments: '{"city":' } },
      { index: 1, id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '' } },
      { index: 0, function: { arguments: '"Accra"}' } },
      { index: 1, function: { arguments: '{}' } },
    ]);
    expect(chunks.count).toBe(2);
  });

  it('sends a call that arrives whole in one delta, and the rest of one whose pieces fell short', () => {
    const { chunks, sent } = collect();
    chunks.add({ type: 'tool-call', id: 'call_1', name: 'lookup', arguments: '{"q":"kente"}' });
    chunks.add({ type: 'tool-call-start', id: 'call_2', name: 'lookup' });
    chunks.add({ type: 'tool-call-delta', id: 'call_2', arguments: '{"q":' });
    chunks.add({ type: 'tool-call', id: 'call_2', name: 'lookup', arguments: '{"q":"adinkra"}' });
    expect(sent).toEqual([
      { index: 0, id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"kente"}' } },
      { index: 1, id: 'call_2', type: 'function', function: { name: 'lookup', arguments: '' } },
      { index: 1, function: { arguments: '{"q":' } },
      { index: 1, function: { arguments: '"adinkra"}' } },
    ]);
  });

  it('ignores a piece of a call that never started', () => {
    const { chunks, sent } = collect();
    chunks.add({ type: 'tool-call-delta', id: 'ghost', arguments: '{}' });
    expect(sent).toEqual([]);
    expect(chunks.count).toBe(0);
  });
});

describe('toolCallsOf', () => {
  it('gives the turn’s calls in OpenAI’s message shape', () => {
    expect(toolCallsOf({ toolCalls: [{ id: 'call_1', name: 'f', arguments: '{"a":1}' }] })).toEqual([
      { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } },
    ]);
    expect(toolCallsOf({})).toEqual([]);
  });
});
