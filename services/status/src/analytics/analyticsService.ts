import type { AnalyticsResponse, AnalyticsSession, SubscriptionTier, UsageQuery, UsageResponse } from '@kasa/contracts';
import { NotFoundError, type Identity } from '@kasa/service-kit';
import type { ChatActivityStore } from '../chatActivity/chatActivityStore';
import type { RequestStore } from '../requests/requestStore';
import type { KeyOwnership } from './keyOwnership';

const DAY_MS = 86_400_000;
const ANALYTICS_DAYS = 30;
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Start of the UTC day of `ms`. */
const dayStart = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

/** The caller's own figures: every query is filtered by the caller's user id, and only theirs. */
export class AnalyticsService {
  constructor(
    private readonly deps: {
      requests: RequestStore;
      chat: ChatActivityStore;
      keys: KeyOwnership;
      monthlyCalls: Record<SubscriptionTier, number | null>;
    },
  ) {}

  /** GET /api/developer/analytics: the last 30 days, and the quota of the current calendar month (UTC). */
  async overview(who: Identity, now = new Date()): Promise<AnalyticsResponse['data']> {
    const { requests, chat } = this.deps;
    const since = new Date(now.getTime() - ANALYTICS_DAYS * DAY_MS);
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const match = { userId: who.userId, at: { $gte: since } };
    const [byArea, duration, quotaUsed, personaUsage, languageUsage, messages] = await Promise.all([
      requests.countBy<{ area: string; isError: number }>(match, { area: '$area', isError: '$isError' }),
      requests.totalDuration(match),
      requests.count({ userId: who.userId, quota: true, at: { $gte: monthStart } }),
      chat.sessionsPerPersona(who.userId, since),
      chat.userMessagesPerLanguage(who.userId, since),
      chat.countMessages(who.userId, since),
    ]);
    const perArea: Record<string, number> = {};
    let totalCalls = 0;
    let errors = 0;
    for (const { key, count } of byArea) {
      perArea[key.area] = (perArea[key.area] ?? 0) + count;
      totalCalls += count;
      if (key.isError === 1) errors += count;
    }
    const breakdown: Record<string, number> = {};
    for (const [area, count] of Object.entries(perArea)) breakdown[area] = round((count / totalCalls) * 100, 1);
    const errorRate = totalCalls > 0 ? round((errors / totalCalls) * 100, 2) : 0;
    return {
      usage: {
        breakdown,
        totalCalls,
        quota: {
          period: monthStart.toISOString().slice(0, 7),
          used: quotaUsed,
          limit: this.deps.monthlyCalls[who.tier],
        },
      },
      performance: {
        averageResponseTime: totalCalls > 0 ? round(duration / totalCalls, 1) : 0,
        uptime: round(100 - errorRate, 2),
        errorRate,
      },
      personaUsage,
      languageUsage,
      sessions: sum(Object.values(personaUsage)),
      messages,
    };
  }

  sessions(who: Identity, limit: number): Promise<AnalyticsSession[]> {
    return this.deps.chat.listSessions(who.userId, limit);
  }

  /** GET /api/analytics/usage: the caller's calls over the last `days` UTC days (today included). */
  async usage(who: Identity, query: UsageQuery, now = new Date(), requestId?: string): Promise<UsageResponse['data']> {
    const { requests, keys } = this.deps;
    if (query.keyId !== undefined && !(await keys.isOwnedBy(who, query.keyId, requestId)))
      throw new NotFoundError('API key not found');
    const from = new Date(dayStart(now.getTime()) - (query.days - 1) * DAY_MS);
    const match: Record<string, unknown> = { userId: who.userId, at: { $gte: from, $lte: now } };
    if (query.keyId !== undefined) match.apiKeyId = query.keyId;
    const [perDay, byEndpoint, byStatus, byKey] = await Promise.all([
      requests.countBy<{ day: string; isError: number }>(match, { day: '$day', isError: '$isError' }, 1_000),
      requests.countBy<string>(match, 'endpoint', 100),
      requests.countBy<number>(match, 'status', 100),
      requests.countBy<string | null>(match, 'apiKeyId', 100),
    ]);
    const days = new Map<string, { calls: number; errors: number }>();
    for (let d = 0; d < query.days; d += 1) {
      days.set(new Date(from.getTime() + d * DAY_MS).toISOString().slice(0, 10), { calls: 0, errors: 0 });
    }
    let totalCalls = 0;
    for (const { key, count } of perDay) {
      const day = days.get(key.day);
      if (!day) continue;
      day.calls += count;
      if (key.isError === 1) day.errors += count;
      totalCalls += count;
    }
    return {
      from: from.toISOString(),
      to: now.toISOString(),
      totalCalls,
      days: [...days].map(([date, figures]) => ({ date, ...figures })),
      byEndpoint: byEndpoint.map(({ key, count }) => ({ endpoint: key, calls: count })),
      byStatus: byStatus.map(({ key, count }) => ({ status: key, calls: count })),
      byKey: byKey.map(({ key, count }) => ({ keyId: key ?? null, calls: count })),
    };
  }
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
