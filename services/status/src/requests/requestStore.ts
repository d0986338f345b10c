import type { EventData } from '@kasa/contracts';
import { dayKey, dayOf, fieldKey, hourOf, minuteOf, monthOfDay } from '../rollups/buckets';
import {
  claimOnce,
  findByIds,
  releaseClaim,
  type Doc,
  type RollupCollection,
  type StatusCollections,
} from '../rollups/collections';
import type { RollupCache } from '../rollups/rollupCache';
import { latencyBucket } from '../rollups/latency';
import type { RollupUpdate, RollupWriter } from '../rollups/rollupWriter';
import type { ReadLimits } from '../queries/queryLimits';
import { PLATFORM_SERVICES, routeArea, type PlatformService } from './routeAreas';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/** Calls, 5xx answers and summed duration (ms). */
export interface CallFigures {
  calls: number;
  errors: number;
  durationMs: number;
}

/** What the service status page needs from the gateway's requests. */
export interface ServiceFigures {
  /** Per service, over the current UTC hour and the 23 before it. */
  lastDay: Map<string, CallFigures>;
  /** Per service, over the current minute and the 5 before it. */
  lastMinutes: Map<string, CallFigures>;
  /** Per service, when its latest request was answered. */
  lastRequestAt: Map<string, Date>;
}

/** The day buckets of a person (or of one of their API keys) for one month, as stored in `usage_months`. */
export interface UsageMonth {
  _id: string;
  days?: Record<string, DayBucket>;
}

/** One UTC day's figures. Maps are keyed by `fieldKey` (endpoint `METHOD route`, status, key id, persona, language). */
export interface DayBucket {
  calls?: number;
  errors?: number;
  durationMs?: number;
  /** Calls counted towards the plan's monthly quota. */
  quota?: number;
  /** Per endpoint: also the source of the API-area breakdown (each route belongs to one area, see routeAreas). */
  endpoint?: Record<string, number>;
  status?: Record<string, number>;
  key?: Record<string, number>;
  sessions?: number;
  persona?: Record<string, number>;
  messages?: number;
  language?: Record<string, number>;
  /** Voice activity (voiceActivityStore): speech read aloud, and finished video jobs by outcome. */
  speech?: number;
  speechCharacters?: number;
  speechSeconds?: number;
  speechLanguage?: Record<string, number>;
  videos?: { succeeded?: number; failed?: number };
}

/** More rollup updates of one batch of requests, stored at `now` (see RequestStore.alsoWrite). */
export type BatchUpdates = (data: EventData<'gateway.request.completed'>, now: Date) => RollupUpdate[];

export const userMonthId = (userId: string, month: string) => `u|${userId}|${month}`;
export const keyMonthId = (userId: string, keyId: string, month: string) => `k|${userId}|${keyId}|${month}`;

/**
 * The gateway's answered requests, kept as rollups (`gateway.request.completed`): each batch is summed in memory per
 * bucket, then written as one merged bulk write of `$inc` upserts. Raw requests are not stored; the batch's event id
 * is (`request_batches`), so that a batch is counted once even when it arrives again.
 */
export class RequestStore {
  private readonly alsoWritten: BatchUpdates[] = [];

  constructor(
    private readonly collections: StatusCollections,
    private readonly writer: RollupWriter,
    /** Where dashboards' reads are answered from memory when it holds the document (one status replica). */
    private readonly cache?: RollupCache,
  ) {}

  /**
   * More rollups kept from every batch (the operators' usage figures, src/admin): written in the batch's own bulk
   * write, so once per batch and through the one lane. Call before events are consumed.
   */
  alsoWrite(updates: BatchUpdates): void {
    this.alsoWritten.push(updates);
  }

  private read(collection: RollupCollection, ids: string[], limits: ReadLimits): Promise<Doc[]> {
    return this.cache ? this.cache.findByIds(collection, ids, limits) : findByIds(collection, ids, limits);
  }

  /** Counts one batch; returns how many requests it counted (0 for a batch counted before). */
  async storeBatch(eventId: string, data: EventData<'gateway.request.completed'>, now = new Date()): Promise<number> {
    if (data.requests.length === 0) return 0;
    // Claimed first: a crash between the claim and the write loses at most this batch's counts, never doubles them.
    if (!(await claimOnce(this.collections.batches, eventId, now))) return 0;
    try {
      await this.writer.apply([
        ...rollupUpdates(this.collections, data),
        ...this.alsoWritten.flatMap((updates) => updates(data, now)),
      ]);
    } catch (err) {
      await releaseClaim(this.collections.batches, eventId);
      throw err;
    }
    return data.requests.length;
  }

  /** The person's month documents (at most one per month asked for). */
  async userMonths(userId: string, months: string[], limits: ReadLimits): Promise<UsageMonth[]> {
    const ids = months.map((m) => userMonthId(userId, m));
    return (await this.read(this.collections.usage(userId), ids, limits)) as unknown as UsageMonth[];
  }

  /** The month documents of one of the person's API keys. */
  async keyMonths(userId: string, keyId: string, months: string[], limits: ReadLimits): Promise<UsageMonth[]> {
    const ids = months.map((m) => keyMonthId(userId, keyId, m));
    return (await this.read(this.collections.usage(userId), ids, limits)) as unknown as UsageMonth[];
  }

  /** The service figures of the status page: 31 buckets at most, from a small collection. */
  async serviceFigures(now: Date, limits: ReadLimits): Promise<ServiceFigures> {
    const minutes = Array.from({ length: 6 }, (_, i) => `m|${minuteOf(now.getTime() - i * MINUTE_MS)}`);
    const hours = Array.from({ length: 24 }, (_, i) => `h|${hourOf(now.getTime() - i * HOUR_MS)}`);
    // One query for the 31 ids of this small collection (at most a few hundred documents by its retention).
    const docs = (await this.collections.services
      .find({ _id: { $in: [...minutes, ...hours, 'last'] } }, limits)
      .toArray()) as Doc[];
    const sum = (ids: string[]) => {
      const out = new Map<string, CallFigures>();
      for (const doc of docs.filter((d) => ids.includes(d._id))) {
        for (const [service, f] of Object.entries((doc.s ?? {}) as Record<string, Partial<CallFigures>>)) {
          const t = out.get(service) ?? { calls: 0, errors: 0, durationMs: 0 };
          t.calls += f.calls ?? 0;
          t.errors += f.errors ?? 0;
          t.durationMs += f.durationMs ?? 0;
          out.set(service, t);
        }
      }
      return out;
    };
    const last = docs.find((d) => d._id === 'last');
    const lastRequestAt = new Map<string, Date>();
    for (const service of PLATFORM_SERVICES) {
      const at = (last as Record<string, unknown> | undefined)?.[service];
      if (at instanceof Date) lastRequestAt.set(service, at);
    }
    return { lastDay: sum(hours), lastMinutes: sum(minutes), lastRequestAt };
  }

  /**
   * Retention: month documents whose every day is older than `daysBefore`, service minutes and hours older than
   * `minutesBefore` / `hoursBefore`, and batch ids older than `rawBefore`. Returns how many documents went.
   */
  async deleteOlderThan(cut: { daysBefore: Date; minutesBefore: Date; hoursBefore: Date; rawBefore: Date }) {
    const cutMonth = monthOfDay(dayOf(cut.daysBefore));
    // One shard after the other: hundreds of deletes at once would only queue up in the database.
    let monthsDeleted = 0;
    for (const shard of this.collections.usageShards)
      monthsDeleted += (await shard.deleteMany({ month: { $lt: cutMonth } })).deletedCount;
    const [minutes, hours, batches] = await Promise.all([
      this.collections.services.deleteMany({ grain: 'minute', at: { $lt: cut.minutesBefore } }),
      this.collections.services.deleteMany({ grain: 'hour', at: { $lt: cut.hoursBefore } }),
      this.collections.batches.deleteMany({ at: { $lt: cut.rawBefore } }),
    ]);
    return {
      months: monthsDeleted,
      serviceBuckets: minutes.deletedCount + hours.deletedCount,
      batches: batches.deletedCount,
    };
  }
}

/** A running sum of `$inc` paths per document, and what the document is set to when it is created. */
class Sums {
  readonly docs = new Map<
    string,
    {
      collection: RollupCollection;
      inc: Record<string, number>;
      max: Record<string, Date>;
      init: Record<string, unknown>;
    }
  >();

  constructor(private readonly collectionOf: (id: string, init: Record<string, unknown>) => RollupCollection) {}

  add(id: string, init: Record<string, unknown>, path: string, n: number): void {
    const doc = this.entry(id, init);
    doc.inc[path] = (doc.inc[path] ?? 0) + n;
  }

  max(id: string, init: Record<string, unknown>, path: string, at: Date): void {
    const doc = this.entry(id, init);
    if (!doc.max[path] || doc.max[path] < at) doc.max[path] = at;
  }

  private entry(id: string, init: Record<string, unknown>) {
    let doc = this.docs.get(id);
    if (!doc) this.docs.set(id, (doc = { collection: this.collectionOf(id, init), inc: {}, max: {}, init }));
    return doc;
  }
}

/**
 * The rollup updates of one batch, summed in memory: per person and day, per person, API key and day, per service and
 * minute, per service and hour, and the latest request per service. Exported for the benchmark's bulk loader, which
 * writes exactly what this path writes.
 */
export function rollupUpdates(
  collections: StatusCollections,
  data: EventData<'gateway.request.completed'>,
): RollupUpdate[] {
  const usage = new Sums((_id, init) => collections.usage(init.userId as string));
  const services = new Sums(() => collections.services);
  for (const r of data.requests) {
    const at = new Date(r.at);
    const day = dayOf(at);
    const month = monthOfDay(day);
    const { service, monthlyQuota } = routeArea(r.route);
    const isError = r.status >= 500 ? 1 : 0;
    const quota = monthlyQuota && r.userId !== undefined && r.status !== 429 ? 1 : 0;
    const endpoint = fieldKey(`${r.method} ${r.route}`);
    const status = String(r.status);

    const minute = minuteOf(at);
    const hour = hourOf(at);
    const minuteInit = { grain: 'minute', at: new Date(Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS) };
    const hourInit = { grain: 'hour', at: new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS) };
    for (const [id, init] of [
      [`m|${minute}`, minuteInit],
      [`h|${hour}`, hourInit],
    ] as const) {
      services.add(id, init, `s.${service}.calls`, 1);
      if (isError) services.add(id, init, `s.${service}.errors`, 1);
      if (r.status >= 400 && r.status < 500) services.add(id, init, `s.${service}.clientErrors`, 1);
      services.add(id, init, `s.${service}.durationMs`, r.durationMs);
      services.add(id, init, `s.${service}.latency.${latencyBucket(r.durationMs)}`, 1);
    }
    services.max('last', {}, service satisfies PlatformService, at);

    if (r.userId === undefined) continue;
    const d = `days.${dayKey(day)}`;
    const userDoc = userMonthId(r.userId, month);
    const userInit = { userId: r.userId, month };
    usage.add(userDoc, userInit, `${d}.calls`, 1);
    if (isError) usage.add(userDoc, userInit, `${d}.errors`, 1);
    usage.add(userDoc, userInit, `${d}.durationMs`, r.durationMs);
    if (quota) usage.add(userDoc, userInit, `${d}.quota`, 1);
    usage.add(userDoc, userInit, `${d}.endpoint.${endpoint}`, 1);
    usage.add(userDoc, userInit, `${d}.status.${status}`, 1);
    usage.add(userDoc, userInit, `${d}.key.${fieldKey(r.apiKeyId ?? null)}`, 1);
    if (r.apiKeyId !== undefined) {
      const keyDoc = keyMonthId(r.userId, r.apiKeyId, month);
      const keyInit = { userId: r.userId, keyId: r.apiKeyId, month };
      usage.add(keyDoc, keyInit, `${d}.calls`, 1);
      if (isError) usage.add(keyDoc, keyInit, `${d}.errors`, 1);
      usage.add(keyDoc, keyInit, `${d}.endpoint.${endpoint}`, 1);
      usage.add(keyDoc, keyInit, `${d}.status.${status}`, 1);
    }
  }
  const updates: RollupUpdate[] = [];
  for (const sums of [usage, services]) {
    for (const [id, doc] of sums.docs) {
      updates.push({ collection: doc.collection, id, inc: doc.inc, max: doc.max, setOnInsert: doc.init });
    }
  }
  return updates;
}
