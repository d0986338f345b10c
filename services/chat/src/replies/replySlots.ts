import { MongoConcurrencySlots, RedisConcurrencySlots, type ConcurrencySlots } from '@kasa/service-kit';
import type { Redis } from 'ioredis';
import type { Connection } from 'mongoose';
import { WriteGate } from '../conversations/writeGate';

/**
 * The concurrent-replies limit (the kit's per-person slots): a person holds one slot per reply being written, on
 * /api/chat and /v1 alike. `acquire` reserves before any work starts; `release` frees it once the reply is stored.
 */
export type ReplySlots = ConcurrencySlots;

/** How long a slot lives at most; as long as the sweep waits before it gives up on a silent reply. */
export const SLOT_TTL_MS = 10 * 60_000;

/** Reply slots in the service's database (one replica), their writes queued with the service's other writes. */
export class MongoReplySlots extends MongoConcurrencySlots {
  constructor(db: Connection, limit: number, writes: WriteGate = new WriteGate(Infinity), ttlMs = SLOT_TTL_MS) {
    super(db, { limit, ttlMs, collection: 'reply_slots', runWrite: (write, priority) => writes.run(write, priority) });
  }
}

/** Reply slots in Redis (several replicas, one limit). */
export class RedisReplySlots extends RedisConcurrencySlots {
  constructor(redis: Redis, limit: number, prefix = 'kasa:chat:', ttlMs = SLOT_TTL_MS) {
    super(redis, { limit, ttlMs, prefix, scope: 'reply' });
  }
}
