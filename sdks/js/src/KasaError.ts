/** The error body every Kasa service and the gateway answer with. */
export interface KasaErrorBody {
  message: string;
  code: string;
  details?: unknown;
  requestId?: string;
}

/** `code` of a KasaError raised when no HTTP answer arrived at all (DNS, refused or dropped connection). */
export const NETWORK_ERROR = 'network_error';
/** `code` of a KasaTimeoutError: the API did not start answering within the client's `timeoutMs`. */
export const REQUEST_TIMEOUT = 'request_timeout';
/** `code` of a KasaError raised when a streamed reply reported an error after it had started. */
export const STREAM_ERROR = 'stream_error';
/** `code` of a KasaError raised when a wait (`video.wait`) ran out of time before what it waited for happened. */
export const WAIT_TIMEOUT = 'wait_timeout';
/** `code` of a KasaError raised by `video.download` for a job that has no video (it has not succeeded). */
export const VIDEO_NOT_READY = 'video_not_ready';

/**
 * A failed call to the Kasa API. `status` is the HTTP status (0 when no answer arrived), `code` the API's stable
 * error code (`validation_failed`, `not_found`, `rate_limited`, ...), `details` what the API added (for a 400, which
 * field is wrong and why), `requestId` the id to quote when asking for support.
 */
export class KasaError extends Error {
  override readonly name: string = 'KasaError';
  readonly status: number;
  readonly code: string;
  readonly details: unknown;
  readonly requestId: string | undefined;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    details?: unknown;
    requestId?: string | undefined;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.requestId = init.requestId;
  }
}

type KasaErrorInit = ConstructorParameters<typeof KasaError>[0];

/*
 * One subclass per kind of failure a program handles differently, as OpenAI's and Anthropic's SDKs have: catch
 * `KasaRateLimitError` to wait, `KasaAuthenticationError` to sign in again, and so on. Each is a KasaError with the
 * same fields, so code that checks `instanceof KasaError` and `code` keeps working.
 */
/** 400 or 422: the request is not valid; `details` says which field and why. */
export class KasaBadRequestError extends KasaError {
  override readonly name: string = 'KasaBadRequestError';
}
/** 401: no credential, or one that is wrong, expired or revoked. */
export class KasaAuthenticationError extends KasaError {
  override readonly name: string = 'KasaAuthenticationError';
}
/** 403: the credential may not do this (a key without the scope, a plan without the feature). */
export class KasaPermissionError extends KasaError {
  override readonly name: string = 'KasaPermissionError';
}
/** 404: no such thing, or not the caller's. */
export class KasaNotFoundError extends KasaError {
  override readonly name: string = 'KasaNotFoundError';
}
/** 409: the request conflicts with the current state (or with an Idempotency-Key still in progress). */
export class KasaConflictError extends KasaError {
  override readonly name: string = 'KasaConflictError';
}
/** 429: a rate limit, a concurrency limit or the monthly quota (`code` says which); retried first when safe. */
export class KasaRateLimitError extends KasaError {
  override readonly name: string = 'KasaRateLimitError';
}
/** 5xx: Kasa or a provider behind it failed; retried first when safe. */
export class KasaServerError extends KasaError {
  override readonly name: string = 'KasaServerError';
}
/** No answer at all: DNS, a refused or dropped connection (`status` 0, `code` network_error). */
export class KasaConnectionError extends KasaError {
  override readonly name: string = 'KasaConnectionError';
}
/** The API did not start answering within `timeoutMs` (`status` 0, `code` request_timeout). */
export class KasaTimeoutError extends KasaConnectionError {
  override readonly name: string = 'KasaTimeoutError';
}

/** The KasaError of an HTTP answer's status: its subclass when one fits, else KasaError itself. */
export function errorForStatus(init: KasaErrorInit): KasaError {
  const { status } = init;
  if (status === 400 || status === 422) return new KasaBadRequestError(init);
  if (status === 401) return new KasaAuthenticationError(init);
  if (status === 403) return new KasaPermissionError(init);
  if (status === 404) return new KasaNotFoundError(init);
  if (status === 409) return new KasaConflictError(init);
  if (status === 429) return new KasaRateLimitError(init);
  if (status >= 500) return new KasaServerError(init);
  return new KasaError(init);
}

/** True for a KasaError, also one made by another copy of this package (checked by name, not only by prototype). */
export function isKasaError(error: unknown): error is KasaError {
  return (
    error instanceof KasaError || (error instanceof Error && /^Kasa\w*Error$/.test(error.name) && 'status' in error)
  );
}

function isErrorBody(body: unknown): body is Partial<KasaErrorBody> {
  return typeof body === 'object' && body !== null;
}

/** Fallback codes when the answer is not Kasa's error JSON (a proxy's HTML page, say). */
function codeForStatus(status: number): string {
  if (status === 400) return 'bad_request';
  if (status === 401) return 'unauthenticated';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 413) return 'payload_too_large';
  if (status === 415) return 'unsupported_media_type';
  if (status === 429) return 'rate_limited';
  if (status === 504) return 'upstream_timeout';
  if (status >= 500) return 'upstream_unavailable';
  return 'http_error';
}

/** Reads a non-OK response into a KasaError; a body that is not Kasa's error JSON still gives status and a code. */
export async function errorFromResponse(response: Response): Promise<KasaError> {
  let body: unknown;
  try {
    const text = await response.text();
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  const parsed = isErrorBody(body) ? body : {};
  const message =
    typeof parsed.message === 'string' && parsed.message.trim() !== ''
      ? parsed.message
      : `HTTP error! status: ${response.status}`;
  return errorForStatus({
    status: response.status,
    code: typeof parsed.code === 'string' ? parsed.code : codeForStatus(response.status),
    message,
    details: parsed.details,
    requestId:
      typeof parsed.requestId === 'string' ? parsed.requestId : (response.headers.get('x-request-id') ?? undefined),
  });
}
