import { LRUCache } from 'lru-cache';

/** A first request with a key, still running: `owner` names the request that holds the key. */
export interface InFlightRecord {
  state: 'in_flight';
  owner: string;
  method: string;
  path: string;
  /** sha-256 (hex) of the body as forwarded; known once the whole body has gone upstream. */
  bodyHash?: string;
  startedAtMs: number;
}

/** The answer a duplicate gets, as the first request got it. */
export interface RecordedResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

export interface CompletedRecord {
  state: 'completed';
  method: string;
  path: string;
  bodyHash: string;
  response: RecordedResponse;
  completedAtMs: number;
}

export type IdempotencyRecord = InFlightRecord | CompletedRecord;

/**
 * Where idempotency keys live: process memory, or Redis shared by every gateway instance. Every change to a key is
 * atomic: `reserve` takes a free key (SET NX), `replace` and `release` act only while the key is still in flight and
 * held by the same owner, so a request that lost its key (expired lease, eviction) can never overwrite another's.
 */
export interface IdempotencyStore {
  /** Takes the key for a first request; false when it exists (in flight or completed). */
  reserve(key: string, record: InFlightRecord, ttlMs: number): Promise<boolean>;
  get(key: string): Promise<IdempotencyRecord | undefined>;
  /** Replaces `owner`'s in-flight record (a longer lease, the body hash, or the completed answer). */
  replace(key: string, owner: string, record: IdempotencyRecord, ttlMs: number): Promise<boolean>;
  /** Frees the key if `owner` still holds it in flight, so that a retry runs again. */
  release(key: string, owner: string): Promise<void>;
  close(): Promise<void>;
}

/** What a record costs in memory, roughly: its body plus a fixed share for the object, the key and the headers. */
function sizeOf(record: IdempotencyRecord, key: string): number {
  const base = 256 + key.length * 2;
  if (record.state === 'in_flight') return base + record.path.length * 2;
  let headers = 0;
  for (const name in record.response.headers) headers += name.length + String(record.response.headers[name]).length;
  return base + record.path.length * 2 + headers * 2 + record.response.body.length;
}

/** Bounds of the in-process store. */
export interface MemoryStoreLimits {
  maxEntries: number;
  maxBytes: number;
}

/**
 * Keys in this process's memory (when REDIS_URL is unset): a bounded LRU, at most `maxEntries` keys and `maxBytes`
 * of recorded answers; past either bound the least recently used keys are forgotten (a duplicate of a forgotten key
 * runs again). Each key expires after its TTL. Operations are synchronous steps, hence atomic.
 */
export class MemoryIdempotencyStore implements IdempotencyStore {
  private readonly records: LRUCache<string, IdempotencyRecord>;

  constructor(limits: MemoryStoreLimits, now?: () => number) {
    this.records = new LRUCache<string, IdempotencyRecord>({
      max: limits.maxEntries,
      maxSize: limits.maxBytes,
      sizeCalculation: (record, key) => sizeOf(record, key),
      ttl: 24 * 3_600_000,
      ...(now ? { perf: { now } } : {}),
    });
  }

  get size(): number {
    return this.records.size;
  }

  get calculatedSize(): number {
    return this.records.calculatedSize;
  }

  async reserve(key: string, record: InFlightRecord, ttlMs: number): Promise<boolean> {
    if (this.records.has(key)) return false;
    this.records.set(key, record, { ttl: ttlMs });
    return true;
  }

  async get(key: string): Promise<IdempotencyRecord | undefined> {
    return this.records.get(key);
  }

  async replace(key: string, owner: string, record: IdempotencyRecord, ttlMs: number): Promise<boolean> {
    if (!this.holds(key, owner)) return false;
    this.records.set(key, record, { ttl: ttlMs });
    // An answer bigger than the store's byte bound is not kept (lru-cache refuses it); the key is then free.
    return this.records.has(key);
  }

  async release(key: string, owner: string): Promise<void> {
    if (this.holds(key, owner)) this.records.delete(key);
  }

  async close(): Promise<void> {
    this.records.clear();
  }

  private holds(key: string, owner: string): boolean {
    const current = this.records.get(key, { updateAgeOnGet: false });
    return current?.state === 'in_flight' && current.owner === owner;
  }
}
