import { isTransientDatabaseError } from '@kasa/service-kit';
import type { mongo } from 'mongoose';
import type { Doc, RollupCollection } from './collections';
import type { RollupCache } from './rollupCache';

type AnyBulkWriteOperation<T extends mongo.Document> = mongo.AnyBulkWriteOperation<T>;

/** One rollup update: counters to add, dates to raise, fields to set, on the document `_id` of `collection`. */
export interface RollupUpdate {
  collection: RollupCollection;
  id: string;
  inc?: Record<string, number>;
  max?: Record<string, Date>;
  set?: Record<string, unknown>;
  setOnInsert?: Record<string, unknown>;
  unset?: string[];
}

interface Pending {
  updates: RollupUpdate[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

const CHUNK = 500;
const ATTEMPTS = 4;

/**
 * The one way rollups are written: every update of the process goes through a single lane, one bulk write at a time,
 * and the updates queued meanwhile are merged per document (counters summed) into the next bulk write (group commit).
 *
 * Why one lane: the embedded FerretDB v1 applies concurrent `$inc` updates of one document non-atomically (increments
 * get lost) and can stall when several bulk upserts of the same documents run at once; MongoDB has neither problem,
 * but one lane costs it nothing either, since merged bulk writes are fewer writes.
 */
export class RollupWriter {
  private queue: Pending[] = [];
  private running = false;

  /** `cache`: the dashboards' copies of rollup documents, told of every document written (see RollupCache). */
  constructor(private readonly options: { cache?: RollupCache } = {}) {}

  /** Applies the updates; resolves once they are stored (with whatever else was merged into the same bulk write). */
  apply(updates: RollupUpdate[]): Promise<void> {
    if (updates.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ updates, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) {
        const group = this.queue;
        this.queue = [];
        const merged = merge(group.flatMap((p) => p.updates));
        try {
          await writeMerged(merged);
          for (const p of group) p.resolve();
        } catch (err) {
          for (const p of group) p.reject(err);
        } finally {
          // Also after a failed write: part of it may be stored.
          for (const u of merged) this.options.cache?.changed(u.collection, [u.id]);
        }
      }
    } finally {
      this.running = false;
    }
  }
}

/** Merges updates of the same document (in order); an update that unsets fields is never merged with another. */
export function merge(updates: RollupUpdate[]): RollupUpdate[] {
  const out: RollupUpdate[] = [];
  const open = new Map<string, RollupUpdate>();
  for (const u of updates) {
    const key = `${u.collection.collectionName}\0${u.id}`;
    const current = open.get(key);
    if (u.unset || !current) {
      const copy: RollupUpdate = {
        collection: u.collection,
        id: u.id,
        ...(u.inc ? { inc: { ...u.inc } } : {}),
        ...(u.max ? { max: { ...u.max } } : {}),
        ...(u.set ? { set: { ...u.set } } : {}),
        ...(u.setOnInsert ? { setOnInsert: { ...u.setOnInsert } } : {}),
        ...(u.unset ? { unset: [...u.unset] } : {}),
      };
      out.push(copy);
      if (u.unset) open.delete(key);
      else open.set(key, copy);
      continue;
    }
    for (const [path, n] of Object.entries(u.inc ?? {})) (current.inc ??= {})[path] = (current.inc[path] ?? 0) + n;
    for (const [path, at] of Object.entries(u.max ?? {})) {
      const max = (current.max ??= {});
      if (!max[path] || max[path] < at) max[path] = at;
    }
    if (u.set) current.set = { ...current.set, ...u.set };
    if (u.setOnInsert) current.setOnInsert = { ...u.setOnInsert, ...current.setOnInsert };
  }
  return out;
}

function toOperation(u: RollupUpdate): AnyBulkWriteOperation<Doc> {
  const update: mongo.Document = {};
  if (u.inc && Object.keys(u.inc).length > 0) update.$inc = u.inc;
  if (u.max && Object.keys(u.max).length > 0) update.$max = u.max;
  if (u.set && Object.keys(u.set).length > 0) update.$set = u.set;
  if (u.setOnInsert && Object.keys(u.setOnInsert).length > 0) update.$setOnInsert = u.setOnInsert;
  if (u.unset && u.unset.length > 0) update.$unset = Object.fromEntries(u.unset.map((path) => [path, '']));
  return { updateOne: { filter: { _id: u.id }, update, upsert: !u.unset } };
}

/**
 * Writes the updates collection by collection, in ordered bulk writes of at most CHUNK updates (each document appears
 * once per chunk: FerretDB v1 stalls on an upsert repeated within one bulk write). A write that failed part-way resumes
 * after the updates that were stored, so nothing is counted twice: a duplicate key (two upserts racing, on MongoDB with
 * several replicas) or a busy database is retried, anything else is thrown.
 */
async function writeMerged(updates: RollupUpdate[]): Promise<void> {
  const byCollection = new Map<RollupCollection, RollupUpdate[]>();
  for (const u of updates) byCollection.set(u.collection, [...(byCollection.get(u.collection) ?? []), u]);
  for (const [collection, list] of byCollection) {
    for (let start = 0; start < list.length; start += CHUNK) {
      const ops = list.slice(start, start + CHUNK).map(toOperation);
      let done = 0;
      for (let attempt = 1; done < ops.length; attempt += 1) {
        try {
          await collection.bulkWrite(ops.slice(done), { ordered: true });
          done = ops.length;
        } catch (err) {
          const first = firstWriteError(err);
          const failedAt = first?.index;
          const code = first?.code ?? (err as { code?: number }).code;
          const retryable = code === 11000 || isTransientDatabaseError(err);
          if (!retryable || attempt >= ATTEMPTS) throw err;
          if (typeof failedAt === 'number') done += failedAt;
          await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
        }
      }
    }
  }
}

/** The first write error of a failed bulk write (the driver gives one or a list). */
function firstWriteError(err: unknown): { index?: number; code?: number } | undefined {
  const writeErrors = (err as { writeErrors?: unknown }).writeErrors;
  const first = Array.isArray(writeErrors) ? writeErrors[0] : writeErrors;
  return first && typeof first === 'object' ? (first as { index?: number; code?: number }) : undefined;
}
