import { OpenAIResponseObject, OpenAIResponsesRequest, OpenAIResponseStreamEvent } from '@kasa/contracts';
import {
  ResponseOutput,
  isResponseId,
  newResponseId,
  outputItemId,
  responseIdOfItem,
  responseObjectOf,
  settingsOf,
  usageOf,
} from './responseObjects';

const ID = 'resp_0123456789abcdef0123456789abcdef';

function collect(): { output: ResponseOutput; events: OpenAIResponseStreamEvent[] } {
  const events: OpenAIResponseStreamEvent[] = [];
  // Each event as it went out (later steps change the items it named).
  const output = new ResponseOutput(ID, (event) => events.push(JSON.parse(JSON.stringify(event))));
  return { output, events };
}

const request = (body: Record<string, unknown> = {}) =>
  OpenAIResponsesRequest.parse({ model: 'kasa', input: 'Akwaaba', ...body });

const responseOf = (output: ResponseOutput, status: OpenAIResponseObject['status'] = 'completed') =>
  responseObjectOf({
    id: ID,
    createdAt: 1_700_000_000,
    model: 'kasa',
    status,
    output: output.items,
    usage: usageOf({ inputTokens: 12, outputTokens: 5 }),
    settings: settingsOf(request()),
  });

describe('ResponseOutput', () => {
  it('streams text then function calls in OpenAI’s event order, numbered from 0', () => {
    const { output, events } = collect();
    output.start(
      responseObjectOf({
        id: ID,
        createdAt: 1,
        model: 'kasa',
        status: 'in_progress',
        output: [],
        usage: null,
        settings: settingsOf(request()),
      }),
    );
    output.text('Let me ');
    output.text('check.');
    output.toolCall({ type: 'tool-call-start', id: 'call_a', name: 'get_weather' });
    output.toolCall({ type: 'tool-call-delta', id: 'call_a', arguments: '{"city":' });
    output.toolCall({ type: 'tool-call-start', id: 'call_b', name: 'get_time' });
    output.toolCall({ type: 'tool-call-delta', id: 'call_a', arguments: '"Accra"}' });
    output.toolCall({ type: 'tool-call', id: 'call_a', name: 'get_weather', arguments: '{"city":"Accra"}' });
    output.toolCall({ type: 'tool-call', id: 'call_b', name: 'get_time', arguments: '{}' });
    output.close();
    output.finish(responseOf(output));

    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    expect(events.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    // Every event is one the contract (and so the documented shape) accepts.
    for (const event of events) expect(OpenAIResponseStreamEvent.safeParse(event).success).toBe(true);

    const msg = outputItemId(ID, 'msg', 0);
    expect(events[2]).toMatchObject({
      output_index: 0,
      item: { id: msg, type: 'message', status: 'in_progress', role: 'assistant', content: [] },
    });
    expect(events[3]).toMatchObject({ item_id: msg, output_index: 0, content_index: 0, part: { text: '' } });
    expect(events[4]).toEqual({
      type: 'response.output_text.delta',
      item_id: msg,
      output_index: 0,
      content_index: 0,
      delta: 'Let me ',
      logprobs: [],
      sequence_number: 4,
    });
    expect(events[6]).toMatchObject({ type: 'response.output_text.done', text: 'Let me check.' });
    expect(events[8]).toMatchObject({
      item: { status: 'completed', content: [{ type: 'output_text', text: 'Let me check.', annotations: [] }] },
    });
    expect(events[9]).toMatchObject({
      output_index: 1,
      item: { type: 'function_call', status: 'in_progress', call_id: 'call_a', name: 'get_weather', arguments: '' },
    });
    expect(events[13]).toMatchObject({
      type: 'response.function_call_arguments.done',
      item_id: outputItemId(ID, 'fc', 1),
      output_index: 1,
      name: 'get_weather',
      arguments: '{"city":"Accra"}',
    });
    // A call that came whole gets its arguments in one delta.
    expect(events[15]).toMatchObject({ output_index: 2, delta: '{}' });

    expect(output.items).toEqual([
      {
        id: msg,
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Let me check.', annotations: [] }],
      },
      {
        id: outputItemId(ID, 'fc', 1),
        type: 'function_call',
        status: 'completed',
        call_id: 'call_a',
        name: 'get_weather',
        arguments: '{"city":"Accra"}',
      },
      {
        id: outputItemId(ID, 'fc', 2),
        type: 'function_call',
        status: 'completed',
        call_id: 'call_b',
        name: 'get_time',
        arguments: '{}',
      },
    ]);
    expect(events.at(-1)).toMatchObject({ response: { status: 'completed', output: output.items } });
  });

  it('sends the rest of a call whose pieces fell short, and opens a new message for text after a call', () => {
    const { output, events } = collect();
    output.toolCall({ type: 'tool-call-start', id: 'c1', name: 'lookup' });
    output.toolCall({ type: 'tool-call-delta', id: 'c1', arguments: '{"q":' });
    output.toolCall({ type: 'tool-call', id: 'c1', name: 'lookup', arguments: '{"q":"kente"}' });
    output.toolCall({ type: 'tool-call-delta', id: 'c1', arguments: 'late' });
    output.text('Done.');
    output.close();
    const deltas = events.filter((e) => e.type === 'response.function_call_arguments.delta');
    expect(deltas.map((e) => (e as { delta: string }).delta)).toEqual(['{"q":', '"kente"}']);
    expect(output.items.map((item) => [item.type, item.status])).toEqual([
      ['function_call', 'completed'],
      ['message', 'completed'],
    ]);
    expect(output.callCount).toBe(1);
  });

  it('closes what is open as incomplete and ends with response.failed or response.incomplete', () => {
    const { output, events } = collect();
    output.text('Half a');
    output.toolCall({ type: 'tool-call-start', id: 'c1', name: 'lookup' });
    output.close('incomplete');
    expect(output.items.map((item) => item.status)).toEqual(['completed', 'incomplete']);
    output.finish({ ...responseOf(output, 'failed'), error: { code: 'server_error', message: 'x' } });
    expect(events.at(-1)).toMatchObject({ type: 'response.failed', response: { status: 'failed' } });

    const cut = collect();
    cut.output.text('cut');
    cut.output.close();
    cut.output.finish(responseOf(cut.output, 'incomplete'));
    expect(cut.events.at(-1)).toMatchObject({
      type: 'response.incomplete',
      response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
    });
  });
});

describe('response objects', () => {
  it('have OpenAI’s documented fields, the request’s settings echoed with OpenAI’s defaults', () => {
    const output = new ResponseOutput(ID, () => undefined);
    output.text('Hi');
    output.close();
    const response = responseOf(output);
    expect(Object.keys(response).sort()).toEqual(
      [
        'id',
        'object',
        'created_at',
        'status',
        'background',
        'completed_at',
        'error',
        'incomplete_details',
        'instructions',
        'max_output_tokens',
        'max_tool_calls',
        'model',
        'output',
        'parallel_tool_calls',
        'previous_response_id',
        'reasoning',
        'safety_identifier',
        'service_tier',
        'store',
        'temperature',
        'text',
        'tool_choice',
        'tools',
        'top_logprobs',
        'top_p',
        'truncation',
        'usage',
        'user',
        'metadata',
      ].sort(),
    );
    expect(OpenAIResponseObject.safeParse(response).success).toBe(true);
    expect(response).toMatchObject({
      object: 'response',
      status: 'completed',
      error: null,
      incomplete_details: null,
      store: true,
      parallel_tool_calls: true,
      tool_choice: 'auto',
      tools: [],
      text: { format: { type: 'text' } },
      metadata: {},
      usage: {
        input_tokens: 12,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 5,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 17,
      },
    });
    expect('output_text' in response).toBe(false);

    const settings = settingsOf(
      request({
        instructions: 'Be brief.',
        tools: [{ type: 'function', name: 'f', parameters: { type: 'object' }, strict: null }],
        tool_choice: { type: 'function', name: 'f' },
        text: { format: { type: 'json_object' } },
        store: false,
        metadata: { run: '7' },
        previous_response_id: ID,
      }),
    );
    expect(settings).toMatchObject({
      instructions: 'Be brief.',
      tools: [{ type: 'function', name: 'f', description: null, parameters: { type: 'object' }, strict: null }],
      tool_choice: { type: 'function', name: 'f' },
      text: { format: { type: 'json_object' } },
      store: false,
      metadata: { run: '7' },
      previous_response_id: ID,
    });
  });

  it('give ids whose output items name the response they belong to', () => {
    const id = newResponseId();
    expect(isResponseId(id)).toBe(true);
    expect(responseIdOfItem(outputItemId(id, 'msg', 0))).toBe(id);
    expect(responseIdOfItem(outputItemId(id, 'fc', 12))).toBe(id);
    expect(responseIdOfItem('msg_67ccd2bf17f0819081ff3bb2cf6508e6')).toBeUndefined();
    expect(isResponseId('resp_../../etc')).toBe(false);
  });
});
