import { ErrorCode, type ErrorBody } from './common';

/**
 * The error object OpenAI's API answers with, which its client libraries read (`error.message`, `error.type`,
 * `error.code`, `error.param`). Every answer on `/v1/*` carries it beside Kasa's own `{ message, code, requestId }`,
 * whoever produced the error (the gateway or the chat service).
 */
export interface OpenAIError {
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

const TYPE_BY_STATUS: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'invalid_request_error',
  413: 'invalid_request_error',
  415: 'invalid_request_error',
  422: 'invalid_request_error',
  429: 'rate_limit_error',
};

/** Kasa's codes as OpenAI names them where OpenAI has a name; other codes pass through unchanged. */
const CODE_NAMES: Partial<Record<string, string>> = {
  [ErrorCode.quotaExceeded]: 'insufficient_quota',
  [ErrorCode.rateLimited]: 'rate_limit_exceeded',
  [ErrorCode.unauthenticated]: 'invalid_api_key',
  [ErrorCode.notFound]: 'not_found',
};

/** True for paths of the OpenAI-compatible API. */
export const isOpenAIPath = (url: string | undefined): boolean =>
  url !== undefined && (url === '/v1' || url.startsWith('/v1/') || url.startsWith('/v1?'));

/** OpenAI's error object for a Kasa error answered with `status`; `param` names the offending request field. */
export function openAIErrorOf(status: number, body: Pick<ErrorBody, 'message' | 'code'>, param?: string): OpenAIError {
  return {
    message: body.message,
    type: TYPE_BY_STATUS[status] ?? 'api_error',
    param: param ?? null,
    code: CODE_NAMES[body.code] ?? body.code,
  };
}

/**
 * The request field an error is about, OpenAI's `param`: the path of the first problem validation reported (`details`
 * as a list of `{path, message}`), or the `param` a service named in its `details`.
 */
export function openAIParamOf(details: unknown): string | undefined {
  const named = Array.isArray(details) ? (details[0] as { path?: unknown } | undefined)?.path : undefined;
  if (typeof named === 'string' && named) return named;
  const param = details && typeof details === 'object' ? (details as { param?: unknown }).param : undefined;
  return typeof param === 'string' && param ? param : undefined;
}
