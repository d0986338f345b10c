import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';

/** Only ids that are safe to echo into logs and headers are taken from outside; anything else gets a fresh one. */
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFrom(req: IncomingMessage): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  return value && SAFE_ID.test(value) ? value : randomUUID();
}

/** The id the request was logged under (set by createServiceApp's request logger). */
export function requestIdOf(req: IncomingMessage): string {
  return String((req as IncomingMessage & { id?: unknown }).id ?? '');
}
