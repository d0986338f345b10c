import { ErrorCode } from '@kasa/contracts';
import type { Logger } from '@kasa/service-kit';
import { sendError } from '../errors';
import type { EgPolicy } from '../eg/types';

/** The few commands of EG's data store (ioredis, or ioredis-mock when emulated) that the limiter uses. */
export interface CounterStore {
  multi(): {
    set(key: string, value: string, px: 'PX', ms: number, nx: 'NX'): ReturnType<CounterStore['multi']>;
    incr(key: string): ReturnType<CounterStore['multi']>;
    pttl(key: string): ReturnType<CounterStore['multi']>;
    exec(): Promise<Array<[Error | null, unknown]> | null>;
  };
}

interface RateLimitParams {
  /** Requests allowed per client IP and window. */
  max: number;
  windowMs: number;
  /** Counters are per bucket and IP: routes that share a bucket share the allowance. */
  bucket: string;
}

const KEY_PREFIX = 'kasa:gateway:rate-limit:';

/**
 * A fixed-window limit per client IP, counted in express-gateway's data store: its in-process Redis emulation by
 * default, the real Redis named by REDIS_URL when several gateway instances must share the counts. EG's stock
 * rate-limit policy answers in plain text without Retry-After; this one answers 429 in the shared error shape
 * with Retry-After and the RateLimit-* headers. If the store fails, requests pass (and a warning is logged): the
 * limit protects the auth service from guessing, and is not worth an outage of sign-in.
 *
 * `getStore` is called once per pipeline step, after EG has loaded its configuration (which the store needs).
 */
export function createRateLimitPolicy(deps: {
  getStore: () => CounterStore;
  logger: Logger;
}): EgPolicy<RateLimitParams> {
  return {
    name: 'kasa-rate-limit',
    schema: {
      $id: 'https://kasa.example/schemas/policies/kasa-rate-limit.json',
      type: 'object',
      properties: {
        max: { type: 'integer', minimum: 1 },
        windowMs: { type: 'integer', minimum: 1 },
        bucket: { type: 'string', minLength: 1 },
      },
      required: ['max', 'windowMs', 'bucket'],
    },
    policy: (params) => {
      const store = deps.getStore();
      const { max, windowMs } = params;
      const prefix = `${KEY_PREFIX}${params.bucket}:`;
      return (req, res, next) => {
        const key = prefix + (req.ip ?? req.socket.remoteAddress ?? 'unknown');
        const storeFailed = (err: unknown) => {
          deps.logger.warn(
            { err: err instanceof Error ? err.message : String(err), requestId: req.kasaRequestId },
            'rate-limit store failed; letting the request through',
          );
          next();
        };
        store
          .multi()
          .set(key, '0', 'PX', windowMs, 'NX')
          .incr(key)
          .pttl(key)
          .exec()
          .then((results) => {
            const count = Number(results?.[1]?.[1]);
            const ttlMs = Number(results?.[2]?.[1]);
            if (!Number.isFinite(count)) {
              storeFailed(results?.[1]?.[0] ?? new Error('rate-limit counter missing'));
              return;
            }
            const resetSeconds = Math.max(1, Math.ceil((ttlMs > 0 ? ttlMs : windowMs) / 1000));
            res.setHeader('RateLimit-Limit', String(max));
            res.setHeader('RateLimit-Remaining', String(Math.max(0, max - count)));
            res.setHeader('RateLimit-Reset', String(resetSeconds));
            if (count <= max) {
              next();
              return;
            }
            sendError(
              res,
              429,
              ErrorCode.rateLimited,
              `Too many attempts. Please try again in ${describeWait(resetSeconds)}.`,
              req.kasaRequestId,
              { 'retry-after': String(resetSeconds) },
            );
          }, storeFailed);
      };
    },
  };
}

function describeWait(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minutes`;
}
