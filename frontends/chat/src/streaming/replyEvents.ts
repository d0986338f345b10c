import type { AssistantReply, MessageStatus } from '@kasa/contracts';
import { serverSentEvents, type ServerSentEvent } from './serverSentEvents';

/** A provider started answering (a second one with `continued: true` after a mid-stream failover). */
export interface ReplyMeta {
  userMessageId: string;
  assistantMessageId: string;
  provider: string;
  model: string;
  continued: boolean;
}

/** The events of a streamed reply (services/chat README, "Sending a message"), checked and typed. */
export type ReplyEvent =
  | { type: 'meta'; meta: ReplyMeta }
  /** The reply waits its turn at the local model: its place in line (1 = next; 0 once its turn came). */
  | { type: 'queued'; position: number }
  | { type: 'token'; text: string }
  | { type: 'done'; reply: AssistantReply }
  | { type: 'error'; message: string };

const STATUSES: ReadonlySet<string> = new Set<MessageStatus>(['streaming', 'complete', 'stopped', 'failed']);

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;
const isString = (value: unknown): value is string => typeof value === 'string';

function parseJson(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}

function toMeta(data: unknown): ReplyMeta | null {
  if (!isObject(data) || !isString(data.assistantMessageId) || !isString(data.provider)) return null;
  return {
    userMessageId: isString(data.userMessageId) ? data.userMessageId : '',
    assistantMessageId: data.assistantMessageId,
    provider: data.provider,
    model: isString(data.model) ? data.model : '',
    continued: data.continued === true,
  };
}

function toReply(data: unknown): AssistantReply | null {
  if (!isObject(data)) return null;
  const { id, role, content, timestamp, status } = data;
  if (!isString(id) || role !== 'assistant' || !isString(content) || !isString(timestamp)) return null;
  if (!isString(status) || !STATUSES.has(status)) return null;
  return {
    id,
    role,
    content,
    timestamp,
    type: data.type === 'voice' || data.type === 'image' ? data.type : 'text',
    status: status as MessageStatus,
    ...(isString(data.provider) ? { provider: data.provider } : {}),
    ...(isString(data.model) ? { model: data.model } : {}),
    userMessageId: isString(data.userMessageId) ? data.userMessageId : '',
  };
}

/**
 * One Server-Sent Event of a reply as a typed event. The data is checked by hand rather than with the contracts'
 * zod schemas, which would put zod into the browser bundle (see @kasa/api-client). Unknown events and malformed
 * data give null and are skipped.
 */
export function toReplyEvent(message: ServerSentEvent): ReplyEvent | null {
  const data = parseJson(message.data);
  switch (message.event) {
    case 'meta': {
      const meta = toMeta(data);
      return meta && { type: 'meta', meta };
    }
    case 'token':
      return isObject(data) && isString(data.text) ? { type: 'token', text: data.text } : null;
    case 'queued':
      return isObject(data) && Number.isInteger(data.position) && (data.position as number) >= 0
        ? { type: 'queued', position: data.position as number }
        : null;
    case 'done': {
      const reply = toReply(data);
      return reply && { type: 'done', reply };
    }
    case 'error':
      return {
        type: 'error',
        message: isObject(data) && isString(data.message) ? data.message : 'The reply could not be completed.',
      };
    default:
      return null;
  }
}

/**
 * Reads a `text/event-stream` body to its end (or until `signal` aborts, which cancels the body), calling `onEvent`
 * for each reply event in order. Chunks may split events, lines and multi-byte characters anywhere; @kasa/sdk's
 * reader puts them back together. A body that fails (a dropped connection) rejects.
 */
export async function readReplyEvents(
  body: ReadableStream<Uint8Array>,
  onEvent: (event: ReplyEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  for await (const message of serverSentEvents(body, signal)) {
    const event = toReplyEvent(message);
    if (event) onEvent(event);
    if (signal?.aborted) return;
  }
}
