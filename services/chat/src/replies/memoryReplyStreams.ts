import type { AssistantReply } from '@kasa/contracts';
import type { ReplyEvent, ReplyMeta, ReplyStreams, ReplyWriter } from './replyStreams';

interface LiveReply {
  ownerId: string;
  text: string;
  meta?: ReplyMeta;
  stop: AbortController;
  listeners: Set<(event: ReplyEvent) => void>;
}

/**
 * Replies being written, in this process's memory: the default of one replica. Followers on this process get each
 * piece as it is appended; a reply is forgotten once finished (its stored message is then in the database).
 */
export class MemoryReplyStreams implements ReplyStreams {
  private readonly live = new Map<string, LiveReply>();

  start(messageId: string, ownerId: string): ReplyWriter {
    const reply: LiveReply = { ownerId, text: '', stop: new AbortController(), listeners: new Set() };
    this.live.set(messageId, reply);
    const emit = (event: ReplyEvent) => reply.listeners.forEach((listener) => listener(event));
    return {
      stopped: reply.stop.signal,
      meta: (meta) => {
        reply.meta = meta;
        emit({ type: 'meta', meta });
      },
      append: (text) => {
        reply.text += text;
        emit({ type: 'text', text });
      },
      finish: async (stored?: AssistantReply) => {
        if (this.live.get(messageId) === reply) this.live.delete(messageId);
        emit({ type: 'end', reply: stored });
        reply.listeners.clear();
      },
    };
  }

  async *follow(messageId: string, signal: AbortSignal): AsyncIterable<ReplyEvent> {
    const reply = this.live.get(messageId);
    if (!reply || signal.aborted) return;
    const queue: ReplyEvent[] = [];
    let wake: (() => void) | undefined;
    const listener = (event: ReplyEvent) => {
      queue.push(event);
      wake?.();
    };
    const onAbort = () => wake?.();
    // The state so far and the listener are taken together, so that no piece is missed or sent twice.
    const { meta, text } = reply;
    reply.listeners.add(listener);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      if (meta) yield { type: 'meta', meta };
      if (text) yield { type: 'text', text };
      for (;;) {
        while (queue.length > 0) {
          const event = queue.shift()!;
          yield event;
          if (event.type === 'end') return;
        }
        if (signal.aborted) return;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
    } finally {
      reply.listeners.delete(listener);
      signal.removeEventListener('abort', onAbort);
    }
  }

  async snapshot(messageId: string): Promise<{ text: string; meta?: ReplyMeta } | undefined> {
    const reply = this.live.get(messageId);
    return reply ? { text: reply.text, ...(reply.meta ? { meta: reply.meta } : {}) } : undefined;
  }

  async requestStop(messageId: string): Promise<void> {
    this.live.get(messageId)?.stop.abort(new Error('stop requested'));
  }

  async close(): Promise<void> {
    this.live.clear();
  }
}
