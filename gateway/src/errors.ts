import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { ErrorBody } from '@kasa/contracts';

/**
 * Answers with the shared error body `{ message, code, details?, requestId }`. The gateway writes raw Node responses
 * (no Express helpers) because it sits on the hot path of every request.
 */
export function sendError(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  requestId: string | undefined,
  headers: OutgoingHttpHeaders = {},
  details?: unknown,
): void {
  if (res.headersSent) {
    // Too late for a status: cut the response so the client sees a failure, not a silently truncated success.
    res.destroy();
    return;
  }
  const body: ErrorBody = { message, code, requestId: requestId ?? '' };
  if (details !== undefined) body.details = details;
  const json = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
    'cache-control': 'no-store',
  });
  res.end(json);
}
