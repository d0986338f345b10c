import type { AssistantReply } from '@kasa/contracts';

/** Which provider is writing a reply; a second one comes with `continued: true` after a mid-stream failover. */
export interface ReplyMeta {
  provider: string;
  model: string;
  continued: boolean;
}

/** What a follower of a reply receives, in order: the text so far comes first as one `text` event. */
export type ReplyEvent =
  | { type: 'meta'; meta: ReplyMeta }
  | { type: 'text'; text: string }
  /** The reply is stored; `reply` is the stored message (absent when storing it failed: read it from the database). */
  | { type: 'end'; reply?: AssistantReply };

/** The writing side of one reply, held by the replica that runs the provider call. */
export interface ReplyWriter {
  /** Aborts when someone asks to stop the reply (`ReplyStreams.requestStop`, on any replica). */
  readonly stopped: AbortSignal;
  meta(meta: ReplyMeta): void;
  append(text: string): void;
  /** Ends the reply for its followers; call it after the finished reply is stored. Never throws. */
  finish(reply?: AssistantReply): Promise<void>;
}

/**
 * Replies being written, shared with whoever follows or stops them: the job store plus the event transport of a
 * reply, kept out of the database. One implementation lives in memory (one replica); the other in Redis, so that
 * any replica can follow a reply and stop it.
 */
export interface ReplyStreams {
  /** Registers a reply this process writes. */
  start(messageId: string, ownerId: string): ReplyWriter;
  /**
   * The reply's events: what was written so far, then what is added, then `end`. Yields nothing when the reply is
   * not live here (unknown, finished and gone, or its writer died); ends early when `signal` aborts.
   */
  follow(messageId: string, signal: AbortSignal): AsyncIterable<ReplyEvent>;
  /** The text written so far, when the reply is live (for a page that lists the session's messages). */
  snapshot(messageId: string): Promise<{ text: string; meta?: ReplyMeta } | undefined>;
  /** Stops the reply: at once when this process writes it, else on the replica that does (when shared). */
  requestStop(messageId: string): Promise<void>;
  close(): Promise<void>;
}
