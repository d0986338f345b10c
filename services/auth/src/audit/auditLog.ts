import { InputError } from '@kasa/service-kit';
import type { FilterQuery, Model } from 'mongoose';
import type { AuditAction, AuditEntry } from '@kasa/contracts';
import type { AuditEntryDocument } from './auditModel';

/** The widest window one query or export may cover: bounded work whatever the log's size. */
export const AUDIT_MAX_SPAN_MS = 366 * 24 * 3600_000;
/** The window when the query names none: the last 30 days. */
export const AUDIT_DEFAULT_SPAN_MS = 30 * 24 * 3600_000;
const QUERY_TIME_LIMIT_MS = 5_000;
const EXPORT_TIME_LIMIT_MS = 20_000;

export interface AuditFilter {
  actorId?: string;
  targetId?: string;
  action?: AuditAction;
  /** One team's entries (what its owner and admins read). */
  teamId?: string;
  from: Date;
  to: Date;
}

/** The public shape of an entry. */
export type AuditEntryView = AuditEntry;

/** Where a page ends: the last entry's time and id (entries are newest first). */
interface AuditCursor {
  at: string;
  id: string;
}

export function encodeAuditCursor(entry: { at: Date; _id: string }): string {
  return Buffer.from(JSON.stringify({ at: entry.at.toISOString(), id: entry._id }), 'utf8').toString('base64url');
}

export function decodeAuditCursor(cursor: string): AuditCursor {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<AuditCursor>;
    if (typeof parsed.at === 'string' && typeof parsed.id === 'string' && !Number.isNaN(Date.parse(parsed.at))) {
      return { at: parsed.at, id: parsed.id };
    }
  } catch {
    /* answered below */
  }
  throw new InputError('cursor: not a cursor from an earlier page', { field: 'cursor' });
}

/**
 * The time window of a query: `from`/`to` as given, else the last 30 days up to now; never wider than 366 days and
 * never backwards (400 saying so), so every query reads a bounded slice of the time index.
 */
export function auditWindow(
  from: string | undefined,
  to: string | undefined,
  now = new Date(),
): { from: Date; to: Date } {
  const end = to ? new Date(to) : now;
  const start = from ? new Date(from) : new Date(end.getTime() - AUDIT_DEFAULT_SPAN_MS);
  if (start > end) throw new InputError('from: must not be after to', { field: 'from' });
  if (end.getTime() - start.getTime() > AUDIT_MAX_SPAN_MS) {
    throw new InputError('from: the window from from to to is at most 366 days', { field: 'from' });
  }
  return { from: start, to: end };
}

/**
 * The audit log's store: entries are added by the audit consumer only (`record`, idempotent by event id) and read
 * newest first, by page or as an export, within a time window and with a time limit on every query.
 */
export class AuditLog {
  constructor(private readonly entries: Model<AuditEntryDocument>) {}

  /** Adds the entry unless an entry of that event exists (a redelivery): never changes a stored one. */
  async record(entry: AuditEntryDocument): Promise<void> {
    await this.entries.updateOne({ _id: entry._id }, { $setOnInsert: entry }, { upsert: true });
  }

  async page(
    filter: AuditFilter,
    options: { limit: number; cursor?: string },
  ): Promise<{ entries: AuditEntryView[]; nextCursor: string | null }> {
    const query = this.queryOf(filter, options.cursor ? decodeAuditCursor(options.cursor) : undefined);
    const docs = await this.entries
      .find(query)
      .sort({ at: -1, _id: -1 })
      .limit(options.limit + 1)
      .maxTimeMS(QUERY_TIME_LIMIT_MS)
      .lean();
    const more = docs.length > options.limit;
    const shown = more ? docs.slice(0, options.limit) : docs;
    return { entries: shown.map(toView), nextCursor: more ? encodeAuditCursor(shown.at(-1)!) : null };
  }

  /** The entries of a filter, newest first, at most `max`, read through one cursor (for the CSV export). */
  async *stream(filter: AuditFilter, max: number, signal?: AbortSignal): AsyncGenerator<AuditEntryView> {
    const cursor = this.entries
      .find(this.queryOf(filter))
      .sort({ at: -1, _id: -1 })
      .limit(max)
      .maxTimeMS(EXPORT_TIME_LIMIT_MS)
      .batchSize(500)
      .lean()
      .cursor();
    try {
      for await (const doc of cursor) {
        if (signal?.aborted) return;
        yield toView(doc as AuditEntryDocument);
      }
    } finally {
      await cursor.close();
    }
  }

  private queryOf(filter: AuditFilter, after?: AuditCursor): FilterQuery<AuditEntryDocument> {
    const query: FilterQuery<AuditEntryDocument> = { at: { $gte: filter.from, $lte: filter.to } };
    if (filter.actorId) query.actorId = filter.actorId;
    if (filter.targetId) query.targetId = filter.targetId;
    if (filter.action) query.action = filter.action;
    if (filter.teamId) query.teamId = filter.teamId;
    if (after) {
      const at = new Date(after.at);
      query.$or = [{ at: { $lt: at } }, { at, _id: { $lt: after.id } }];
    }
    return query;
  }
}

function toView(doc: AuditEntryDocument): AuditEntryView {
  return {
    id: doc._id,
    at: doc.at.toISOString(),
    action: doc.action,
    actorId: doc.actorId,
    targetId: doc.targetId,
    clientIp: doc.clientIp,
    requestId: doc.requestId,
    details: doc.details ?? {},
  };
}
