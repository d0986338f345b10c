import { z } from './zod';

/** The one error body every Kasa service and the gateway answer with. */
export const ErrorBody = z
  .object({
    message: z.string(),
    code: z.string(),
    details: z.unknown().optional(),
    requestId: z.string().optional(),
  })
  .openapi('Error');
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Stable machine-readable error codes, one per HTTP failure class. */
export const ErrorCode = {
  badRequest: 'bad_request',
  validation: 'validation_failed',
  malformedJson: 'malformed_json',
  unauthenticated: 'unauthenticated',
  forbidden: 'forbidden',
  notFound: 'not_found',
  conflict: 'conflict',
  payloadTooLarge: 'payload_too_large',
  unsupportedMediaType: 'unsupported_media_type',
  /**
   * 422: a file within the size limit that is too costly to read: it unpacks too far, has too many pages, parts or
   * pixels, or reading it ran out of its time or memory. `details` names the limit (`{ limit, max }`).
   */
  fileTooComplex: 'file_too_complex',
  rateLimited: 'rate_limited',
  /** The plan's monthly API call quota is used up (waiting a minute will not help). */
  quotaExceeded: 'quota_exceeded',
  /** An Idempotency-Key sent again with a different body, method or path. */
  idempotencyKeyReused: 'idempotency_key_reused',
  /** The first request with this Idempotency-Key is still running (retry after Retry-After). */
  idempotencyInProgress: 'idempotency_in_progress',
  upstreamUnavailable: 'upstream_unavailable',
  upstreamTimeout: 'upstream_timeout',
  internal: 'internal_error',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Object ids are 24 hex characters (MongoDB ObjectId). */
export const ObjectIdString = z.string().regex(/^[0-9a-fA-F]{24}$/, 'must be a 24-character hex id');
