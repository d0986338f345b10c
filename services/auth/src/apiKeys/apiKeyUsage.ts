import type { Logger } from '@kasa/service-kit';
import type { Model, Types } from 'mongoose';
import type { ApiKeyDocument } from './apiKeyModel';

export interface ApiKeyUsageOptions {
  keys: Model<ApiKeyDocument>;
  logger: Logger;
  /** How often the uses noted since the last write are written, in one bulk write (default 5 s). */
  flushIntervalMs?: number;
  /** Keys waiting to be written at most; beyond it further uses are not recorded until a write succeeds. */
  maxPending?: number;
}

/** A key's lastUsedAt is rewritten at most this often: "last used" in the key list is to the minute. */
export const LAST_USED_RESOLUTION_MS = 60_000;
const WRITE_TIME_LIMIT_MS = 5_000;
const WARNING_INTERVAL_MS = 60_000;

/**
 * The "last used" time of API keys, kept off the verification path: verifying a key notes the use in memory and
 * answers; the uses are written in the background, one bulk write every `flushIntervalMs` (and on shutdown), each
 * key at most once a minute. A write that fails is retried with the next one. The buffer is bounded: while the
 * database is away, the uses of keys beyond `maxPending` are lost (a warning says how many), never the answer.
 */
export class ApiKeyUsageRecorder {
  private pending = new Map<string, { id: Types.ObjectId; at: Date }>();
  private readonly flushIntervalMs: number;
  private readonly maxPending: number;
  private timer?: NodeJS.Timeout;
  private writing?: Promise<void>;
  private dropped = 0;
  private lastWarningMs = 0;

  constructor(private readonly options: ApiKeyUsageOptions) {
    this.flushIntervalMs = options.flushIntervalMs ?? 5_000;
    this.maxPending = options.maxPending ?? 10_000;
  }

  /** Starts the periodic writes (the timer never keeps the process alive). */
  start(): this {
    this.timer ??= setInterval(() => void this.flush(), this.flushIntervalMs).unref();
    return this;
  }

  /** Notes that `key` was used at `now`; synchronous, no I/O. Skipped when the stored time is under a minute old. */
  record(key: Pick<ApiKeyDocument, '_id' | 'lastUsedAt'>, now: Date): void {
    if (key.lastUsedAt && key.lastUsedAt.getTime() > now.getTime() - LAST_USED_RESOLUTION_MS) return;
    const id = key._id.toString();
    const waiting = this.pending.get(id);
    if (waiting) {
      if (waiting.at < now) waiting.at = now;
      return;
    }
    if (this.pending.size >= this.maxPending) {
      this.dropped += 1;
      return;
    }
    this.pending.set(id, { id: key._id, at: now });
  }

  /** Keys whose use waits to be written. */
  get size(): number {
    return this.pending.size;
  }

  /** Writes what is waiting (one write at a time; a call during a write waits for it, then writes the rest). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    this.writing = this.write(batch).finally(() => {
      this.writing = undefined;
    });
    await this.writing;
  }

  /** Stops the timer and writes what is still waiting (on shutdown, before the database closes). */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private async write(batch: Array<{ id: Types.ObjectId; at: Date }>): Promise<void> {
    try {
      await this.options.keys.bulkWrite(
        batch.map(({ id, at }) => ({
          updateOne: {
            // Conditional: never moves a key's time backwards (several auth replicas write the same keys).
            filter: { _id: id, $or: [{ lastUsedAt: null }, { lastUsedAt: { $lt: at } }] },
            update: { $set: { lastUsedAt: at } },
          },
        })),
        { ordered: false, maxTimeMS: WRITE_TIME_LIMIT_MS },
      );
    } catch (err) {
      // Back into the buffer for the next write, unless a newer use of the key is already waiting.
      for (const entry of batch) {
        const id = entry.id.toString();
        if (this.pending.has(id)) continue;
        if (this.pending.size >= this.maxPending) this.dropped += 1;
        else this.pending.set(id, entry);
      }
      this.warn(err);
    }
    if (this.dropped > 0) this.warn();
  }

  private warn(err?: unknown): void {
    const nowMs = Date.now();
    if (nowMs - this.lastWarningMs < WARNING_INTERVAL_MS) return;
    this.lastWarningMs = nowMs;
    this.options.logger.warn(
      { err: err instanceof Error ? err.message : undefined, waiting: this.pending.size, dropped: this.dropped },
      'API key last-use times not written yet',
    );
    this.dropped = 0;
  }
}
