import type { AnalyticsSession, EventData } from '@kasa/contracts';
import { dayKey, dayOf, fieldKey, fromFieldKey, monthOfDay } from '../rollups/buckets';
import { claimOnce, findByIds, releaseClaim, type StatusCollections } from '../rollups/collections';
import type { RollupCache } from '../rollups/rollupCache';
import type { RollupUpdate, RollupWriter } from '../rollups/rollupWriter';
import type { ReadLimits } from '../queries/queryLimits';
import { userMonthId } from '../requests/requestStore';

/** A session in the person's `recent_sessions` document; `createdAt` is absent until its creation arrives. */
interface RecentSession {
  personaId?: string;
  title?: string;
  createdAt?: Date;
  messageCount?: number;
  lastMessageAt?: Date;
}

/** The sessions a person's document keeps: the newest this many (the list shows at most 100). */
const KEEP_SESSIONS = 100;
/** A document is trimmed back to KEEP_SESSIONS once it holds more than this many. */
const TRIM_ABOVE = 150;
/** Messages of a session whose creation has not arrived are kept this long (it normally follows within seconds). */
const ORPHAN_MS = 86_400_000;

/**
 * Chat activity from chat's events, for the analytics panel: counts per person and day in their month document
 * (`usage_months`: sessions, sessions per persona, messages, the person's messages per language) and their newest
 * sessions with message counts (`recent_sessions`). Never message content. A message or session is counted once by
 * its id (`status_markers`), whatever event brings it.
 */
export class ChatActivityStore {
  constructor(
    private readonly collections: StatusCollections,
    private readonly writer: RollupWriter,
    /** Where dashboards' reads are answered from memory when it holds the document (one status replica). */
    private readonly cache?: RollupCache,
  ) {}

  async recordSession(data: EventData<'chat.session.created'>, eventTime: string): Promise<void> {
    const marker = `session:${data.sessionId}`;
    const first = await claimOnce(this.collections.markers, marker, new Date());
    try {
      await this.writer.apply(sessionUpdates(this.collections, data, eventTime, first));
    } catch (err) {
      if (first) await releaseClaim(this.collections.markers, marker);
      throw err;
    }
    await this.trim(data.userId);
  }

  /** Counts the message once (a repeated event changes nothing), on the person's day and on its session. */
  async recordMessage(data: EventData<'chat.message.created'>, eventTime: string): Promise<void> {
    const marker = `message:${data.messageId}`;
    if (!(await claimOnce(this.collections.markers, marker, new Date()))) return;
    try {
      await this.writer.apply(messageUpdates(this.collections, data, eventTime));
    } catch (err) {
      await releaseClaim(this.collections.markers, marker);
      throw err;
    }
  }

  /** The person's newest sessions (those whose creation has arrived), at most `limit`: one document read. */
  async listSessions(userId: string, limit: number, limits: ReadLimits): Promise<AnalyticsSession[]> {
    const sessions = this.collections.sessions(userId);
    const docs = this.cache
      ? await this.cache.findByIds(sessions, [userId], limits)
      : await findByIds(sessions, [userId], limits);
    return newestFirst(docs[0]?.s as Record<string, RecentSession> | undefined)
      .slice(0, limit)
      .map(([id, s]) => ({
        id,
        personaId: s.personaId ?? 'kasa',
        title: s.title ?? 'Untitled chat',
        createdAt: s.createdAt!.toISOString(),
        messageCount: s.messageCount ?? 0,
        lastMessageAt: s.lastMessageAt ? s.lastMessageAt.toISOString() : null,
      }));
  }

  /**
   * Keeps a person's document bounded: above TRIM_ABOVE sessions, all but the newest KEEP_SESSIONS go, and so do
   * messages counted for a session whose creation never arrived within a day.
   */
  private async trim(userId: string, now = Date.now()): Promise<void> {
    const doc = await this.collections.sessions(userId).findOne({ _id: userId }, { maxTimeMS: 5_000 });
    const all = Object.entries((doc?.s ?? {}) as Record<string, RecentSession>);
    if (all.length <= TRIM_ABOVE) return;
    const keep = new Set(
      newestFirst(doc?.s)
        .slice(0, KEEP_SESSIONS)
        .map(([id]) => fieldKey(id)),
    );
    const drop = all
      .filter(([key, s]) => {
        if (keep.has(key)) return false;
        if (s.createdAt) return true;
        return !s.lastMessageAt || now - s.lastMessageAt.getTime() > ORPHAN_MS;
      })
      .map(([key]) => `s.${key}`);
    if (drop.length > 0)
      await this.writer.apply([{ collection: this.collections.sessions(userId), id: userId, unset: drop }]);
  }

  /** Deletes message and session markers older than `before` (their counts stay in the rollups). */
  async deleteOlderThan(before: Date): Promise<number> {
    return (await this.collections.markers.deleteMany({ at: { $lt: before } })).deletedCount;
  }
}

/** The sessions whose creation has arrived, newest first (then by id, newest id first), with decoded ids. */
function newestFirst(map: Record<string, RecentSession> | undefined): Array<[string, RecentSession]> {
  return Object.entries(map ?? {})
    .filter(([, s]) => s.createdAt instanceof Date)
    .sort(([a, x], [b, y]) => y.createdAt!.getTime() - x.createdAt!.getTime() || (a < b ? 1 : a > b ? -1 : 0))
    .map(([key, s]) => [fromFieldKey(key) ?? '', s]);
}

/**
 * The rollup updates of a session's creation: its line in the person's recent sessions, and (the first time it is
 * seen) its count on the person's day and persona. Exported for the benchmark's bulk loader.
 */
export function sessionUpdates(
  collections: StatusCollections,
  data: EventData<'chat.session.created'>,
  eventTime: string,
  first: boolean,
): RollupUpdate[] {
  const createdAt = new Date(data.createdAt ?? eventTime);
  const sid = fieldKey(data.sessionId);
  const day = dayOf(createdAt);
  const month = monthOfDay(day);
  const updates: RollupUpdate[] = [
    {
      collection: collections.sessions(data.userId),
      id: data.userId,
      set: {
        [`s.${sid}.personaId`]: data.personaId,
        [`s.${sid}.title`]: data.title ?? 'Untitled chat',
        [`s.${sid}.createdAt`]: createdAt,
      },
    },
  ];
  if (first) {
    updates.push({
      collection: collections.usage(data.userId),
      id: userMonthId(data.userId, month),
      inc: {
        [`days.${dayKey(day)}.sessions`]: 1,
        [`days.${dayKey(day)}.persona.${fieldKey(data.personaId)}`]: 1,
      },
      setOnInsert: { userId: data.userId, month },
    });
  }
  return updates;
}

/**
 * The rollup updates of a new message: the person's day (messages, and their own messages per language) and its
 * session's count. Exported for the benchmark's bulk loader.
 */
export function messageUpdates(
  collections: StatusCollections,
  data: EventData<'chat.message.created'>,
  eventTime: string,
): RollupUpdate[] {
  const at = new Date(eventTime);
  const day = dayOf(at);
  const month = monthOfDay(day);
  const sid = fieldKey(data.sessionId);
  const inc: Record<string, number> = { [`days.${dayKey(day)}.messages`]: 1 };
  if (data.role === 'user' && data.language) inc[`days.${dayKey(day)}.language.${fieldKey(data.language)}`] = 1;
  return [
    {
      collection: collections.usage(data.userId),
      id: userMonthId(data.userId, month),
      inc,
      setOnInsert: { userId: data.userId, month },
    },
    {
      collection: collections.sessions(data.userId),
      id: data.userId,
      inc: { [`s.${sid}.messageCount`]: 1 },
      max: { [`s.${sid}.lastMessageAt`]: at },
    },
  ];
}
