import type { Connection, mongo } from 'mongoose';

/** A stored document: every status collection has string ids. */
export type Doc = mongo.Document & { _id: string };
export type RollupCollection = mongo.Collection<Doc>;

/**
 * The status service's collections (database `kasa_status`), read and written with the driver directly so that each
 * read carries `maxTimeMS` and the request's abort signal. Dashboards read only these bounded collections:
 *
 * - `usage_months_NN` (SHARDS collections by user id): one document per person and UTC month (`u|<userId>|<YYYY-MM>`) and per person, API key and month
 *   (`k|<userId>|<keyId>|<YYYY-MM>`), holding day buckets `days.<DD>` of calls, errors, durations and the breakdowns.
 * - `service_rollups`: per-minute (`m|<minute>`) and per-hour (`h|<hour>`) counts per service, and `last` (the latest
 *   answered request per service).
 * - `recent_sessions_NN`: one document per person (`_id` = user id), their newest sessions with message counts.
 * - `request_batches` and `status_markers`: raw records that make the handlers idempotent (a gateway batch by event
 *   id, a chat message or session by its id); never read by a dashboard.
 */
export interface StatusCollections {
  /** The person's shard of `usage_months`. */
  usage: (userId: string) => RollupCollection;
  services: RollupCollection;
  /** The person's shard of `recent_sessions`. */
  sessions: (userId: string) => RollupCollection;
  usageShards: RollupCollection[];
  sessionShards: RollupCollection[];
  batches: RollupCollection;
  markers: RollupCollection;
}

/**
 * Per-person collections are split into SHARDS collections by a hash of the user id (`usage_months_07`). FerretDB v1
 * as published finds a document by `_id` by scanning its whole collection (its SQLite backend missed its own `_id`
 * index); the build `npm start` runs is patched to use it (scripts/ferretdb-patches), and the split keeps a read
 * cheap on an unpatched one too, and the hourly clean-up's scans small. On MongoDB the split costs nothing.
 */
export const SHARDS = 512;

/** FNV-1a: a stable, well-spread hash of the user id. */
export function shardOf(userId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < userId.length; i += 1) {
    hash ^= userId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % SHARDS;
}

export function statusCollections(connection: Pick<Connection, 'collection'>): StatusCollections {
  const named = (name: string) => connection.collection(name) as unknown as RollupCollection;
  const shards = (name: string) =>
    Array.from({ length: SHARDS }, (_, i) => named(`${name}_${String(i).padStart(2, '0')}`));
  const usageShards = shards('usage_months');
  const sessionShards = shards('recent_sessions');
  return {
    usage: (userId) => usageShards[shardOf(userId)]!,
    sessions: (userId) => sessionShards[shardOf(userId)]!,
    usageShards,
    sessionShards,
    services: named('service_rollups'),
    batches: named('request_batches'),
    markers: named('status_markers'),
  };
}

/**
 * The indexes of the clean-up's queries (dashboards read by `_id` only, which every collection has). The shards have
 * none beyond `_id`: they are small, and the hourly clean-up may scan them.
 */
export async function ensureIndexes(c: StatusCollections): Promise<void> {
  await Promise.all([
    c.services.createIndex({ at: 1 }),
    c.batches.createIndex({ at: 1 }),
    c.markers.createIndex({ at: 1 }),
  ]);
}

/** Inserts `{_id: id, at}`; false when it was already there (the event or message was counted before). */
export async function claimOnce(collection: RollupCollection, id: string, at: Date): Promise<boolean> {
  try {
    await collection.insertOne({ _id: id, at });
    return true;
  } catch (err) {
    if ((err as { code?: unknown }).code === 11000) return false;
    throw err;
  }
}

/** Gives back an id claimed by `claimOnce` whose work then failed, so that a redelivery does it. Best effort. */
export async function releaseClaim(collection: RollupCollection, id: string): Promise<void> {
  await collection.deleteOne({ _id: id }).catch(() => undefined);
}

/**
 * Reads documents by id, one exact `_id` query each (the only filter FerretDB v1 hands to its SQLite backend; `$in`
 * would make it decode the whole collection), in parallel, with the read limits.
 */
export async function findByIds(
  collection: RollupCollection,
  ids: string[],
  limits: { maxTimeMS: number; signal?: AbortSignal },
): Promise<Doc[]> {
  const docs = await Promise.all(
    ids.map((id) => collection.findOne({ _id: id }, { maxTimeMS: limits.maxTimeMS, signal: limits.signal })),
  );
  return docs.filter((doc): doc is Doc => doc !== null);
}
