import type { Connection, mongo } from 'mongoose';
import type { ReadLimits } from '../queries/queryLimits';
import type { Doc, RollupCollection } from '../rollups/collections';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** The heartbeat hours the heartbeat store keeps (retention.ts): the fold reads them all. */
const LIVE_MS = 2 * DAY_MS;
/** Days of folded hours kept: the 30-day window and a day to spare. */
const DAYS_KEPT = 32;
const SINCE_ID = 'since';

interface HeartbeatHour {
  service: string;
  hour: Date;
  count: number;
}

type Collection = RollupCollection;
const hourKey = (hour: Date) => hour.toISOString().slice(11, 13);

/**
 * Uptime over 30 days, where the heartbeat store keeps 2 days of hourly heartbeat counts (`heartbeat_hours`): `fold()`
 * (every UPTIME_FOLD_INTERVAL_MS) copies each hour's count, capped as uptime counts it, into one document per service
 * and UTC day (`uptime_days`, `<service>|<YYYY-MM-DD>`, `hours.<HH>`), kept 32 days. Copying sets, never adds, so
 * folding an hour again (it is, as long as the store keeps it) changes nothing. `since` remembers the oldest hour
 * ever folded: before it nothing was recorded, so it is not counted as missing.
 */
export class UptimeHistory {
  private readonly hours: Collection;
  private readonly firstSeen: Collection;
  private readonly days: Collection;

  constructor(
    db: Pick<Connection, 'collection'>,
    /** One heartbeat is expected every this many ms. */
    private readonly intervalMs: number,
  ) {
    this.hours = db.collection('heartbeat_hours') as unknown as Collection;
    this.firstSeen = db.collection('service_first_seen') as unknown as Collection;
    this.days = db.collection('uptime_days') as unknown as Collection;
  }

  private get perHour(): number {
    return HOUR_MS / this.intervalMs;
  }

  private liveHours(now: Date, limits?: ReadLimits): Promise<HeartbeatHour[]> {
    return this.hours
      .find({ hour: { $gte: new Date(now.getTime() - LIVE_MS) } }, limits ? { ...limits } : {})
      .limit(5_000)
      .toArray() as unknown as Promise<HeartbeatHour[]>;
  }

  /** Copies the stored heartbeat hours into the day documents; drops days older than 32. Returns hours copied. */
  async fold(now = new Date()): Promise<number> {
    const live = await this.liveHours(now);
    const perDay = new Map<string, { service: string; day: Date; set: Record<string, number> }>();
    let oldest: Date | undefined;
    for (const h of live) {
      const day = new Date(Math.floor(h.hour.getTime() / DAY_MS) * DAY_MS);
      const id = `${h.service}|${day.toISOString().slice(0, 10)}`;
      let entry = perDay.get(id);
      if (!entry) perDay.set(id, (entry = { service: h.service, day, set: {} }));
      entry.set[`hours.${hourKey(h.hour)}`] = Math.min(h.count, this.perHour);
      if (!oldest || h.hour < oldest) oldest = h.hour;
    }
    const ops: mongo.AnyBulkWriteOperation<Doc>[] = [...perDay].map(([id, entry]) => ({
      updateOne: {
        filter: { _id: id },
        update: { $set: { ...entry.set, service: entry.service, day: entry.day } },
        upsert: true,
      },
    }));
    if (oldest) ops.push({ updateOne: { filter: { _id: SINCE_ID }, update: { $min: { at: oldest } }, upsert: true } });
    if (ops.length > 0) await this.days.bulkWrite(ops, { ordered: true });
    await this.days.deleteMany({ day: { $lt: new Date(now.getTime() - DAYS_KEPT * DAY_MS) } });
    return live.length;
  }

  /**
   * Per service heard of, the percent of expected heartbeats received over the `windowMs` before `now` (two
   * decimals), counted from the latest of: the window's start, when the service was first heard of, and the oldest
   * hour on record. The hours the heartbeat store still has are read from it, older ones from the day documents.
   */
  async uptimes(now: Date, windowMs: number, limits: ReadLimits): Promise<Map<string, number>> {
    const windowStart = now.getTime() - windowMs;
    const options = { maxTimeMS: limits.maxTimeMS, signal: limits.signal };
    const [first, live, days] = await Promise.all([
      this.firstSeen.find({}, options).limit(1_000).toArray(),
      this.liveHours(now, limits),
      this.days
        .find(
          { $or: [{ day: { $gte: new Date(Math.floor(windowStart / DAY_MS) * DAY_MS) } }, { _id: SINCE_ID }] },
          options,
        )
        .limit(5_000)
        .toArray(),
    ]);

    const received = new Map<string, Map<number, number>>();
    const at = (service: string) => {
      let hours = received.get(service);
      if (!hours) received.set(service, (hours = new Map()));
      return hours;
    };
    let since = Infinity;
    for (const doc of days) {
      if (doc._id === SINCE_ID) {
        if (doc.at instanceof Date) since = Math.min(since, doc.at.getTime());
        continue;
      }
      if (!(doc.day instanceof Date) || typeof doc.service !== 'string') continue;
      for (const [hh, n] of Object.entries((doc.hours ?? {}) as Record<string, number>))
        at(doc.service).set(doc.day.getTime() + Number(hh) * HOUR_MS, n);
    }
    for (const h of live as unknown as HeartbeatHour[]) {
      at(h.service).set(h.hour.getTime(), Math.min(h.count, this.perHour));
      since = Math.min(since, h.hour.getTime());
    }

    const out = new Map<string, number>();
    // Nothing on record at all: the caller says what a service never heard of has.
    if (!Number.isFinite(since)) return out;
    for (const doc of first) {
      const service = String(doc._id);
      if (!(doc.at instanceof Date)) continue;
      const start = Math.max(doc.at.getTime(), windowStart, since);
      const elapsed = now.getTime() - start;
      if (elapsed < this.intervalMs) {
        out.set(service, 100);
        continue;
      }
      const startHour = Math.floor(start / HOUR_MS) * HOUR_MS;
      let count = 0;
      for (const [hour, n] of received.get(service) ?? []) if (hour >= startHour && hour <= now.getTime()) count += n;
      out.set(service, Math.min(100, Math.round((count / (elapsed / this.intervalMs)) * 10_000) / 100));
    }
    return out;
  }
}
