import {
  ErrorCode,
  isOpenAIPath,
  openAIErrorOf,
  openAIParamOf,
  payloadTooLargeMessage,
  type ErrorBody,
  type OpenAIError,
} from '@kasa/contracts';
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { z } from 'zod';
import { isDatabaseUnavailableError, isQueryTimeLimitError } from './db';
import { HttpError, type TooManyRequestsError } from './errors';
import { describeIssues } from './validation';

/** Body-parser's errors carry a `type` and a `status`; these are the ones a client causes. */
interface BodyParserError extends Error {
  type?: string;
  status?: number;
  /** entity.too.large: the limit in bytes. */
  limit?: number;
}

/**
 * The shared error body; on the OpenAI-compatible `/v1/*` paths it also carries OpenAI's `error` object (which
 * OpenAI's client libraries read), whatever failed: a body too large or not JSON, an unknown path, a thrown error;
 * its `param` names the request field at fault where the details say (openAIParamOf).
 */
function errorBodyOf(req: Request, status: number, body: ErrorBody): ErrorBody & { error?: OpenAIError } {
  return isOpenAIPath(req.originalUrl)
    ? { ...body, error: openAIErrorOf(status, body, openAIParamOf(body.details)) }
    : body;
}

function toHttpError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  if (err instanceof z.ZodError) {
    const issues = describeIssues(err);
    return new HttpError(400, ErrorCode.validation, issues[0]?.message ?? 'Invalid request', issues);
  }
  const parserError = err as BodyParserError;
  switch (parserError?.type) {
    case 'entity.parse.failed':
      return new HttpError(400, ErrorCode.malformedJson, 'The request body is not valid JSON');
    case 'entity.too.large':
      return new HttpError(
        413,
        ErrorCode.payloadTooLarge,
        typeof parserError.limit === 'number'
          ? payloadTooLargeMessage(parserError.limit)
          : 'The request body is too large',
      );
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new HttpError(415, ErrorCode.unsupportedMediaType, 'The request body encoding is not supported');
    case 'request.aborted':
      return new HttpError(400, ErrorCode.badRequest, 'The request was aborted');
  }
  if (isDatabaseUnavailableError(err)) {
    return new HttpError(
      503,
      ErrorCode.upstreamUnavailable,
      'Our database is not answering right now. Please try again in a few seconds.',
    );
  }
  if (isQueryTimeLimitError(err)) {
    return new HttpError(
      503,
      ErrorCode.upstreamUnavailable,
      'This took our database longer than it allows. Please try again in a few seconds.',
    );
  }
  if (typeof parserError?.status === 'number' && parserError.status >= 400 && parserError.status < 500) {
    return new HttpError(parserError.status, ErrorCode.badRequest, 'Bad request');
  }
  return new HttpError(500, ErrorCode.internal, 'Something went wrong on our side. Please try again.');
}

/**
 * Turns any thrown error into the shared error body. Only 5xx are logged as errors (with the stack, in the log,
 * never in the response); 4xx are the client's business.
 */
export function errorHandler(): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const httpError = toHttpError(err);
    if (isDatabaseUnavailableError(err) || isQueryTimeLimitError(err)) {
      // An outage or overload, not a bug: one line per request without the stack, and a hint for clients when to retry.
      req.log?.warn({ err: (err as Error).message }, 'request failed: database unavailable or over its time limit');
      res.setHeader('Retry-After', '5');
    } else if (httpError.status >= 500) req.log?.error({ err }, 'request failed');
    // A 429 (and any refusal that knows when to try again, such as a busy pool's 503) tells clients when.
    const retryAfter = (httpError as Partial<TooManyRequestsError>).retryAfterSeconds;
    if (typeof retryAfter === 'number') res.setHeader('Retry-After', String(retryAfter));
    const body: ErrorBody = { message: httpError.message, code: httpError.code, requestId: String(req.id ?? '') };
    if (httpError.details !== undefined) body.details = httpError.details;
    res.status(httpError.status).json(errorBodyOf(req, httpError.status, body));
  };
}

/** The JSON 404 for any path no router claimed. */
export function notFoundHandler(): RequestHandler {
  return (req, res) => {
    const body: ErrorBody = {
      message: `No route for ${req.method} ${req.path}`,
      code: ErrorCode.notFound,
      requestId: String(req.id ?? ''),
    };
    res.status(404).json(errorBodyOf(req, 404, body));
  };
}
