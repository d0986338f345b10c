import { randomUUID } from 'node:crypto';
import { Schema, type Connection, type Model } from 'mongoose';
import { ServiceUnavailableError } from '../errors';

/**
 * A per-person concurrency limit: a person (or a key, a team: whatever owns the work) holds one slot per piece of
 * costly work in flight. `acquire` reserves atomically before the work starts and answers the slot (undefined: the
 * owner is at the limit); `release` frees it when the work ends. A slot expires by itself after its time to live, so
 * a process that crashed mid-work cannot keep anyone blocked.
 */
export interface ConcurrencySlots {
  readonly limit: number;
  acquire(ownerId: string): Promise<string | undefined>;
  release(ownerId: string, slot: string): Promise<void>;
}

/** Runs a write; a service with a queue of database writes passes its own (the slots' writes come `first`). */
export type SlotWriteRunner = <T>(write: () => Promise<T>, priority: 'first' | 'later') => Promise<T>;

export interface SlotOptions {
  /** The most slots one owner holds at once. */
  limit: number;
  /** How long a slot lives at most: longer than the work it guards may take. */
  ttlMs: number;
  /**
   * What the slots guard (`synthesis`, `attachments`...): kept apart per scope. Empty: the owner's id alone is the key
   * (the chat's reply slots, which predate scopes).
   */
  scope?: string;
}

/** Every query on a slots document gives up after this long (the embedded database queues writes under load). */
const QUERY_TIME_LIMIT_MS = 15_000;

/** A slot is `<expiry in ms>:<random id>`: a plain string, which FerretDB's $pull and $pullAll match exactly. */
const newSlot = (ttlMs: number) => `${Date.now() + ttlMs}:${randomUUID()}`;
const expiryOf = (slot: string) => Number(slot.slice(0, slot.indexOf(':')));

interface SlotsDocument {
  _id: string;
  slots: string[];
}

const slotsSchema = new Schema<SlotsDocument>(
  { _id: { type: String }, slots: { type: [String], default: [] } },
  { versionKey: false },
);

const isDuplicateKey = (err: unknown): boolean => (err as { code?: number })?.code === 11000;

const runDirectly: SlotWriteRunner = (write) => write();

/** The model of one slots collection on this connection, made once. */
function slotsModel(db: Connection, collection: string): Model<SlotsDocument> {
  const name = `ConcurrencySlots:${collection}`;
  return (db.models[name] as Model<SlotsDocument>) ?? db.model<SlotsDocument>(name, slotsSchema, collection);
}

/**
 * Slots in the service's database: one document per owner and scope whose slot list only grows while it is shorter
 * than the limit (the filter `slots.<limit-1>` does not exist): one single-document update, atomic on MongoDB and on
 * the embedded FerretDB, whatever the number of replicas.
 */
export class MongoConcurrencySlots implements ConcurrencySlots {
  readonly limit: number;
  private readonly docs: Model<SlotsDocument>;
  private readonly ttlMs: number;
  private readonly scope: string;

  constructor(
    db: Connection,
    options: SlotOptions & {
      /** The collection (default `concurrency_slots`). */
      collection?: string;
      /**
       * Slots are given back by the process that took them (a request's slot, released when its response ends), so
       * this process may refuse an owner who holds the limit here without asking the database (default). False when
       * another process may release them (a queued job's slot, released by whichever worker ran the job).
       */
      releasedWhereTaken?: boolean;
      runWrite?: SlotWriteRunner;
    },
  ) {
    this.limit = options.limit;
    this.ttlMs = options.ttlMs;
    this.scope = options.scope ?? '';
    this.docs = slotsModel(db, options.collection ?? 'concurrency_slots');
    this.runWrite = options.runWrite ?? runDirectly;
    this.countHere = options.releasedWhereTaken ?? true;
  }

  private readonly countHere: boolean;

  private readonly runWrite: SlotWriteRunner;
  /**
   * Slots this process holds, per key. The database's count is the truth across replicas; but an owner who already
   * holds the limit here is at it everywhere, so a flood of refused requests costs the database nothing.
   */
  private readonly heldHere = new Map<string, number>();

  private key(ownerId: string): string {
    return this.scope ? `${this.scope}:${ownerId}` : ownerId;
  }

  async acquire(ownerId: string): Promise<string | undefined> {
    const key = this.key(ownerId);
    if (this.countHere && (this.heldHere.get(key) ?? 0) >= this.limit) return undefined;
    const slot = await this.reserve(key);
    if (slot && this.countHere) this.heldHere.set(key, (this.heldHere.get(key) ?? 0) + 1);
    return slot;
  }

  async release(ownerId: string, slot: string): Promise<void> {
    const key = this.key(ownerId);
    const held = this.heldHere.get(key) ?? 0;
    if (held <= 1) this.heldHere.delete(key);
    else this.heldHere.set(key, held - 1);
    // (A slot's release is counted here even if its database write fails: the slot then expires there by itself.)
    await this.runWrite(
      () => this.docs.updateOne({ _id: key }, { $pull: { slots: slot } }).maxTimeMS(QUERY_TIME_LIMIT_MS),
      'later',
    );
  }

  private async reserve(key: string): Promise<string | undefined> {
    const slot = newSlot(this.ttlMs);
    if (await this.push(key, slot)) return slot;
    // Full, or the document was created by a concurrent first reservation: expired slots go, then one more try.
    // (By exact value: FerretDB's $pull takes no condition on the array's elements.)
    const doc = await this.docs.findById(key).maxTimeMS(QUERY_TIME_LIMIT_MS).lean();
    const expired = (doc?.slots ?? []).filter((s) => expiryOf(s) <= Date.now());
    if (expired.length > 0)
      await this.runWrite(
        () => this.docs.updateOne({ _id: key }, { $pullAll: { slots: expired } }).maxTimeMS(QUERY_TIME_LIMIT_MS),
        'first',
      );
    return (await this.push(key, slot)) ? slot : undefined;
  }

  private async push(key: string, slot: string): Promise<boolean> {
    try {
      const result = await this.runWrite(
        () =>
          this.docs
            .updateOne(
              { _id: key, [`slots.${this.limit - 1}`]: { $exists: false } },
              { $push: { slots: slot } },
              { upsert: true },
            )
            .maxTimeMS(QUERY_TIME_LIMIT_MS),
        'first',
      );
      return result.modifiedCount + result.upsertedCount > 0;
    } catch (err) {
      // The owner's document exists and is full: the upsert tried to create it again.
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }
}

/** What the Redis slots need of a client (ioredis's `Redis` has it), so the kit does not depend on one. */
export interface SlotsRedis {
  eval(script: string, keys: number, ...args: Array<string | number>): Promise<unknown>;
  zrem(key: string, ...members: string[]): Promise<number>;
}

/** Drops expired slots, then adds one if fewer than the limit remain; all in one step on the Redis server. */
const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[3]), ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`;

/** Slots in Redis (several replicas, one limit): a sorted set per owner (slot id → expiry time), reserved by a script. */
export class RedisConcurrencySlots implements ConcurrencySlots {
  readonly limit: number;
  private readonly ttlMs: number;
  private readonly keyPrefix: string;

  constructor(
    private readonly redis: SlotsRedis,
    options: SlotOptions & {
      /** Keeps the keys of deployments (or test runs) sharing one Redis apart, e.g. `kasa:chat:`. */
      prefix: string;
    },
  ) {
    this.limit = options.limit;
    this.ttlMs = options.ttlMs;
    this.keyPrefix = `${options.prefix}${options.scope || 'reply'}-slots:`;
  }

  async acquire(ownerId: string): Promise<string | undefined> {
    const slot = randomUUID();
    let granted: unknown;
    try {
      granted = await this.redis.eval(ACQUIRE, 1, this.keyPrefix + ownerId, Date.now(), this.limit, this.ttlMs, slot);
    } catch {
      // Without the shared count no work may start (the limit would not hold): an outage, not a bug.
      throw new ServiceUnavailableError(
        'This cannot start right now because the shared limit store is not answering. Please try again shortly.',
      );
    }
    return granted === 1 ? slot : undefined;
  }

  async release(ownerId: string, slot: string): Promise<void> {
    await this.redis.zrem(this.keyPrefix + ownerId, slot);
  }
}
