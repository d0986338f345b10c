import { ErrorCode } from '@kasa/contracts';

/**
 * The small fixed set of errors a handler throws. One middleware (see `errorHandler`) turns them into the shared
 * error body with the right status; anything else becomes a 500 whose details never leave the process.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class InputError extends HttpError {
  constructor(message: string, details?: unknown, code: string = ErrorCode.validation) {
    super(400, code, message, details);
  }
}
export class AuthenticationError extends HttpError {
  constructor(message = 'Authentication required') {
    super(401, ErrorCode.unauthenticated, message);
  }
}
export class NotAllowedError extends HttpError {
  constructor(message: string, details?: unknown) {
    super(403, ErrorCode.forbidden, message, details);
  }
}
export class NotFoundError extends HttpError {
  constructor(message = 'Not found') {
    super(404, ErrorCode.notFound, message);
  }
}
export class ConflictError extends HttpError {
  constructor(message: string, details?: unknown) {
    super(409, ErrorCode.conflict, message, details);
  }
}
export class PayloadTooLargeError extends HttpError {
  constructor(message = 'The request body is too large') {
    super(413, ErrorCode.payloadTooLarge, message);
  }
}
/**
 * 429: the caller is at a limit for now. The shared error handler sends `Retry-After` with it, so every route's
 * refusal tells clients when to try again in the same way.
 */
export class TooManyRequestsError extends HttpError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    details?: unknown,
    code: string = ErrorCode.rateLimited,
  ) {
    super(429, code, message, details);
  }
}
export class ServiceUnavailableError extends HttpError {
  constructor(message: string) {
    super(503, ErrorCode.upstreamUnavailable, message);
  }
}
