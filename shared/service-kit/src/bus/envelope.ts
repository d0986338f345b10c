import {
  CloudEventEnvelope,
  EventSchemas,
  isEventType,
  type EventData,
  type EventType,
  type KasaEvent,
} from '@kasa/contracts';
import { randomUUID } from 'node:crypto';
import type { ZodError, ZodType } from 'zod';
import { describeIssues } from '../validation';

/** Thrown by `EventBus.publish` when the event does not match its contract; nothing is sent. */
export class InvalidEventError extends Error {
  constructor(
    readonly eventType: string,
    readonly problem: string,
  ) {
    super(`Invalid event "${eventType}": ${problem}`);
    this.name = 'InvalidEventError';
  }
}

/** The first few problems of a zod error on one line; zod's messages name types, never the offending values. */
function summarize(error: ZodError, prefix: string): string {
  const issues = describeIssues(error);
  const shown = issues.slice(0, 3).map((issue) => {
    const path = [prefix, issue.path].filter(Boolean).join('.');
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  if (issues.length > shown.length) shown.push(`(${issues.length - shown.length} more)`);
  return shown.join('; ');
}

function dataSchema(type: EventType): ZodType {
  return EventSchemas[type] as ZodType;
}

/**
 * Validates `data` against the contract of `type` and wraps it in a CloudEvents 1.0 envelope. The envelope carries
 * the parsed data, so unknown fields never leave the publisher. Throws an InvalidEventError naming the type and problem.
 */
export function createEnvelope<T extends EventType>(
  type: T,
  data: EventData<T>,
  options: { source: string; id?: string; requestId?: string; traceparent?: string; time?: Date },
): CloudEventEnvelope {
  if (typeof type !== 'string' || !isEventType(type)) {
    throw new InvalidEventError(String(type), 'unknown event type (not in EventSchemas of @kasa/contracts)');
  }
  const parsed = dataSchema(type).safeParse(data);
  if (!parsed.success) throw new InvalidEventError(type, summarize(parsed.error, 'data'));
  const envelope = CloudEventEnvelope.safeParse({
    specversion: '1.0',
    id: options.id ?? randomUUID(),
    source: options.source,
    type,
    time: (options.time ?? new Date()).toISOString(),
    datacontenttype: 'application/json',
    ...(options.requestId !== undefined ? { kasarequestid: options.requestId } : {}),
    ...(options.traceparent !== undefined ? { traceparent: options.traceparent } : {}),
    data: parsed.data,
  });
  if (!envelope.success) throw new InvalidEventError(type, summarize(envelope.error, ''));
  return envelope.data;
}

/** A decoded message: a validated event, or the reason it is poison (with whatever ids could be read). */
export type DecodeResult =
  { ok: true; event: KasaEvent } | { ok: false; problem: string; eventId?: string; type?: string; requestId?: string };

/** Reads a string field of an object that failed validation, for logging; never more than an id-sized string. */
function stringField(value: unknown, key: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const field = (value as Record<string, unknown>)[key];
  return typeof field === 'string' ? field.slice(0, 128) : undefined;
}

/**
 * Parses and validates a message body: JSON, then the CloudEvents envelope, then the event type, then `data` against
 * the contract. Problems never quote the body (it may hold personal data), only paths and expected types.
 */
export function decodeEvent(content: Buffer): DecodeResult {
  let json: unknown;
  try {
    json = JSON.parse(content.toString('utf8'));
  } catch {
    // SyntaxError messages quote the body, so they are not passed on.
    return { ok: false, problem: 'body is not valid JSON' };
  }
  const ids = {
    eventId: stringField(json, 'id'),
    type: stringField(json, 'type'),
    requestId: stringField(json, 'kasarequestid'),
  };
  const envelope = CloudEventEnvelope.safeParse(json);
  if (!envelope.success)
    return { ok: false, problem: `invalid CloudEvents envelope: ${summarize(envelope.error, '')}`, ...ids };
  const { id, type, source, time, kasarequestid, traceparent, data } = envelope.data;
  if (!isEventType(type)) return { ok: false, problem: 'unknown event type', ...ids };
  const parsed = dataSchema(type).safeParse(data);
  if (!parsed.success) return { ok: false, problem: summarize(parsed.error, 'data'), ...ids };
  const event: KasaEvent = { id, type, source, time, data: parsed.data as EventData<EventType> };
  if (kasarequestid !== undefined) event.requestId = kasarequestid;
  if (traceparent !== undefined) event.traceparent = traceparent;
  return { ok: true, event };
}
