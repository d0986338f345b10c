import type { ToolCallEvent, TurnResult } from '../providers/providerChain';

/** A tool call as OpenAI's chat completion carries it. */
export interface OpenAIToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** One entry of a chunk's `delta.tool_calls`, as OpenAI streams it. */
export interface OpenAIToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function: { name?: string; arguments: string };
}

/** The complete tool calls of a turn, as the message of a chat completion carries them. */
export function toolCallsOf(result: Pick<TurnResult, 'toolCalls'>): OpenAIToolCall[] {
  return (result.toolCalls ?? []).map((call) => ({
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
}

/**
 * A turn's tool call events as OpenAI's streamed `delta.tool_calls`: each call gets the next index; its first delta
 * has the index, id, type and function name with empty arguments, the next ones pieces of its arguments under the
 * same index. A call that arrives whole (from a provider that does not stream arguments) is sent in one delta, and a
 * complete call whose streamed pieces fell short gets the rest, so the pieces always add up to the call.
 */
export class ToolCallChunks {
  private readonly calls = new Map<string, { index: number; sent: string }>();

  constructor(private readonly send: (deltas: OpenAIToolCallDelta[]) => void) {}

  /** How many calls have started. */
  get count(): number {
    return this.calls.size;
  }

  add(event: ToolCallEvent): void {
    const known = this.calls.get(event.id);
    switch (event.type) {
      case 'tool-call-start':
        if (known) return;
        this.start(event.id, event.name, '');
        return;
      case 'tool-call-delta':
        // A provider always names the call first; a piece of an unknown call has nowhere to go.
        if (!known || !event.arguments) return;
        known.sent += event.arguments;
        this.send([{ index: known.index, function: { arguments: event.arguments } }]);
        return;
      case 'tool-call': {
        if (!known) {
          this.start(event.id, event.name, event.arguments);
          return;
        }
        if (event.arguments.length > known.sent.length && event.arguments.startsWith(known.sent)) {
          const rest = event.arguments.slice(known.sent.length);
          known.sent = event.arguments;
          this.send([{ index: known.index, function: { arguments: rest } }]);
        }
        return;
      }
    }
  }

  private start(id: string, name: string, args: string): void {
    const index = this.calls.size;
    this.calls.set(id, { index, sent: args });
    this.send([{ index, id, type: 'function', function: { name, arguments: args } }]);
  }
}
