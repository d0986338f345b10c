import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { isOpenAIPath, openAIErrorOf, type ErrorBody, type OpenAIError } from '@kasa/contracts';

/**
 * Answers with the shared error body `{ message, code, details?, requestId }`; on the OpenAI-compatible `/v1/*`
 * routes the body also carries OpenAI's `error` object, which OpenAI's client libraries read. The gateway writes raw
 * Node responses (no Express helpers) because it sits on the hot path of every request.
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
  const body: ErrorBody & { error?: OpenAIError } = { message, code, requestId: requestId ?? '' };
  if (details !== undefined) body.details = details;
  const req = (res as ServerResponse & { req?: IncomingMessage & { originalUrl?: string } }).req;
  if (isOpenAIPath(req?.originalUrl ?? req?.url)) {
    body.error = openAIErrorOf(status, body);
  }
  const json = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
    'cache-control': 'no-store',
  });
  res.end(json);
}
