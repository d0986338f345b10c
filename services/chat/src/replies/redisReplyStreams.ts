import type { AssistantReply } from '@kasa/contracts';
import type { Logger } from '@kasa/service-kit';
import type { Redis } from 'ioredis';
import type { ReplyEvent, ReplyMeta, ReplyStreams, ReplyWriter } from './replyStreams';

/** Text appended within this window goes to Redis as one entry: fewer commands, followers barely notice. */
const TEXT_BATCH_MS = 25;
/** A live reply's stream expires this long after its writer last touched it (so a dead writer's stream goes). */
const LIVE_TTL_MS = 60_000;
/** A finished reply's stream stays this long for followers already reading it; later ones read the database. */
const ENDED_TTL_MS = 30_000;
/** How long a follower's XREAD blocks before it checks that the stream still exists. */
const BLOCK_MS = 5_000;

type Entry = [id: string, fields: string[]];

/** Entry fields: `k` is the kind (o = opened, m = meta, x = text, e = end), `d` its data. */
function decode(fields: string[]): ReplyEvent | undefined {
  const kind = fields[fields.indexOf('k') + 1];
  const data = fields[fields.indexOf('d') + 1] ?? '';
  if (kind === 'x') return { type: 'text', text: data };
  if (kind === 'm') return { type: 'meta', meta: JSON.parse(data) as ReplyMeta };
  if (kind === 'e') {
    const reply = data ? (JSON.parse(data) as AssistantReply | null) : null;
    return reply ? { type: 'end', reply } : { type: 'end' };
  }
  return undefined;
}

/** Joins consecutive text entries, so that a follower gets the text so far in one piece. */
function* coalesce(entries: Entry[]): Generator<ReplyEvent> {
  let text = '';
  for (const [, fields] of entries) {
    const event = decode(fields);
    if (!event) continue;
    if (event.type === 'text') {
      text += event.text;
      continue;
    }
    if (text) yield { type: 'text', text };
    text = '';
    yield event;
  }
  if (text) yield { type: 'text', text };
}

/**
 * Replies being written, shared through Redis so that any replica can follow or stop them: a Redis Stream per reply
 * (XADD as text arrives, XRANGE then XREAD BLOCK to follow, an expiry renewed while it is written) and one pub/sub
 * channel on which a stop reaches the replica writing the reply.
 */
export class RedisReplyStreams implements ReplyStreams {
  private readonly writers = new Map<string, AbortController>();
  private readonly stopChannel: string;

  private constructor(
    private readonly redis: Redis,
    private readonly subscriber: Redis,
    private readonly prefix: string,
    private readonly logger: Logger,
  ) {
    this.stopChannel = `${prefix}reply-stop`;
  }

  /**
   * Subscribes to the stop channel before answering, so that no stop is missed. `redis` stays the caller's; the
   * subscriber connection is this object's (closed by `close`). `prefix` keeps deployments sharing a Redis apart.
   */
  static async create(redis: Redis, options: { logger: Logger; prefix?: string }): Promise<RedisReplyStreams> {
    const subscriber = redis.duplicate();
    const streams = new RedisReplyStreams(redis, subscriber, options.prefix ?? 'kasa:chat:', options.logger);
    subscriber.on('message', (_channel: string, messageId: string) =>
      streams.writers.get(messageId)?.abort(new Error('stop requested')),
    );
    await subscriber.subscribe(streams.stopChannel);
    return streams;
  }

  private key(messageId: string): string {
    return `${this.prefix}reply:${messageId}`;
  }

  start(messageId: string, ownerId: string): ReplyWriter {
    const key = this.key(messageId);
    const stop = new AbortController();
    this.writers.set(messageId, stop);
    // Commands on one connection run in order, so nothing here needs awaiting: the writer never waits on Redis.
    const add = (kind: string, data: string, ttlMs = LIVE_TTL_MS) =>
      this.redis
        .pipeline()
        .xadd(key, '*', 'k', kind, 'd', data)
        .pexpire(key, ttlMs)
        .exec()
        .catch((err: unknown) => this.logger.warn({ err }, 'reply not shared through Redis'));
    let pending = '';
    let batch: NodeJS.Timeout | undefined;
    const flushText = () => {
      clearTimeout(batch);
      batch = undefined;
      if (!pending) return;
      void add('x', pending);
      pending = '';
    };
    // A provider may think for a while before its first token: the stream must outlive that silence.
    const keepAlive = setInterval(
      () => void this.redis.pexpire(key, LIVE_TTL_MS).catch(() => undefined),
      LIVE_TTL_MS / 3,
    );
    keepAlive.unref();
    void add('o', ownerId);
    let finished = false;
    return {
      stopped: stop.signal,
      meta: (meta) => {
        flushText();
        void add('m', JSON.stringify(meta));
      },
      append: (text) => {
        pending += text;
        batch ??= setTimeout(flushText, TEXT_BATCH_MS);
      },
      finish: async (reply?: AssistantReply) => {
        if (finished) return;
        finished = true;
        flushText();
        clearInterval(keepAlive);
        if (this.writers.get(messageId) === stop) this.writers.delete(messageId);
        await add('e', JSON.stringify(reply ?? null), ENDED_TTL_MS);
      },
    };
  }

  async *follow(messageId: string, signal: AbortSignal): AsyncIterable<ReplyEvent> {
    const key = this.key(messageId);
    let entries: Entry[];
    try {
      entries = (await this.redis.xrange(key, '-', '+')) as Entry[];
    } catch (err) {
      this.logger.warn({ err }, 'reply not readable from Redis');
      return;
    }
    if (entries.length === 0 || signal.aborted) return;
    for (const event of coalesce(entries)) {
      yield event;
      if (event.type === 'end') return;
    }
    let last = entries[entries.length - 1]![0];
    // XREAD BLOCK holds its connection: each follower gets its own, closed when it leaves.
    const reader = this.redis.duplicate();
    const leave = () => reader.disconnect();
    signal.addEventListener('abort', leave, { once: true });
    try {
      while (!signal.aborted) {
        const answer = (await reader.xread('BLOCK', BLOCK_MS, 'STREAMS', key, last).catch((err: unknown) => {
          if (!signal.aborted) throw err;
          return null;
        })) as [string, Entry[]][] | null;
        if (signal.aborted) return;
        if (!answer) {
          // Nothing new for a while: the writer may have died and its stream expired.
          if ((await this.redis.exists(key)) === 0) return;
          continue;
        }
        const fresh = answer[0]?.[1] ?? [];
        if (fresh.length === 0) continue;
        last = fresh[fresh.length - 1]![0];
        for (const event of coalesce(fresh)) {
          yield event;
          if (event.type === 'end') return;
        }
      }
    } finally {
      signal.removeEventListener('abort', leave);
      reader.disconnect();
    }
  }

  async snapshot(messageId: string): Promise<{ text: string; meta?: ReplyMeta } | undefined> {
    const entries = (await this.redis.xrange(this.key(messageId), '-', '+')) as Entry[];
    if (entries.length === 0) return undefined;
    let text = '';
    let meta: ReplyMeta | undefined;
    for (const [, fields] of entries) {
      const event = decode(fields);
      if (event?.type === 'end') return undefined;
      if (event?.type === 'text') text += event.text;
      if (event?.type === 'meta') meta = event.meta;
    }
    return { text, ...(meta ? { meta } : {}) };
  }

  async requestStop(messageId: string): Promise<void> {
    const local = this.writers.get(messageId);
    if (local) local.abort(new Error('stop requested'));
    else await this.redis.publish(this.stopChannel, messageId);
  }

  async close(): Promise<void> {
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
  }
}
