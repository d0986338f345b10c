import type { PromptMessage } from '../providers/chatProvider';

/**
 * The recent history of the sessions this process serves, so that a prompt needs no database read: on the embedded
 * database (FerretDB v1) a session's history is a scan of every message (only `_id` lookups are pushed down), tens of
 * milliseconds each, which hundreds of simultaneous messages queue behind. Only for one replica (no REDIS_URL):
 * another replica's turns would not reach it. A session it does not hold is read from the database once.
 */
export class HistoryCache {
  private readonly sessions = new Map<string, PromptMessage[]>();

  constructor(
    /** Sessions held at most; the least recently used goes first. */
    private readonly maxSessions: number,
    /** Characters kept per session: more than any prompt's history budget uses. */
    private readonly maxChars: number,
  ) {}

  get(sessionId: string): PromptMessage[] | undefined {
    const history = this.sessions.get(sessionId);
    if (!history) return undefined;
    this.sessions.delete(sessionId);
    this.sessions.set(sessionId, history);
    return [...history];
  }

  set(sessionId: string, history: PromptMessage[]): void {
    this.sessions.delete(sessionId);
    this.sessions.set(sessionId, this.trim([...history]));
    while (this.sessions.size > this.maxSessions) this.sessions.delete(this.sessions.keys().next().value!);
  }

  /** Adds a finished turn to a session it holds (one it does not hold is read from the database when needed). */
  append(sessionId: string, ...messages: PromptMessage[]): void {
    const history = this.sessions.get(sessionId);
    if (history) this.sessions.set(sessionId, this.trim([...history, ...messages]));
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
