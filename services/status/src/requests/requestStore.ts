import type { EventData } from '@kasa/contracts';
import { Schema, type Connection, type Model, type PipelineStage } from 'mongoose';
import { routeArea, type PlatformService } from './routeAreas';

/** One request the gateway answered, as stored (collection `requests`). `_id` = `<event id>:<index in batch>`. */
export interface StoredRequest {
  _id: string;
  route: string;
  method: string;
  /** `METHOD route`, e.g. `POST chat`. */
  endpoint: string;
  status: number;
  /** 1 for a 5xx answer, else 0 (a number, so that it can be summed). */
  isError: 0 | 1;
  durationMs: number;
  userId: string | null;
  apiKeyId: string | null;
  service: PlatformService;
  area: string;
  /** Counted towards the plan's monthly quota: a quota route, with a caller, not refused with 429. */
  quota: boolean;
  at: Date;
  /** `YYYY-MM-DD` (UTC) of `at`, stored because the embedded database groups by fields, not date expressions. */
  day: string;
}

const schema = new Schema<StoredRequest>(
  {
    _id: { type: String, required: true },
    route: { type: String, required: true },
    method: { type: String, required: true },
    endpoint: { type: String, required: true },
    status: { type: Number, required: true },
    isError: { type: Number, required: true },
    durationMs: { type: Number, required: true },
    userId: { type: String, default: null },
    apiKeyId: { type: String, default: null },
    service: { type: String, required: true },
    area: { type: String, required: true },
    quota: { type: Boolean, required: true },
    at: { type: Date, required: true },
    day: { type: String, required: true },
  },
  { versionKey: false, collection: 'requests' },
);
schema.index({ userId: 1, at: 1 });
schema.index({ service: 1, at: 1 });
schema.index({ at: 1 });

/** A count per value of one grouping key. */
export type Counts<K> = Array<{ key: K; count: number }>;

/**
 * The gateway's answered requests, stored from `gateway.request.completed`. Every aggregation here has exactly one
 * accumulator: the embedded database (FerretDB v1) computes only the first accumulator of a `$group` correctly.
 */
export class RequestStore {
  readonly model: Model<StoredRequest>;

  constructor(connection: Connection) {
    this.model =
      (connection.models.StoredRequest as Model<StoredRequest> | undefined) ??
      connection.model<StoredRequest>('StoredRequest', schema);
  }

  /** Stores one batch; idempotent (ids come from the event id), so a redelivered batch adds nothing. */
  async storeBatch(eventId: string, data: EventData<'gateway.request.completed'>): Promise<number> {
    const docs: StoredRequest[] = data.requests.map((r, index) => {
      const at = new Date(r.at);
      const { service, area, monthlyQuota } = routeArea(r.route);
      return {
        _id: `${eventId}:${index}`,
        route: r.route,
        method: r.method,
        endpoint: `${r.method} ${r.route}`,
        status: r.status,
        isError: r.status >= 500 ? 1 : 0,
        durationMs: r.durationMs,
        userId: r.userId ?? null,
        apiKeyId: r.apiKeyId ?? null,
        service,
        area,
        quota: monthlyQuota && r.userId !== undefined && r.status !== 429,
        at,
        day: at.toISOString().slice(0, 10),
      };
    });
    if (docs.length === 0) return 0;
    try {
      const inserted = await this.model.collection.insertMany(docs as never[], { ordered: false });
      return inserted.insertedCount;
    } catch (err) {
      if (isOnlyDuplicates(err)) return (err as { insertedCount?: number }).insertedCount ?? 0;
      throw err;
    }
  }

  /** Counts per value of `field` among the requests matching `match` (most first, at most `limit`). */
  async countBy<K = string>(match: Record<string, unknown>, field: string | Record<string, string>, limit = 500) {
    const pipeline: PipelineStage[] = [
      { $match: match },
      { $group: { _id: typeof field === 'string' ? `$${field}` : field, count: { $sum: 1 } } },
      { $sort: { count: -1, _id: 1 } },
      { $limit: limit },
    ];
    const rows = await this.model.aggregate<{ _id: K; count: number }>(pipeline);
    return rows.map((row) => ({ key: row._id, count: row.count })) as Counts<K>;
  }

  /** The sum of `durationMs` over the requests matching `match`. */
  async totalDuration(match: Record<string, unknown>): Promise<number> {
    const rows = await this.model.aggregate<{ total: number }>([
      { $match: match },
      { $group: { _id: null, total: { $sum: '$durationMs' } } },
    ]);
    return rows[0]?.total ?? 0;
  }

  count(match: Record<string, unknown>): Promise<number> {
    return this.model.countDocuments(match);
  }

  /** When the newest request matching `match` was answered. */
  async latestAt(match: Record<string, unknown>): Promise<Date | null> {
    const doc = await this.model.findOne(match, { at: 1 }).sort({ at: -1 }).lean();
    return doc?.at ?? null;
  }

  /** Whether the caller made any call with this API key (a key seen on the caller's own calls is theirs). */
  async hasCallsWithKey(userId: string, apiKeyId: string): Promise<boolean> {
    return (await this.model.exists({ userId, apiKeyId })) !== null;
  }

  /** Deletes requests answered before `before`; returns how many. */
  async deleteOlderThan(before: Date): Promise<number> {
    return (await this.model.deleteMany({ at: { $lt: before } })).deletedCount;
  }
}

/** A bulk insert that failed only because some ids were already stored (duplicate key, code 11000). */
function isOnlyDuplicates(err: unknown): boolean {
  const writeErrors = (err as { writeErrors?: Array<{ code?: number }> | { code?: number } }).writeErrors;
  const list = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [];
  return list.length > 0 && list.every((e) => e.code === 11000);
}
