import { ServiceUnavailableError } from '@kasa/service-kit';
import type { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { Schema, type Connection, type Model } from 'mongoose';
import { WriteGate } from '../messages/writeGate';

/**
 * The concurrent-replies limit: a person holds one slot per reply being written. `acquire` reserves atomically
 * before any work starts and answers the slot (undefined: the person is at the limit); `release` frees it once the
 * reply is stored. A slot expires by itself after `ttlMs`, so a replica that crashed mid-reply cannot keep a person
 * blocked.
 */
export interface ReplySlots {
  readonly limit: number;
  acquire(ownerId: string): Promise<string | undefined>;
  release(ownerId: string, slot: string): Promise<void>;
}

/** How long a slot lives at most; as long as the sweep waits before it gives up on a silent reply. */
export const SLOT_TTL_MS = 10 * 60_000;

/** Every query on the slots document gives up after this long (the embedded database queues writes under load). */
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
  { versionKey: false, collection: 'reply_slots' },
);

function isDuplicateKey(err: unknown): boolean {
  return (err as { code?: number })?.code === 11000;
}

/**
 * Slots in the service's database: one document per person whose slot list only grows while it is shorter than the
 * limit (the filter `slots.<limit-1>` does not exist), one single-document update, atomic on MongoDB and FerretDB.
 */
export class MongoReplySlots implements ReplySlots {
  private readonly docs: Model<SlotsDocument>;

  constructor(
    db: Connection,
    readonly limit: number,
    /** The service's queue of database writes (see WriteGate). */
    private readonly writes: WriteGate = new WriteGate(Infinity),
    private readonly ttlMs = SLOT_TTL_MS,
  ) {
    this.docs = (db.models.ReplySlots as Model<SlotsDocument>) ?? db.model<SlotsDocument>('ReplySlots', slotsSchema);
  }

  async acquire(ownerId: string): Promise<string | undefined> {
    const slot = newSlot(this.ttlMs);
    if (await this.push(ownerId, slot)) return slot;
    // Full, or the document was created by a concurrent first reservation: expired slots go, then one more try.
    // (By exact value: FerretDB's $pull takes no condition on the array's elements.)
    const doc = await this.docs.findById(ownerId).maxTimeMS(QUERY_TIME_LIMIT_MS).lean();
    const expired = (doc?.slots ?? []).filter((s) => expiryOf(s) <= Date.now());
    if (expired.length > 0)
      await this.writes.run(
        () => this.docs.updateOne({ _id: ownerId }, { $pullAll: { slots: expired } }).maxTimeMS(QUERY_TIME_LIMIT_MS),
        'first',
      );
    return (await this.push(ownerId, slot)) ? slot : undefined;
  }

  async release(ownerId: string, slot: string): Promise<void> {
    await this.writes.run(() =>
      this.docs.updateOne({ _id: ownerId }, { $pull: { slots: slot } }).maxTimeMS(QUERY_TIME_LIMIT_MS),
    );
  }

  private async push(ownerId: string, slot: string): Promise<boolean> {
    try {
      const result = await this.writes.run(
        () =>
          this.docs
            .updateOne(
              { _id: ownerId, [`slots.${this.limit - 1}`]: { $exists: false } },
              { $push: { slots: slot } },
              { upsert: true },
            )
            .maxTimeMS(QUERY_TIME_LIMIT_MS),
        'first',
      );
      return result.modifiedCount + result.upsertedCount > 0;
    } catch (err) {
      // The person's document exists and is full: the upsert tried to create it again.
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }
}

/** Drops expired slots, then adds one if fewer than the limit remain; all in one step on the Redis server. */
const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[3]), ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`;

/** Slots in Redis: a sorted set per person (slot id → expiry time), reserved by a Lua script. */
export class RedisReplySlots implements ReplySlots {
  constructor(
    private readonly redis: Redis,
    readonly limit: number,
    private readonly prefix = 'kasa:chat:',
    private readonly ttlMs = SLOT_TTL_MS,
  ) {}

  private key(ownerId: string): string {
    return `${this.prefix}reply-slots:${ownerId}`;
  }

  async acquire(ownerId: string): Promise<string | undefined> {
    const slot = randomUUID();
    let granted: unknown;
    try {
      granted = await this.redis.eval(ACQUIRE, 1, this.key(ownerId), Date.now(), this.limit, this.ttlMs, slot);
    } catch {
      // Without the shared count no reply may start (the limit would not hold): an outage, not a bug.
      throw new ServiceUnavailableError(
        'Replies cannot start right now because the shared reply store is not answering. Please try again shortly.',
      );
    }
    return granted === 1 ? slot : undefined;
  }

  async release(ownerId: string, slot: string): Promise<void> {
    await this.redis.zrem(this.key(ownerId), slot);
  }
}
