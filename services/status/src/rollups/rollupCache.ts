import { LRUCache } from 'lru-cache';
import { findByIds, type Doc, type RollupCollection } from './collections';

/** A document read (or known absent: `null`), as held. */
interface Held {
  doc: Doc | null;
}

/** How often the record of recent changes may be kept before it is cleared (see `changed`). */
const MAX_CHANGES_TRACKED = 10_000;

/**
 * The rollup documents dashboards read, held in memory so that a dashboard asked again (the developer portal polls)
 * or by many at once reads memory instead of the database: on the embedded database a 25 KB month document costs
 * FerretDB several milliseconds of CPU to decode, and twenty dashboards at once queue behind each other.
 *
 * It stays exact because this process is the only writer of rollups (RollupWriter calls `changed` after each write):
 * a written document is dropped, and a read that was under way when it was written does not keep what it read.
 * With several status replicas (each writing) it must be off (`STATUS_ROLLUP_CACHE_MB=0`), as in k8s/; the TTL only
 * bounds how long a document is held.
 */
export class RollupCache {
  private readonly held: LRUCache<string, Held>;
  /** Counts `changed` calls; a read remembers the count it started at. */
  private changes = 0;
  /** The count at which each document last changed, while reads are under way. */
  private readonly changedAt = new Map<string, number>();
  /** Reads that started before this count may not keep what they read (the record above was cleared). */
  private floor = 0;
  private readsUnderWay = 0;

  constructor(options: { maxBytes: number; ttlMs: number }) {
    this.held = new LRUCache<string, Held>({
      maxSize: options.maxBytes,
      // The JSON length approximates what the document holds in memory closely enough for a bound.
      sizeCalculation: (held) => Math.max(1, held.doc ? JSON.stringify(held.doc).length : 16),
      ttl: options.ttlMs,
    });
  }

  /** Documents of `collection` by id (those that exist), from memory where held, the rest from the database. */
  async findByIds(
    collection: RollupCollection,
    ids: string[],
    limits: { maxTimeMS: number; signal?: AbortSignal },
  ): Promise<Doc[]> {
    const found: Doc[] = [];
    const missing: string[] = [];
    for (const id of ids) {
      const held = this.held.get(keyOf(collection, id));
      if (!held) missing.push(id);
      else if (held.doc) found.push(held.doc);
    }
    if (missing.length === 0) return found;

    const startedAt = this.changes;
    this.readsUnderWay += 1;
    try {
      const docs = await findByIds(collection, missing, limits);
      const byId = new Map(docs.map((doc) => [doc._id, doc]));
      for (const id of missing) {
        const key = keyOf(collection, id);
        if (startedAt >= this.floor && (this.changedAt.get(key) ?? -1) < startedAt + 1)
          this.held.set(key, { doc: byId.get(id) ?? null });
      }
      return [...found, ...docs];
    } finally {
      this.readsUnderWay -= 1;
      if (this.readsUnderWay === 0) this.changedAt.clear();
    }
  }

  /** These documents were written (or may have been): drop them, and let no read under way keep them. */
  changed(collection: RollupCollection, ids: Iterable<string>): void {
    this.changes += 1;
    for (const id of ids) {
      const key = keyOf(collection, id);
      this.held.delete(key);
      if (this.readsUnderWay > 0) this.changedAt.set(key, this.changes);
    }
    if (this.changedAt.size > MAX_CHANGES_TRACKED) {
      this.changedAt.clear();
      this.floor = this.changes + 1;
    }
  }

  /** How many documents are held (for tests and the metrics). */
  get size(): number {
    return this.held.size;
  }
}

const keyOf = (collection: RollupCollection, id: string) => `${collection.collectionName}\0${id}`;
