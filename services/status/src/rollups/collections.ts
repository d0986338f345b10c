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
 * - `api_key_owners`: whose each API key is, from auth's events (see ApiKeyOwners); read by `_id`.
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
  apiKeyOwners: RollupCollection;
}

/**
 * Per-person collections are split into SHARDS collections by a hash of the user id (`usage_months_07`), so that the
 * hourly clean-up deletes from one small collection at a time. Few, because on the embedded database every
 * collection is a SQLite table with an index, and every SQLite connection holds the parsed schema of all of them:
 * with 512 shards (releases before this one; see `mergeLegacyShards`), 30 concurrent reads over 231 collections held
 * 24.5 MB of SQLite memory where 12 collections need 5.4 MB, and the database's memory followed how many connections
 * the load had open. Reads are
 * exact `_id` lookups, which the patched FerretDB (scripts/ferretdb-patches) and MongoDB answer from the index
 * whatever a collection's size.
 */
export const SHARDS = 16;
/** How many shards releases before this one used: a multiple of SHARDS, so a person's shard is their old one's rest. */
export const LEGACY_SHARDS = 512;

const shardName = (family: string, shard: number) => `${family}_${String(shard).padStart(2, '0')}`;
const SHARDED_FAMILIES = ['usage_months', 'recent_sessions'] as const;

/** FNV-1a: a stable, well-spread hash of the user id. */
export function userHash(userId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < userId.length; i += 1) {
    hash ^= userId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** The person's shard. */
export function shardOf(userId: string): number {
  return userHash(userId) % SHARDS;
}

export function statusCollections(connection: Pick<Connection, 'collection'>): StatusCollections {
  const named = (name: string) => connection.collection(name) as unknown as RollupCollection;
  const shards = (name: string) => Array.from({ length: SHARDS }, (_, i) => named(shardName(name, i)));
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
    apiKeyOwners: named('api_key_owners'),
  };
}

/**
 * Moves the documents of the shards an earlier release used beyond SHARDS (`usage_months_16` … `_511`, the same for
 * `recent_sessions`) into the shard each person has now (old shard modulo SHARDS) and drops them. Runs at start-up,
 * before any event is consumed, and costs nothing once done. A run cut short is repeated at the next start: a
 * document already in its new shard is kept as it is there. Returns how many documents were moved.
 */
export async function mergeLegacyShards(db: mongo.Db): Promise<number> {
  const existing = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name));
  let moved = 0;
  for (const family of SHARDED_FAMILIES) {
    for (let shard = SHARDS; shard < LEGACY_SHARDS; shard += 1) {
      const name = shardName(family, shard);
      if (!existing.has(name)) continue;
      const from = db.collection<Doc>(name);
      const to = db.collection<Doc>(shardName(family, shard % SHARDS));
      let batch: Doc[] = [];
      const flush = async () => {
        if (batch.length > 0) moved += await insertAbsent(to, batch);
        batch = [];
      };
      for await (const doc of from.find({})) {
        batch.push(doc);
        if (batch.length >= 100) await flush();
      }
      await flush();
      await from.drop();
    }
  }
  return moved;
}

/** Inserts the documents whose `_id` the collection does not hold yet; returns how many it inserted. */
async function insertAbsent(collection: RollupCollection, docs: Doc[]): Promise<number> {
  try {
    return (await collection.insertMany(docs, { ordered: false })).insertedCount;
  } catch (err) {
    const bulk = err as {
      code?: unknown;
      writeErrors?: Array<{ code?: unknown }> | { code?: unknown };
      insertedCount?: number;
    };
    const errors = Array.isArray(bulk.writeErrors) ? bulk.writeErrors : bulk.writeErrors ? [bulk.writeErrors] : [];
    const onlyDuplicates = errors.length > 0 ? errors.every((e) => e.code === 11000) : bulk.code === 11000;
    if (!onlyDuplicates) throw err;
    return bulk.insertedCount ?? docs.length - errors.length;
  }
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
