import { ErrorCode, teamPrincipalId, type SubscriptionTier } from '@kasa/contracts';
import type { Logger } from '@kasa/service-kit';
import { sendError } from '../errors';
import type { EgPolicy, GatewayRequest, GatewayResponse } from '../eg/types';
import { monthlyQuotaMessage, perMinuteMessage, type QuotaLimits } from './plans';
import type { AdmitRequest, AdmitResult, QuotaCounter } from './quotaCounter';
import { thresholdsReached, type QuotaThresholdReached } from './quotaThresholds';
import { cachedMonthWindow, minuteWindow } from './windows';

interface QuotaParams {
  /** Whether calls on this pipeline count towards the plan's monthly quota (the per-minute limit always applies). */
  monthly?: boolean;
}

/** A limit as the response headers describe it. */
interface LimitState {
  name: 'monthly' | 'per_minute';
  limit: number;
  remaining: number;
  resetMs: number;
}

/** Keys outlive their window a little, so instances whose clocks differ slightly still agree on the count. */
const CLOCK_SLACK_MS = 5_000;
const MONTH_SLACK_MS = 3_600_000;
const STORE_WARNING_INTERVAL_MS = 10_000;

/** The counter of a person's extra calls (add-on packs) for a month (`2026-12`), beside their month's count. */
export const extraCallsKey = (userId: string, monthId: string): string => `kasa:quota:{${userId}}:extra:${monthId}`;

/** How long a month's extra calls are kept: to the end of that month (UTC), with the counters' slack. */
export function extraCallsTtlMs(monthId: string, nowMs: number): number {
  const [year, month] = monthId.split('-').map(Number) as [number, number];
  return Math.max(1, Date.UTC(year, month, 1) - nowMs + MONTH_SLACK_MS);
}

/**
 * Plan quotas and the per-minute limit of the public API, after authentication (it needs the caller's identity):
 *
 * - per minute: `limits.perMinute` requests per API key, or per person for calls with an access token, on every
 *   pipeline that has this policy (fixed windows of one calendar minute);
 * - per month: the calls of every key and token of a person together, on pipelines with `monthly: true`, against the
 *   plan's quota (calendar month, UTC) plus the extra calls the person bought for this month (add-on packs, raised
 *   by `auth.user.calls_added`, see `extraCallsKey`); an unlimited plan is counted but never refused. A team key's
 *   calls count on its team's quota, shared by every key of the team, at the team's plan.
 *
 * Every answer carries `RateLimit-Limit/-Remaining/-Reset` (IETF draft; Reset in seconds) and the same values as
 * `X-RateLimit-*` (Reset as a Unix time), describing the limit closest to running out, or on a 429 the limit that was
 * hit, with `Retry-After`. Counted routes of a limited plan also carry `X-Quota-Limit/-Remaining/-Reset` for the
 * month. A refused request is not counted. If the counters fail (Redis down) requests pass and a warning is logged:
 * a quota is not worth an outage of the API.
 *
 * The call whose atomic count reaches 80 % (rounded up) or 100 % of a limited month is handed to
 * `onThresholdReached` (which publishes `gateway.quota.threshold_reached` in the background) before it goes on.
 */
export function createQuotaPolicy(deps: {
  getCounter: () => QuotaCounter;
  limits: QuotaLimits;
  logger: Logger;
  now?: () => number;
  onThresholdReached?: (reached: QuotaThresholdReached, requestId?: string) => void;
}): EgPolicy<QuotaParams> {
  const { limits, logger } = deps;
  const now = deps.now ?? Date.now;
  const monthOf = cachedMonthWindow();
  let lastWarningMs = 0;

  return {
    name: 'kasa-quota',
    schema: {
      $id: 'https://kasa.example/schemas/policies/kasa-quota.json',
      type: 'object',
      properties: { monthly: { type: 'boolean' } },
    },
    policy: (params) => {
      const counter = deps.getCounter();
      const countsMonthly = params.monthly === true;

      return (req, res, next) => {
        const caller = callerOf(req);
        if (!caller) {
          next();
          return;
        }
        const nowMs = now();
        const minute = minuteWindow(nowMs);
        const month = monthOf(nowMs);
        const monthLimit = limits.monthly[caller.tier];
        // The hash tag keeps a subject's counters in one Redis Cluster slot, as the script needs. A team key's
        // calls count on the team's shared quota; everything else on the person's.
        const base = `kasa:quota:{${caller.teamId ? `team:${caller.teamId}` : caller.userId}}:`;
        const request: AdmitRequest = {
          minuteKey: `${base}minute:${caller.keyId ? `key:${caller.keyId}` : 'user'}:${minute.id}`,
          minuteLimit: limits.perMinute,
          minuteTtlMs: minute.endMs - nowMs + CLOCK_SLACK_MS,
          monthKey: countsMonthly ? `${base}month:${month.id}` : undefined,
          monthLimit,
          monthTtlMs: month.endMs - nowMs + MONTH_SLACK_MS,
          // A person's packs raise their own month; a team's shared quota has none.
          extraKey:
            countsMonthly && monthLimit !== null && !caller.teamId ? extraCallsKey(caller.userId, month.id) : undefined,
        };

        const settle = (result: AdmitResult) => {
          const perMinute: LimitState = {
            name: 'per_minute',
            limit: limits.perMinute,
            remaining: Math.max(0, limits.perMinute - result.minuteCount),
            resetMs: minute.endMs,
          };
          const monthTotal = monthLimit === null ? null : monthLimit + (result.monthExtra ?? 0);
          const monthly: LimitState | undefined =
            countsMonthly && monthTotal !== null
              ? {
                  name: 'monthly',
                  limit: monthTotal,
                  remaining: Math.max(0, monthTotal - result.monthCount),
                  resetMs: month.endMs,
                }
              : undefined;
          if (monthly) setQuotaHeaders(res, monthly, nowMs);
          setOpenAIRequestHeaders(res, perMinute, nowMs);

          if (result.allowed) {
            setRateLimitHeaders(res, closestToLimit(perMinute, monthly), nowMs);
            if (monthly && deps.onThresholdReached)
              announceThresholds(req, caller, result.monthCount, monthly, month.id);
            next();
            return;
          }
          // Both may be used up; the month is then what the caller waits for.
          const hit = monthly && monthly.remaining === 0 ? monthly : perMinute;
          hit.remaining = 0;
          refuse(req, res, hit, caller, nowMs);
        };

        const storeFailed = (err: unknown) => {
          if (nowMs - lastWarningMs >= STORE_WARNING_INTERVAL_MS) {
            lastWarningMs = nowMs;
            logger.warn(
              { err: err instanceof Error ? err.message : String(err), requestId: req.kasaRequestId },
              'quota counters unavailable; letting requests through',
            );
          }
          next();
        };

        let outcome: AdmitResult | Promise<AdmitResult>;
        try {
          outcome = counter.admit(request);
        } catch (err) {
          storeFailed(err);
          return;
        }
        // The in-memory counter answers at once: no promise on the hot path.
        if (outcome instanceof Promise) outcome.then(settle, storeFailed);
        else settle(outcome);
      };

      function announceThresholds(
        req: GatewayRequest,
        caller: Caller,
        count: number,
        monthly: LimitState,
        period: string,
      ): void {
        for (const threshold of thresholdsReached(count, monthly.limit)) {
          try {
            deps.onThresholdReached!(
              {
                // A team key's calls count on the team's quota: the team is told, as its keys act for it.
                userId: caller.teamId ? teamPrincipalId(caller.teamId) : caller.userId,
                ...(caller.keyId ? { keyId: caller.keyId } : {}),
                threshold,
                used: count,
                limit: monthly.limit,
                period,
              },
              req.kasaRequestId,
            );
          } catch (err) {
            logger.warn({ err, requestId: req.kasaRequestId }, 'quota threshold not announced');
          }
        }
      }

      function refuse(req: GatewayRequest, res: GatewayResponse, hit: LimitState, caller: Caller, nowMs: number): void {
        const retryAfter = secondsUntil(hit.resetMs, nowMs);
        setRateLimitHeaders(res, hit, nowMs);
        const monthlyHit = hit.name === 'monthly';
        // A spent monthly quota is not worth retrying (OpenAI's clients read `x-should-retry`); its reset date is in
        // the body and in X-Quota-Reset, not in a Retry-After that would make a client sleep for days.
        const retryHeaders: Record<string, string> = monthlyHit
          ? { 'x-should-retry': 'false' }
          : { 'retry-after': String(retryAfter), 'x-should-retry': 'true' };
        sendError(
          res,
          429,
          monthlyHit ? ErrorCode.quotaExceeded : ErrorCode.rateLimited,
          monthlyHit
            ? monthlyQuotaMessage(limits, caller.tier, hit.resetMs)
            : perMinuteMessage(limits, caller.keyId !== undefined, retryAfter),
          req.kasaRequestId,
          retryHeaders,
          {
            limit: hit.name,
            max: hit.limit,
            plan: caller.tier,
            resetsAt: new Date(hit.resetMs).toISOString(),
          },
        );
      }
    },
  };
}

interface Caller {
  userId: string;
  tier: SubscriptionTier;
  keyId?: string;
  teamId?: string;
}

function callerOf(req: GatewayRequest): Caller | undefined {
  const key = req.kasaApiKey;
  if (key) return { userId: key.userId, tier: key.tier, keyId: key.keyId, teamId: key.teamId ?? undefined };
  if (req.kasaIdentity) return { userId: req.kasaIdentity.sub, tier: req.kasaIdentity.tier };
  return undefined;
}

/** The limit with the fewest requests left (on a tie, the one that lasts longer). */
function closestToLimit(perMinute: LimitState, monthly: LimitState | undefined): LimitState {
  return monthly && monthly.remaining <= perMinute.remaining ? monthly : perMinute;
}

function secondsUntil(resetMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((resetMs - nowMs) / 1000));
}

function setRateLimitHeaders(res: GatewayResponse, state: LimitState, nowMs: number): void {
  const limit = String(state.limit);
  const remaining = String(state.remaining);
  res.setHeader('RateLimit-Limit', limit);
  res.setHeader('RateLimit-Remaining', remaining);
  res.setHeader('RateLimit-Reset', String(secondsUntil(state.resetMs, nowMs)));
  res.setHeader('X-RateLimit-Limit', limit);
  res.setHeader('X-RateLimit-Remaining', remaining);
  res.setHeader('X-RateLimit-Reset', String(Math.ceil(state.resetMs / 1000)));
}

/**
 * OpenAI's request-limit headers (`x-ratelimit-{limit,remaining,reset}-requests`, the reset as a duration such as
 * `42s` or `6m0s`), for the per-minute limit, which is what they describe at OpenAI.
 */
function setOpenAIRequestHeaders(res: GatewayResponse, perMinute: LimitState, nowMs: number): void {
  res.setHeader('x-ratelimit-limit-requests', String(perMinute.limit));
  res.setHeader('x-ratelimit-remaining-requests', String(perMinute.remaining));
  res.setHeader('x-ratelimit-reset-requests', durationOf(perMinute.resetMs - nowMs));
}

/** A duration as OpenAI writes it: `250ms`, `42s`, `6m0s`. */
export function durationOf(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.ceil(ms))}ms`;
  const seconds = Math.ceil(ms / 1000);
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m${seconds % 60}s`;
}

function setQuotaHeaders(res: GatewayResponse, monthly: LimitState, nowMs: number): void {
  res.setHeader('X-Quota-Limit', String(monthly.limit));
  res.setHeader('X-Quota-Remaining', String(monthly.remaining));
  res.setHeader('X-Quota-Reset', String(secondsUntil(monthly.resetMs, nowMs)));
}
