import { readServerSentEvents, type ServerSentEvent } from './sse.js';

/** What a decoder makes of one Server-Sent Event: an item to hand out, nothing (skip it), or the end. */
export type Decoded<T> = { item: T } | { skip: true } | { end: true; item?: T };

/**
 * A streamed answer of the Kasa API, read with `for await`. It can be read once. Leaving the loop early (break,
 * return, an exception) or calling `abort()` closes the connection, which stops the server's work on it; the
 * AbortSignal given to the call does the same.
 */
export class EventStream<T> implements AsyncIterable<T> {
  private consumed = false;
  private ended = false;

  constructor(
    private readonly response: Response,
    private readonly controller: AbortController,
    private readonly decode: (event: ServerSentEvent) => Decoded<T>,
    /** Raised when the stream stops without its closing event (a dropped connection, say). */
    private readonly endedEarly: () => Error,
    private readonly release: () => void,
  ) {}

  /** The id the API gave the request (`x-request-id`), to quote when asking for support. */
  get requestId(): string | undefined {
    return this.response.headers.get('x-request-id') ?? undefined;
  }

  /** Closes the connection: the loop reading the stream rejects with an AbortError. */
  abort(reason?: unknown): void {
    this.controller.abort(reason);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    if (this.consumed) throw new Error('This stream has already been read; a stream can be read once.');
    this.consumed = true;
    const body = this.response.body;
    try {
      if (!body) throw this.endedEarly();
      for await (const event of readServerSentEvents(body)) {
        // Aborted while the loop's body ran: events already read from the connection are not handed out.
        if (this.controller.signal.aborted) throw this.controller.signal.reason;
        const decoded = this.decode(event);
        if ('skip' in decoded) continue;
        if ('end' in decoded) {
          this.ended = true;
          if (decoded.item !== undefined) yield decoded.item;
          return;
        }
        yield decoded.item;
      }
      if (this.controller.signal.aborted) throw this.controller.signal.reason;
      throw this.endedEarly();
    } finally {
      // Left early: hang up, so that the server stops writing (and stops the provider).
      if (!this.ended) this.controller.abort();
      this.release();
    }
  }
}
