import type {
  OpenAIResponseObject,
  OpenAIResponseOutputItem,
  OpenAIResponsesRequest,
  OpenAIResponseStreamEvent,
  OpenAIResponseUsage,
} from '@kasa/contracts';
import { randomBytes } from 'node:crypto';
import type { ToolCallEvent } from '../providers/providerChain';

type MessageItem = Extract<OpenAIResponseOutputItem, { type: 'message' }>;
type FunctionCallItem = Extract<OpenAIResponseOutputItem, { type: 'function_call' }>;

const RESPONSE_ID = /^resp_[0-9a-f]{32}$/;
const ITEM_ID = /^(?:msg|fc)_([0-9a-f]{32})[0-9a-f]{4}$/;

/** `resp_` and 32 random hex digits. */
export const newResponseId = (): string => `resp_${randomBytes(16).toString('hex')}`;

/** Whether a text has the form of a response id (anything else is not found without asking the database). */
export const isResponseId = (id: string): boolean => RESPONSE_ID.test(id);

/**
 * An output item's id: its kind, its response's hex digits and its place in the output, so that a reference to the
 * item (`item_reference`) finds the stored response it belongs to by that response's id.
 */
export const outputItemId = (responseId: string, kind: 'msg' | 'fc', index: number): string =>
  `${kind}_${responseId.slice('resp_'.length)}${index.toString(16).padStart(4, '0')}`;

/** The response an output item's id belongs to, or undefined for an id Kasa did not give. */
export function responseIdOfItem(itemId: string): string | undefined {
  const match = ITEM_ID.exec(itemId);
  return match ? `resp_${match[1]}` : undefined;
}

/** The turn's tokens in the Responses API's shape. */
export function usageOf(result: { inputTokens: number; outputTokens: number }): OpenAIResponseUsage {
  return {
    input_tokens: result.inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: result.outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: result.inputTokens + result.outputTokens,
  };
}

/** What a response says about the request that asked for it, whatever its status. */
export type ResponseSettings = Pick<
  OpenAIResponseObject,
  | 'instructions'
  | 'max_output_tokens'
  | 'parallel_tool_calls'
  | 'previous_response_id'
  | 'safety_identifier'
  | 'store'
  | 'temperature'
  | 'text'
  | 'tool_choice'
  | 'tools'
  | 'top_p'
  | 'truncation'
  | 'user'
  | 'metadata'
>;

/** The request's settings as its response echoes them, OpenAI's defaults filled in. */
export function settingsOf(request: OpenAIResponsesRequest): ResponseSettings {
  return {
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: request.previous_response_id ?? null,
    safety_identifier: request.safety_identifier ?? null,
    store: request.store ?? true,
    temperature: request.temperature ?? null,
    text: { format: request.text?.format ?? { type: 'text' } },
    tool_choice: request.tool_choice ?? 'auto',
    tools: (request.tools ?? []).map((tool) => ({
      type: 'function' as const,
      name: tool.name,
      description: tool.description ?? null,
      parameters: tool.parameters ?? null,
      strict: tool.strict ?? null,
    })),
    top_p: request.top_p ?? null,
    truncation: request.truncation ?? 'disabled',
    user: request.user ?? null,
    metadata: request.metadata ?? {},
  };
}

/** A response object, field for field as OpenAI documents it. */
export function responseObjectOf(parts: {
  id: string;
  /** Seconds since the epoch. */
  createdAt: number;
  model: string;
  status: OpenAIResponseObject['status'];
  output: OpenAIResponseOutputItem[];
  usage: OpenAIResponseUsage | null;
  settings: ResponseSettings;
  error?: { code: string; message: string };
}): OpenAIResponseObject {
  const { settings } = parts;
  const done = parts.status === 'completed' || parts.status === 'incomplete';
  return {
    id: parts.id,
    object: 'response',
    created_at: parts.createdAt,
    status: parts.status,
    background: false,
    completed_at: done ? Math.floor(Date.now() / 1000) : null,
    error: parts.error ?? null,
    incomplete_details: parts.status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    instructions: settings.instructions,
    max_output_tokens: settings.max_output_tokens,
    max_tool_calls: null,
    model: parts.model,
    output: parts.output,
    parallel_tool_calls: settings.parallel_tool_calls,
    previous_response_id: settings.previous_response_id,
    reasoning: { effort: null, summary: null },
    safety_identifier: settings.safety_identifier,
    service_tier: 'default',
    store: settings.store,
    temperature: settings.temperature,
    text: settings.text,
    tool_choice: settings.tool_choice,
    tools: settings.tools,
    top_logprobs: 0,
    top_p: settings.top_p,
    truncation: settings.truncation,
    usage: parts.usage,
    user: settings.user,
    metadata: settings.metadata,
  };
}

/** An event as it is sent: everything but its place in the stream, which ResponseOutput gives it. */
type EventBody = OpenAIResponseStreamEvent extends infer E
  ? E extends OpenAIResponseStreamEvent
    ? Omit<E, 'sequence_number'>
    : never
  : never;

const copyOf = <T extends OpenAIResponseOutputItem>(item: T): T =>
  (item.type === 'message' ? { ...item, content: item.content.map((part) => ({ ...part })) } : { ...item }) as T;

/**
 * The output of one response as the turn produces it: a message item for the reply's text and a function_call item
 * for each call, in the order they come. Each step is also sent as OpenAI's stream event (numbered from 0), so a
 * streamed answer and a plain one build the same output; a plain answer passes `send` that does nothing.
 */
export class ResponseOutput {
  readonly items: OpenAIResponseOutputItem[] = [];
  private sequence = 0;
  private message?: { index: number; item: MessageItem; text: string };
  private readonly calls = new Map<string, { index: number; item: FunctionCallItem; done: boolean }>();

  constructor(
    private readonly responseId: string,
    private readonly send: (event: OpenAIResponseStreamEvent) => void,
  ) {}

  /** How many function calls the model has begun. */
  get callCount(): number {
    return this.calls.size;
  }

  /** `response.created` and `response.in_progress`, with the response as it starts (no output, no usage). */
  start(response: OpenAIResponseObject): void {
    this.emit({ type: 'response.created', response });
    this.emit({ type: 'response.in_progress', response });
  }

  /** A piece of the reply's text: the message item (and its text part) opens with the first one. */
  text(delta: string): void {
    if (!delta) return;
    const message = this.message ?? this.openMessage();
    message.text += delta;
    this.emit({
      type: 'response.output_text.delta',
      item_id: message.item.id,
      output_index: message.index,
      content_index: 0,
      delta,
      logprobs: [],
    });
  }

  /** A function call's start, a piece of its arguments, or the complete call (which closes its item). */
  toolCall(event: ToolCallEvent): void {
    const known = this.calls.get(event.id);
    if (known?.done) return;
    switch (event.type) {
      case 'tool-call-start':
        if (!known) this.openCall(event.id, event.name);
        return;
      case 'tool-call-delta':
        if (!known || !event.arguments) return;
        this.argumentsDelta(known, event.arguments);
        return;
      case 'tool-call': {
        const call = known ?? this.openCall(event.id, event.name);
        const sent = call.item.arguments;
        if (event.arguments.length > sent.length && event.arguments.startsWith(sent))
          this.argumentsDelta(call, event.arguments.slice(sent.length));
        this.closeCall(call, event.arguments, 'completed');
      }
    }
  }

  /** Closes every open item (`incomplete` when the turn failed or was cut off), sending their `.done` events. */
  close(status: 'completed' | 'incomplete' = 'completed'): void {
    this.closeMessage(status);
    for (const call of this.calls.values()) if (!call.done) this.closeCall(call, call.item.arguments, 'incomplete');
  }

  /** The last event: `response.completed`, `response.incomplete` or `response.failed`, by the response's status. */
  finish(response: OpenAIResponseObject): void {
    const type =
      response.status === 'failed'
        ? 'response.failed'
        : response.status === 'incomplete'
          ? 'response.incomplete'
          : 'response.completed';
    this.emit({ type, response });
  }

  private emit(event: EventBody): void {
    this.send({ ...event, sequence_number: this.sequence++ } as OpenAIResponseStreamEvent);
  }

  private openMessage(): NonNullable<ResponseOutput['message']> {
    const index = this.items.length;
    const item: MessageItem = {
      id: outputItemId(this.responseId, 'msg', index),
      type: 'message',
      status: 'in_progress',
      role: 'assistant',
      content: [],
    };
    this.items.push(item);
    this.message = { index, item, text: '' };
    this.emit({ type: 'response.output_item.added', output_index: index, item: copyOf(item) });
    this.emit({
      type: 'response.content_part.added',
      item_id: item.id,
      output_index: index,
      content_index: 0,
      part: { type: 'output_text', text: '', annotations: [] },
    });
    return this.message;
  }

  private closeMessage(status: 'completed' | 'incomplete'): void {
    const message = this.message;
    if (!message) return;
    this.message = undefined;
    const { item, index, text } = message;
    this.emit({
      type: 'response.output_text.done',
      item_id: item.id,
      output_index: index,
      content_index: 0,
      text,
      logprobs: [],
    });
    const part = { type: 'output_text' as const, text, annotations: [] };
    this.emit({ type: 'response.content_part.done', item_id: item.id, output_index: index, content_index: 0, part });
    item.content = [part];
    item.status = status;
    this.emit({ type: 'response.output_item.done', output_index: index, item: copyOf(item) });
  }

  private openCall(callId: string, name: string) {
    // A call ends the text before it: the text after it (if any) is a new message item.
    this.closeMessage('completed');
    const index = this.items.length;
    const item: FunctionCallItem = {
      id: outputItemId(this.responseId, 'fc', index),
      type: 'function_call',
      status: 'in_progress',
      call_id: callId,
      name,
      arguments: '',
    };
    this.items.push(item);
    const call = { index, item, done: false };
    this.calls.set(callId, call);
    this.emit({ type: 'response.output_item.added', output_index: index, item: copyOf(item) });
    return call;
  }

  private argumentsDelta(call: { index: number; item: FunctionCallItem }, delta: string): void {
    call.item.arguments += delta;
    this.emit({
      type: 'response.function_call_arguments.delta',
      item_id: call.item.id,
      output_index: call.index,
      delta,
    });
  }

  private closeCall(
    call: { index: number; item: FunctionCallItem; done: boolean },
    args: string,
    status: 'completed' | 'incomplete',
  ): void {
    call.done = true;
    call.item.arguments = args;
    call.item.status = status;
    this.emit({
      type: 'response.function_call_arguments.done',
      item_id: call.item.id,
      output_index: call.index,
      name: call.item.name,
      arguments: args,
    });
    this.emit({ type: 'response.output_item.done', output_index: call.index, item: copyOf(call.item) });
  }
}
