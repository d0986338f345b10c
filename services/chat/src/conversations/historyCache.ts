import type { PromptMessage } from '../providers/chatProvider';

/** A session's recent history as the next prompt reads it, and the message a new message follows. */
export interface CachedHistory {
  history: PromptMessage[];
  /** The last message of the current branch (a new message follows it); null for an empty conversation. */
  leafId: string | null;
}

/**
 * The recent history of the sessions this process serves, so that a prompt needs no database read: on the embedded
 * database (FerretDB v1) a session's history is a scan of every message (only `_id` lookups are pushed down), tens of
 * milliseconds each, which hundreds of simultaneous messages queue behind. Only for one replica (no REDIS_URL):
 * another replica's turns would not reach it. A session it does not hold is read from the database once. Each entry
 * is the current branch of its conversation; a change of branch (choosing another version) forgets it.
 */
export class HistoryCache {
  private readonly sessions = new Map<string, CachedHistory>();

  constructor(
    /** Sessions held at most; the least recently used goes first. */
    private readonly maxSessions: number,
    /** Characters kept per session: more than any prompt's history budget uses. */
    private readonly maxChars: number,
  ) {}

  get(sessionId: string): CachedHistory | undefined {
    const entry = this.sessions.get(sessionId);
    if (!entry) return undefined;
    this.sessions.delete(sessionId);
    this.sessions.set(sessionId, entry);
    return { history: [...entry.history], leafId: entry.leafId };
  }

  /** Holds a session's history, which ends at the message `leafId` (a reply being written, often). */
  set(sessionId: string, history: PromptMessage[], leafId: string | null): void {
    this.sessions.delete(sessionId);
    this.sessions.set(sessionId, { history: this.trim([...history]), leafId });
    while (this.sessions.size > this.maxSessions) this.sessions.delete(this.sessions.keys().next().value!);
  }

  /**
   * Adds a finished turn, whose reply is `leafId`, to a session it holds. When the session's branch moved on in the
   * meantime (another message sent at the same time, another version chosen), the entry no longer describes it and
   * is forgotten: the next prompt reads the database.
   */
  append(sessionId: string, leafId: string, ...messages: PromptMessage[]): void {
    const entry = this.sessions.get(sessionId);
    if (!entry) return;
    if (entry.leafId !== leafId) this.sessions.delete(sessionId);
    else this.sessions.set(sessionId, { history: this.trim([...entry.history, ...messages]), leafId });
  }

  forget(sessionId: string): void {
    this.sessions.delete(sessionId);
  }

  private trim(history: PromptMessage[]): PromptMessage[] {
    let chars = 0;
    let start = history.length;
    while (start > 0 && chars + history[start - 1]!.content.length <= this.maxChars) {
      start -= 1;
      chars += history[start]!.content.length;
    }
    return history.slice(start);
  }
}
