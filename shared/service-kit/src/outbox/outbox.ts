import type { EventData, EventType } from '@kasa/contracts';
import type { Model } from 'mongoose';
import { randomUUID } from 'node:crypto';
import type { EventBus } from '../bus/EventBus';
import { createEnvelope } from '../bus/envelope';
import type { Logger } from '../logger';

/**
 * Where an outbox entry is (after eShop's IntegrationEventLogEntry): written `NotPublished` with the document; `InProgress`
 * while a process publishes it; `Published` once the broker confirmed; `Failed` when it was given up (its data break
 * the contract, or `maxAttempts` publishes ended without a confirm).
 */
export type OutboxState = 'NotPublished' | 'InProgress' | 'Published' | 'Failed';

/** One integration event waiting on its document to be published. */
export interface OutboxEntry<T extends EventType = EventType> {
  /** The event's CloudEvents id, the same on every republish (consumers skip an id they have handled). */
  id: string;
  type: T;
  data: EventData<T>;
  requestId?: string;
  state: OutboxState;
  /** Publishes started (claims); the entry is Failed once `maxAttempts` of them ended without a confirm. */
  attempts: number;
  createdAt: Date;
  /** When the state last changed: an entry InProgress for longer than `staleMs` is taken over. */
  updatedAt: Date;
  publishedAt?: Date;
  /** Why it Failed. */
  error?: string;
}

/** Options of an Outbox. */
export interface OutboxOptions {
  /** The collection whose documents carry the entries. */
  // Any document shape: the outbox reads and writes only `field` (and `_id`).
  model: Model<any>;
  /** The document field holding the entry (one event per field per document), e.g. `completedEvent`. */
  field: string;
  bus: Pick<EventBus, 'publishWithin'>;
  logger: Logger;
  /** How long `publish` waits for the broker's confirm before the caller goes on; default 2 000 ms. */
  publishWaitMs?: number;
  /** Publishes started before the entry is Failed; default 10. */
  maxAttempts?: number;
  /** An entry InProgress this long (its process died or is cut off from the broker) is taken over; default 60 000 ms. */
  staleMs?: number;
  /** Entries republished per pass; default 100. */
  batch?: number;
}

/** What one republish pass did. */
export interface RepublishReport {
  /** Entries published again in this pass. */
  attempted: number;
  /** Of those, confirmed within `publishWaitMs`. */
  published: number;
  /** Entries given up in this pass. */
  failed: number;
}

const QUERY_TIME_LIMIT_MS = 15_000;

/**
 * The kit's outbox: an integration event stored with the write that causes it, then published, and republished
 * until the broker confirms it. FerretDB has no multi-document transactions, so the entry lives ON the document, in
 * `field`, written by the same single-document update as the change it reports:
 *
 * ```ts
 * const event = outbox.entry('voice.video.completed', { jobId, userId, status }, { id: `voice.video.completed:${jobId}` });
 * await jobs.updateOne({ _id: jobId }, { $set: { status, ...outbox.set(event) } });
 * await outbox.publish(jobId, event); // waits up to publishWaitMs; never throws
 * ```
 *
 * `republish()` (scheduled by `ServiceRuntime.outbox`, through `runtime.every`) picks up the entries still
 * NotPublished, and those InProgress for longer than `staleMs` whose process is gone, and publishes them again
 * with the same id. While this process's bus is still sending an entry (the broker is away: the bus holds the
 * message and sends it on reconnect), the entry is not sent again from here. Each publish started counts an attempt;
 * after `maxAttempts` the entry is Failed (logged at error) and left for an operator. Published entries stay on their
 * document until the next event replaces them or the document goes.
 */
export class Outbox {
  readonly field: string;
  private readonly inFlight = new Set<string>();
  private readonly publishWaitMs: number;
  private readonly maxAttempts: number;
  private readonly staleMs: number;
  private readonly batch: number;

  constructor(private readonly options: OutboxOptions) {
    this.field = options.field;
    this.publishWaitMs = options.publishWaitMs ?? 2_000;
    this.maxAttempts = options.maxAttempts ?? 10;
    this.staleMs = options.staleMs ?? 60_000;
    this.batch = options.batch ?? 100;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(this.field))
      throw new Error(`Outbox field '${this.field}' is not a plain name`);
  }

  /**
   * A new entry, NotPublished, to store with the document (see `set`); `id` defaults to a random UUID. Validates
   * `data` against the event's contract first (an InvalidEventError, before anything is written).
   */
  entry<T extends EventType>(
    type: T,
    data: EventData<T>,
    options: { id?: string; requestId?: string } = {},
  ): OutboxEntry<T> {
    const id = options.id ?? randomUUID();
    // The contract's parse: what is stored is what will be sent (unknown fields never leave).
    const { data: parsed } = createEnvelope(type, data, { source: 'outbox', id });
    const now = new Date();
    return {
      id,
      type,
      data: parsed as EventData<T>,
      ...(options.requestId !== undefined ? { requestId: options.requestId } : {}),
      state: 'NotPublished',
      attempts: 0,
      createdAt: now,
      updatedAt: now,
    };
  }

  /** The `$set` fragment that stores `entry` on the document: `{ [field]: entry }`. */
  set(entry: OutboxEntry): Record<string, OutboxEntry> {
    return { [this.field]: entry };
  }

  /**
   * Publishes the entry just stored on document `documentId` (after the write); resolves true once the broker
   * confirmed within `publishWaitMs`, false otherwise (the republisher carries on). Never throws.
   */
  async publish(documentId: unknown, entry: Pick<OutboxEntry, 'id'>): Promise<boolean> {
    try {
      const claimed = await this.claim(documentId, entry.id, { state: 'NotPublished' });
      return claimed ? await this.send(documentId, claimed) : false;
    } catch (err) {
      this.options.logger.warn({ err, eventId: entry.id }, 'outbox publish failed; the republisher retries it');
      return false;
    }
  }

  /** One pass over the entries due (NotPublished, or InProgress and stale): publishes each again. */
  async republish(): Promise<RepublishReport> {
    const { model } = this.options;
    const f = this.field;
    const staleBefore = new Date(Date.now() - this.staleMs);
    const due = (await model
      .find(
        {
          $or: [
            { [`${f}.state`]: 'NotPublished' },
            { [`${f}.state`]: 'InProgress', [`${f}.updatedAt`]: { $lt: staleBefore } },
          ],
        },
        { [f]: 1 },
      )
      .limit(this.batch)
      .maxTimeMS(QUERY_TIME_LIMIT_MS)
      .lean()) as unknown as Array<{ _id: unknown } & Record<string, OutboxEntry | undefined>>;
    const report: RepublishReport = { attempted: 0, published: 0, failed: 0 };
    for (const doc of due) {
      const entry = doc[f];
      if (!entry || this.inFlight.has(entry.id)) continue; // this process's bus is still sending it
      if (entry.attempts >= this.maxAttempts) {
        if (await this.fail(doc._id, entry, `not confirmed after ${entry.attempts} attempts`)) report.failed += 1;
        continue;
      }
      const claimed = await this.claim(
        doc._id,
        entry.id,
        entry.state === 'InProgress' ? { state: 'InProgress', updatedAt: entry.updatedAt } : { state: 'NotPublished' },
      );
      if (!claimed) continue; // another process took it, or it was published meanwhile
      report.attempted += 1;
      const confirmed = await this.send(doc._id, claimed);
      if (confirmed) report.published += 1;
      else if ((await this.stateOf(doc._id, entry.id)) === 'Failed') report.failed += 1;
    }
    return report;
  }

  /** NotPublished (or a stale InProgress) → InProgress, counting an attempt; the claimed entry, or undefined. */
  private async claim(
    documentId: unknown,
    id: string,
    expected: { state: OutboxState; updatedAt?: Date },
  ): Promise<OutboxEntry | undefined> {
    const f = this.field;
    const claimed = (await this.options.model
      .findOneAndUpdate(
        {
          _id: documentId,
          [`${f}.id`]: id,
          [`${f}.state`]: expected.state,
          ...(expected.updatedAt ? { [`${f}.updatedAt`]: expected.updatedAt } : {}),
        },
        { $set: { [`${f}.state`]: 'InProgress', [`${f}.updatedAt`]: new Date() }, $inc: { [`${f}.attempts`]: 1 } },
        // No projection: FerretDB's findAndModify has none.
        { new: true },
      )
      .lean()) as unknown as Record<string, OutboxEntry | undefined> | null;
    return claimed?.[f] ?? undefined;
  }

  /** Publishes a claimed entry; its state follows the broker's confirm (or the publish's failure). */
  private async send(documentId: unknown, entry: OutboxEntry): Promise<boolean> {
    this.inFlight.add(entry.id);
    // Once, whichever comes first: the confirm within the wait, or the bus's later word on it.
    let settling: Promise<void> | undefined;
    const settle = (confirmed: boolean) =>
      (settling ??= (async () => {
        this.inFlight.delete(entry.id);
        if (confirmed) await this.markPublished(documentId, entry.id);
        else await this.release(documentId, entry, 'the publish failed');
      })());
    try {
      const confirmed = await this.options.bus.publishWithin(entry.type, entry.data, this.publishWaitMs, {
        id: entry.id,
        ...(entry.requestId !== undefined ? { requestId: entry.requestId } : {}),
        onSettled: (ok) => settle(ok),
      });
      if (confirmed) await settle(true);
      else
        this.options.logger.warn(
          { eventId: entry.id, type: entry.type, attempts: entry.attempts },
          'outbox event not confirmed in time; still sending, and republished later if it never is',
        );
      return confirmed;
    } catch (err) {
      // Not the bus's (it never rejects): a test double's, say. Treated as a failed publish.
      await settle(false);
      this.options.logger.warn({ err, eventId: entry.id }, 'outbox publish failed');
      return false;
    }
  }

  private async markPublished(documentId: unknown, id: string): Promise<void> {
    const f = this.field;
    const now = new Date();
    // Whatever state it reached meanwhile: the broker has it (a late confirm after a release or a give-up).
    await this.options.model.updateOne(
      { _id: documentId, [`${f}.id`]: id },
      { $set: { [`${f}.state`]: 'Published', [`${f}.updatedAt`]: now, [`${f}.publishedAt`]: now } },
    );
  }

  /** InProgress → NotPublished for the next pass, or Failed once the attempts are spent. */
  private async release(documentId: unknown, entry: OutboxEntry, reason: string): Promise<void> {
    if (entry.attempts >= this.maxAttempts) {
      await this.fail(documentId, entry, `${reason} (after ${entry.attempts} attempts)`);
      return;
    }
    const f = this.field;
    await this.options.model.updateOne(
      { _id: documentId, [`${f}.id`]: entry.id, [`${f}.state`]: 'InProgress' },
      { $set: { [`${f}.state`]: 'NotPublished', [`${f}.updatedAt`]: new Date() } },
    );
  }

  /** Gives the entry up (never one already Published); true if it changed. */
  private async fail(documentId: unknown, entry: OutboxEntry, error: string): Promise<boolean> {
    const f = this.field;
    const result = await this.options.model.updateOne(
      { _id: documentId, [`${f}.id`]: entry.id, [`${f}.state`]: { $in: ['NotPublished', 'InProgress'] } },
      { $set: { [`${f}.state`]: 'Failed', [`${f}.updatedAt`]: new Date(), [`${f}.error`]: error.slice(0, 500) } },
    );
    if (result.modifiedCount > 0) {
      this.options.logger.error(
        { eventId: entry.id, type: entry.type, attempts: entry.attempts, error },
        'outbox event given up: publish it again by setting its state back to NotPublished',
      );
    }
    return result.modifiedCount > 0;
  }

  private async stateOf(documentId: unknown, id: string): Promise<OutboxState | undefined> {
    const f = this.field;
    const doc = (await this.options.model
      .findOne({ _id: documentId, [`${f}.id`]: id }, { [f]: 1 })
      .lean()) as unknown as Record<string, OutboxEntry | undefined> | null;
    return doc?.[f]?.state;
  }
}
