import { createLogger } from '@kasa/service-kit';
import type { ChatProvider, ProviderChunk, ProviderRequest } from './chatProvider';
import { ProviderChain, type ToolCallEvent } from './providerChain';

const logger = createLogger({ service: 'chat-test', version: 'test', level: 'silent' });
const breaker = { errorThresholdPercentage: 50, volumeThreshold: 100, resetTimeoutMs: 30_000, windowMs: 10_000 };
const timeouts = { firstTokenMs: 5_000, idleMs: 5_000, totalMs: 10_000 };
const tools = {
  tools: [{ name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
  choice: 'auto' as const,
};

/** A provider that streams the given chunks, then fails when `failAfter` is set. */
function provider(
  name: string,
  chunks: ProviderChunk[],
  options: { tools?: boolean; structuredOutput?: boolean; failAfter?: boolean; seen?: ProviderRequest[] } = {},
): ChatProvider {
  return {
    name,
    modelFor: () => `${name}-model`,
    tools: options.tools,
    structuredOutput: options.structuredOutput,
    async *stream(request: ProviderRequest): AsyncIterable<ProviderChunk> {
      options.seen?.push(request);
      for (const chunk of chunks) yield chunk;
      if (options.failAfter) throw Object.assign(new Error('upstream broke'), { statusCode: 500 });
    },
  };
}

const call: ProviderChunk[] = [
  { type: 'tool-call-start', id: 'c1', name: 'get_weather' },
  { type: 'tool-call-delta', id: 'c1', arguments: '{"city":"Accra"}' },
  { type: 'tool-call', id: 'c1', name: 'get_weather', arguments: '{"city":"Accra"}' },
  { type: 'usage', inputTokens: 10, outputTokens: 5, finishReason: 'tool_calls' },
];

describe('ProviderChain with tools and JSON replies', () => {
  let chain: ProviderChain | undefined;
  afterEach(() => chain?.shutdown());
  const turn = (extra: Record<string, unknown> = {}) => ({
    personaId: 'kasa',
    system: '',
    messages: [{ role: 'user' as const, content: 'Weather in Accra?' }],
    signal: new AbortController().signal,
    ...extra,
  });

  it('streams the tool calls of a provider that calls tools and ends the turn with tool_calls', async () => {
    const seen: ProviderRequest[] = [];
    chain = new ProviderChain(
      [provider('tooled', call, { tools: true, seen })],
      provider('offline', []),
      timeouts,
      breaker,
      logger,
    );
    expect(chain.callsTools()).toBe(true);
    const events: ToolCallEvent[] = [];
    const result = await chain.run(turn({ tools }), { onText: () => undefined, onToolCall: (e) => events.push(e) });
    expect(events.map((e) => e.type)).toEqual(['tool-call-start', 'tool-call-delta', 'tool-call']);
    expect(result).toMatchObject({
      status: 'complete',
      finishReason: 'tool_calls',
      provider: 'tooled',
      toolCalls: [{ id: 'c1', name: 'get_weather', arguments: '{"city":"Accra"}' }],
    });
    expect(seen[0]!.tools).toEqual(tools);
  });

  it('skips providers that cannot call tools, the offline one included', async () => {
    const offline: ProviderRequest[] = [];
    const blind: ProviderRequest[] = [];
    chain = new ProviderChain(
      [
        provider('plain', [{ type: 'text', text: 'no tools here' }], { seen: blind }),
        provider('tooled', call, { tools: true }),
      ],
      provider('offline', [{ type: 'text', text: 'offline' }], { seen: offline }),
      timeouts,
      breaker,
      logger,
    );
    const result = await chain.run(turn({ tools }), { onText: () => undefined });
    expect(result.provider).toBe('tooled');
    expect(blind).toHaveLength(0);
    expect(offline).toHaveLength(0);
  });

  it('falls over to the next provider when the first fails before answering anything', async () => {
    chain = new ProviderChain(
      [provider('broken', [], { tools: true, failAfter: true }), provider('tooled', call, { tools: true })],
      provider('offline', []),
      timeouts,
      breaker,
      logger,
    );
    const result = await chain.run(turn({ tools }), { onText: () => undefined });
    expect(result).toMatchObject({ status: 'complete', provider: 'tooled' });
    expect(result.attempts.map((a) => a.outcome)).toEqual(['server_error', 'ok']);
  });

  it('does not switch providers once a tool call has streamed: the turn fails instead', async () => {
    const next: ProviderRequest[] = [];
    chain = new ProviderChain(
      [
        provider('half', call.slice(0, 2), { tools: true, failAfter: true }),
        provider('tooled', call, { tools: true, seen: next }),
      ],
      provider('offline', []),
      timeouts,
      breaker,
      logger,
    );
    const events: ToolCallEvent[] = [];
    const result = await chain.run(turn({ tools }), { onText: () => undefined, onToolCall: (e) => events.push(e) });
    expect(result).toMatchObject({ status: 'failed', provider: 'half' });
    expect(events).toHaveLength(2);
    expect(next).toHaveLength(0);
  });

  it('does not let another provider continue a JSON reply either', async () => {
    const next: ProviderRequest[] = [];
    chain = new ProviderChain(
      [
        provider('half', [{ type: 'text', text: '{"a":' }], { structuredOutput: true, failAfter: true }),
        provider('whole', [{ type: 'text', text: '{"a":1}' }], { structuredOutput: true, seen: next }),
      ],
      provider('offline', []),
      timeouts,
      breaker,
      logger,
    );
    const result = await chain.run(turn({ output: { type: 'json' } }), { onText: () => undefined });
    expect(result).toMatchObject({ status: 'failed', text: '{"a":' });
    expect(next).toHaveLength(0);
  });

  it('still lets another provider continue a text reply', async () => {
    chain = new ProviderChain(
      [
        provider('half', [{ type: 'text', text: 'Hello ' }], { failAfter: true }),
        provider('rest', [{ type: 'text', text: 'world' }]),
      ],
      provider('offline', []),
      timeouts,
      breaker,
      logger,
    );
    const result = await chain.run(turn(), { onText: () => undefined });
    expect(result).toMatchObject({ status: 'complete', text: 'Hello world', provider: 'rest' });
  });

  it('says when no configured provider calls tools or gives JSON', () => {
    chain = new ProviderChain([provider('plain', [])], provider('offline', []), timeouts, breaker, logger);
    expect(chain.callsTools()).toBe(false);
    expect(chain.givesStructuredOutput()).toBe(false);
  });
});
