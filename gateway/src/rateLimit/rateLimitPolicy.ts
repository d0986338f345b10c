import { ErrorCode } from '@kasa/contracts';
import type { Logger } from '@kasa/service-kit';
import { sendError } from '../errors';
import type { EgPolicy, GatewayRequest } from '../eg/types';
import type { QuotaCounter } from '../quota/quotaCounter';
import { clientAddressKey } from './clientAddress';

interface RateLimitParams {
  /** Requests allowed per client address and window. */
  max: number;
  windowMs: number;
  /** Counters are per bucket and address: routes that share a bucket share the allowance. */
  bucket: string;
}

/** Counters outlive their window a little, so instances whose clocks differ slightly still agree on the count. */
const CLOCK_SLACK_MS = 5_000;
const STORE_WARNING_INTERVAL_MS = 10_000;

/**
 * A fixed-window limit per client address (IPv4 address, or IPv6 /64 network: one subscriber's share), for the
 * routes anyone may call. Windows are aligned to the epoch (`floor(now / windowMs)`), so every gateway instance
 * names the same window alike and the reset time is known without asking the store.
 *
 * Counting uses the quota policy's counters: one atomic check-and-count (a `Map` step in this process, or the Lua
 * script in Redis when REDIS_URL is set), so N concurrent requests against an allowance of K let exactly K through,
 * and a refused request is not counted. Answers carry `RateLimit-Limit/-Remaining/-Reset` (the tightest limit of the
 * pipeline when several apply); past the limit, 429 in the shared error shape with `Retry-After`. If Redis fails,
 * requests pass (a warning at most every 10 s): the limit is not worth an outage.
 */
export function createRateLimitPolicy(deps: {
  getCounter: () => QuotaCounter;
  logger: Logger;
  now?: () => number;
}): EgPolicy<RateLimitParams> {
  const now = deps.now ?? Date.now;
  let lastWarningMs = 0;
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
      const counter = deps.getCounter();
      // EG's templating hands numbers over as they were written in the YAML; the schema has checked them.
      const max = Number(params.max);
      const windowMs = Number(params.windowMs);
      const prefix = `kasa:rate-limit:{${params.bucket}:`;
      return (req, res, next) => {
        const nowMs = now();
        const window = Math.floor(nowMs / windowMs);
        const resetMs = (window + 1) * windowMs;
        const settle = (allowed: boolean, count: number) => {
          const resetSeconds = Math.max(1, Math.ceil((resetMs - nowMs) / 1000));
          const remaining = Math.max(0, max - count);
          if (allowed) {
            // Several limits on one pipeline (sign-in has its own on top of the public one): show the tightest.
            const shown = res.getHeader('RateLimit-Remaining');
            if (shown === undefined || Number(shown) > remaining) {
              res.setHeader('RateLimit-Limit', String(max));
              res.setHeader('RateLimit-Remaining', String(remaining));
              res.setHeader('RateLimit-Reset', String(resetSeconds));
            }
            next();
            return;
          }
          res.setHeader('RateLimit-Limit', String(max));
          res.setHeader('RateLimit-Remaining', '0');
          res.setHeader('RateLimit-Reset', String(resetSeconds));
          sendError(
            res,
            429,
            ErrorCode.rateLimited,
            `Too many requests from your address. Please try again in ${describeWait(resetSeconds)}.`,
            req.kasaRequestId,
            { 'retry-after': String(resetSeconds) },
            { limit: 'per_address', bucket: params.bucket, max, resetsAt: new Date(resetMs).toISOString() },
          );
        };
        const storeFailed = (err: unknown) => {
          if (nowMs - lastWarningMs >= STORE_WARNING_INTERVAL_MS) {
            lastWarningMs = nowMs;
            deps.logger.warn(
              { err: err instanceof Error ? err.message : String(err), requestId: req.kasaRequestId },
              'rate-limit counters unavailable; letting requests through',
            );
          }
          next();
        };

        const key = `${prefix}${clientAddressKey(clientIp(req))}}:${window}`;
        let outcome;
        try {
          // One window only: the quota counter's "minute" slot, with no monthly counter.
          outcome = counter.admit({
            minuteKey: key,
            minuteLimit: max,
            minuteTtlMs: resetMs - nowMs + CLOCK_SLACK_MS,
            monthLimit: null,
            monthTtlMs: 0,
          });
        } catch (err) {
          storeFailed(err);
          return;
        }
        // The in-memory counter answers at once: no promise on the hot path of every public request.
        if (outcome instanceof Promise) outcome.then((r) => settle(r.allowed, r.minuteCount), storeFailed);
        else settle(outcome.allowed, outcome.minuteCount);
      };
    },
  };
}

/** The client's address as Express sees it (GATEWAY_TRUST_PROXY decides whether X-Forwarded-For counts). */
function clientIp(req: GatewayRequest): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

function describeWait(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minutes`;
}
