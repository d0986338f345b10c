import type { AnalyticsResponse, AnalyticsSession, SubscriptionTier, UsageQuery, UsageResponse } from '@kasa/contracts';
import { NotFoundError, type Identity } from '@kasa/service-kit';
import type { ApiKeyOwners } from '../apiKeys/apiKeyOwners';
import type { ChatActivityStore } from '../chatActivity/chatActivityStore';
import { dayKey, fieldKey, fromFieldKey, lastDays, monthOfDay, monthsOf } from '../rollups/buckets';
import type { ReadLimits } from '../queries/queryLimits';
import type { DayBucket, RequestStore, UsageMonth } from '../requests/requestStore';
import { routeArea } from '../requests/routeAreas';

const ANALYTICS_DAYS = 30;
/** Lists (endpoints, statuses, keys) are capped at this many entries. */
const LIST_LIMIT = 100;
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * The caller's own figures, read from their day buckets (a handful of month documents, whatever their history):
 * every read is by the caller's user id, and only theirs.
 */
export class AnalyticsService {
  constructor(
    private readonly deps: {
      requests: RequestStore;
      chat: ChatActivityStore;
      keys: Pick<ApiKeyOwners, 'isOwnedBy'>;
      monthlyCalls: Record<SubscriptionTier, number | null>;
    },
  ) {}

  /** GET /api/developer/analytics: the 30 UTC days ending today, and the quota of the current calendar month (UTC). */
  async overview(who: Identity, limits: ReadLimits, now = new Date()): Promise<AnalyticsResponse['data']> {
    const days = lastDays(now, ANALYTICS_DAYS);
    const month = monthOfDay(days.at(-1)!);
    const docs = await this.deps.requests.userMonths(who.userId, [...new Set([...monthsOf(days), month])], limits);
    const buckets = bucketsOf(docs, days);

    const perArea = new Map<string, number>();
    const personaUsage: Record<string, number> = {};
    const languageUsage: Record<string, number> = {};
    let totalCalls = 0;
    let errors = 0;
    let duration = 0;
    let sessions = 0;
    let messages = 0;
    const voice = { speechClips: 0, speechSeconds: 0, videosMade: 0, videosFailed: 0 };
    for (const b of buckets) {
      voice.speechClips += b.speech ?? 0;
      voice.speechSeconds += b.speechSeconds ?? 0;
      voice.videosMade += b.videos?.succeeded ?? 0;
      voice.videosFailed += b.videos?.failed ?? 0;
      totalCalls += b.calls ?? 0;
      errors += b.errors ?? 0;
      duration += b.durationMs ?? 0;
      sessions += b.sessions ?? 0;
      messages += b.messages ?? 0;
      addAreas(perArea, b.endpoint);
      for (const [k, n] of Object.entries(b.persona ?? {}))
        personaUsage[fromFieldKey(k) ?? ''] = (personaUsage[fromFieldKey(k) ?? ''] ?? 0) + n;
      for (const [k, n] of Object.entries(b.language ?? {}))
        languageUsage[fromFieldKey(k) ?? ''] = (languageUsage[fromFieldKey(k) ?? ''] ?? 0) + n;
    }
    const current = docs.find((d) => d._id.endsWith(`|${month}`));
    const quotaUsed = Object.values(current?.days ?? {}).reduce((sum, b) => sum + (b.quota ?? 0), 0);

    const breakdown: Record<string, number> = {};
    for (const [area, count] of perArea) breakdown[area] = round((count / totalCalls) * 100, 1);
    const errorRate = totalCalls > 0 ? round((errors / totalCalls) * 100, 2) : 0;
    return {
      usage: {
        breakdown,
        totalCalls,
        quota: { period: month, used: quotaUsed, limit: this.deps.monthlyCalls[who.tier] },
      },
      performance: {
        averageResponseTime: totalCalls > 0 ? round(duration / totalCalls, 1) : 0,
        uptime: round(100 - errorRate, 2),
        errorRate,
      },
      personaUsage,
      languageUsage,
      sessions,
      messages,
      voice: { ...voice, speechSeconds: round(voice.speechSeconds, 1) },
    };
  }

  sessions(who: Identity, limit: number, limits: ReadLimits): Promise<AnalyticsSession[]> {
    return this.deps.chat.listSessions(who.userId, limit, limits);
  }

  /** GET /api/analytics/usage: the caller's calls over the last `days` UTC days (today included). */
  async usage(who: Identity, query: UsageQuery, limits: ReadLimits, now = new Date()): Promise<UsageResponse['data']> {
    const { requests, keys } = this.deps;
    const days = lastDays(now, query.days);
    const months = monthsOf(days);
    let docs: UsageMonth[];
    if (query.keyId === undefined) {
      docs = await requests.userMonths(who.userId, months, limits);
    } else {
      const keyId = query.keyId;
      // A key with calls stored under the caller's own id is theirs; else whose it is, as auth announced it, decides.
      docs = await requests.keyMonths(who.userId, keyId, months, limits);
      if (docs.length === 0 && !(await keys.isOwnedBy(who, keyId, limits)))
        throw new NotFoundError('API key not found');
    }
    const buckets = new Map(days.map((day) => [day, bucketOf(docs, day)]));
    const endpoints = new Map<string, number>();
    const statuses = new Map<string, number>();
    const perKey = new Map<string, number>();
    let totalCalls = 0;
    for (const b of buckets.values()) {
      if (!b) continue;
      totalCalls += b.calls ?? 0;
      addAll(endpoints, b.endpoint);
      addAll(statuses, b.status);
      addAll(perKey, b.key);
    }
    // A key's own documents carry no per-key map: all of their calls are that key's.
    if (query.keyId !== undefined && totalCalls > 0) perKey.set(fieldKey(query.keyId), totalCalls);
    return {
      from: `${days[0]}T00:00:00.000Z`,
      to: now.toISOString(),
      totalCalls,
      days: days.map((date) => ({
        date,
        calls: buckets.get(date)?.calls ?? 0,
        errors: buckets.get(date)?.errors ?? 0,
      })),
      byEndpoint: mostFirst(endpoints).map(([key, calls]) => ({ endpoint: fromFieldKey(key) ?? '', calls })),
      byStatus: mostFirst(statuses).map(([key, calls]) => ({ status: Number(key), calls })),
      byKey: mostFirst(perKey).map(([key, calls]) => ({ keyId: fromFieldKey(key), calls })),
    };
  }
}

/** The bucket of `day` among month documents, if any. */
function bucketOf(docs: UsageMonth[], day: string): DayBucket | undefined {
  const doc = docs.find((d) => d._id.endsWith(`|${monthOfDay(day)}`));
  return doc?.days?.[dayKey(day)];
}

const bucketsOf = (docs: UsageMonth[], days: string[]): DayBucket[] =>
  days.map((day) => bucketOf(docs, day)).filter((b): b is DayBucket => b !== undefined);

function addAll(into: Map<string, number>, counts: Record<string, number> | undefined): void {
  for (const [key, n] of Object.entries(counts ?? {})) into.set(key, (into.get(key) ?? 0) + n);
}

/**
 * Calls per API area, from the calls per endpoint (`METHOD route`): the area is the route's, so it is not stored
 * apart (a day bucket with one counter fewer per area, on every request's write and every dashboard's read).
 */
function addAreas(into: Map<string, number>, endpoints: Record<string, number> | undefined): void {
  for (const [key, n] of Object.entries(endpoints ?? {})) {
    const endpoint = fromFieldKey(key) ?? '';
    const { area } = routeArea(endpoint.slice(endpoint.indexOf(' ') + 1));
    into.set(area, (into.get(area) ?? 0) + n);
  }
}

/** Most first, then by key; at most LIST_LIMIT. */
const mostFirst = (counts: Map<string, number>) =>
  [...counts]
    .filter(([, n]) => n > 0)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, LIST_LIMIT);
