import type { EventData } from '@kasa/contracts';
import { retryOnDuplicate } from '../retryOnDuplicate';
import type { RollupCollection } from '../rollups/collections';
import type { RollupWriter } from '../rollups/rollupWriter';
import { Schema, type Connection, type Model } from 'mongoose';

type Heartbeat = EventData<'service.heartbeat'>;
export type HeartbeatComponent = NonNullable<Heartbeat['components']>[number];

/** The latest heartbeat of one process (collection `service_instances`), `_id` = `<service>:<instanceId>`. */
export interface ServiceInstance {
  _id: string;
  service: string;
  instanceId: string;
  version: string;
  ready: boolean;
  checks: Record<string, boolean>;
  components: HeartbeatComponent[];
  /** When the process sent its latest heartbeat. */
  at: Date;
}

/** Heartbeats received per service and UTC hour (collection `heartbeat_hours`), for uptime. */
interface HeartbeatHour {
  _id: string;
  service: string;
  hour: Date;
  count: number;
}

/** When a service was first heard of (collection `service_first_seen`): uptime is not counted before it. */
interface FirstSeen {
  _id: string;
  at: Date;
}

const HOUR_MS = 3_600_000;
const hourOf = (ms: number) => new Date(Math.floor(ms / HOUR_MS) * HOUR_MS);

const instanceSchema = new Schema(
  {
    _id: { type: String, required: true },
    service: { type: String, required: true },
    instanceId: { type: String, required: true },
    version: { type: String, required: true },
    ready: { type: Boolean, required: true },
    checks: { type: Schema.Types.Mixed, default: {} },
    components: { type: Array, default: [] },
    at: { type: Date, required: true, index: true },
  },
  { versionKey: false, collection: 'service_instances', minimize: false },
);
const hourSchema = new Schema<HeartbeatHour>(
  {
    _id: { type: String, required: true },
    service: { type: String, required: true },
    hour: { type: Date, required: true, index: true },
    count: { type: Number, required: true },
  },
  { versionKey: false, collection: 'heartbeat_hours' },
);
const firstSeenSchema = new Schema<FirstSeen>(
  { _id: { type: String, required: true }, at: { type: Date, required: true } },
  { versionKey: false, collection: 'service_first_seen' },
);

/** The connection's model of that name, made once (schemas are typed by the interface they store). */
function modelOf<T>(connection: Connection, name: string, schema: Schema): Model<T> {
  return (connection.models[name] as Model<T> | undefined) ?? (connection.model(name, schema) as unknown as Model<T>);
}

/** Heartbeats of every Kasa process, kept as each process's latest one plus hourly counts per service. */
export class HeartbeatStore {
  private readonly instances: Model<ServiceInstance>;
  private readonly hours: Model<HeartbeatHour>;
  private readonly firstSeen: Model<FirstSeen>;

  /** Hourly counts go through the rollup writer: concurrent `$inc` of one document lose counts on FerretDB v1. */
  constructor(
    connection: Connection,
    private readonly writer: RollupWriter,
  ) {
    this.instances = modelOf<ServiceInstance>(connection, 'ServiceInstance', instanceSchema);
    this.hours = modelOf<HeartbeatHour>(connection, 'HeartbeatHour', hourSchema);
    this.firstSeen = modelOf<FirstSeen>(connection, 'ServiceFirstSeen', firstSeenSchema);
  }

  /** Records one heartbeat. Runs once per event id (the bus's processed-event store), so counts are exact. */
  async record(heartbeat: Heartbeat): Promise<void> {
    const at = new Date(heartbeat.at);
    const hour = hourOf(at.getTime());
    await retryOnDuplicate(() =>
      this.instances.updateOne(
        { _id: `${heartbeat.service}:${heartbeat.instanceId}` },
        {
          $set: {
            service: heartbeat.service,
            instanceId: heartbeat.instanceId,
            version: heartbeat.version,
            ready: heartbeat.ready,
            checks: heartbeat.checks,
            components: heartbeat.components ?? [],
            at,
          },
        },
        { upsert: true },
      ),
    );
    await this.writer.apply([
      {
        collection: this.hours.collection as unknown as RollupCollection,
        id: `${heartbeat.service}|${hour.toISOString()}`,
        inc: { count: 1 },
        setOnInsert: { service: heartbeat.service, hour },
      },
    ]);
    await retryOnDuplicate(() =>
      this.firstSeen.updateOne({ _id: heartbeat.service }, { $setOnInsert: { at } }, { upsert: true }),
    );
  }

  /** The latest heartbeat of every process heard since `since` (a bounded list: processes, not heartbeats). */
  recentInstances(since: Date): Promise<ServiceInstance[]> {
    return this.instances
      .find({ at: { $gte: since } })
      .sort({ at: -1 })
      .limit(500)
      .lean<ServiceInstance[]>();
  }

  /**
   * The percent of expected heartbeats received from `service` over the `windowMs` before `now` (or since it was
   * first heard of, if later), with one heartbeat expected every `intervalMs`. Several processes of one service
   * count once: an hour never counts more heartbeats than it could hold. null if never heard of.
   */
  async uptime(service: string, now: Date, windowMs: number, intervalMs: number): Promise<number | null> {
    const first = await this.firstSeen.findById(service).lean();
    if (!first) return null;
    const start = Math.max(first.at.getTime(), now.getTime() - windowMs);
    const elapsed = now.getTime() - start;
    if (elapsed < intervalMs) return 100;
    const buckets = await this.hours
      .find({ service, hour: { $gte: hourOf(start), $lte: now } })
      .limit(Math.ceil(windowMs / HOUR_MS) + 2)
      .lean();
    const perHour = HOUR_MS / intervalMs;
    const received = buckets.reduce((sum, bucket) => sum + Math.min(bucket.count, perHour), 0);
    const expected = elapsed / intervalMs;
    return Math.min(100, Math.round((received / expected) * 10_000) / 100);
  }

  /** Forgets processes silent since `before` and hourly counts older than it. */
  async deleteOlderThan(before: Date): Promise<number> {
    const [instances, hours] = await Promise.all([
      this.instances.deleteMany({ at: { $lt: before } }),
      this.hours.deleteMany({ hour: { $lt: hourOf(before.getTime()) } }),
    ]);
    return instances.deletedCount + hours.deletedCount;
  }
}
