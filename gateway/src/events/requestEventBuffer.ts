import type { EventData } from '@kasa/contracts';
import type { Logger } from '@kasa/service-kit';
import { Counter, type Registry } from 'prom-client';

type RequestRecord = EventData<'gateway.request.completed'>['requests'][number];

/** One answered request as the metrics policy sees it; `atMs` is turned into an ISO time only when sent. */
export interface CompletedRequest {
  route: string;
  method: string;
  status: number;
  durationMs: number;
  userId: string | undefined;
  apiKeyId: string | undefined;
  atMs: number;
}

/** What the buffer needs of the event bus. */
export interface RequestEventPublisher {
  isConnected(): boolean;
  publish(type: 'gateway.request.completed', data: EventData<'gateway.request.completed'>): Promise<unknown>;
}

export interface RequestEventBufferOptions {
  publisher: RequestEventPublisher;
  logger: Logger;
  /** Where the dropped-requests counter is registered (the gateway's /metrics). */
  registry: Registry;
  /** Send at least this often; default 1 000 ms. */
  flushIntervalMs?: number;
  /** Send as soon as this many are waiting; default 200. At most 1 000 go in one event (the contract's limit). */
  batchSize?: number;
  /** At most this many wait while the broker is away; the oldest are dropped beyond it. Default 10 000. */
  maxBuffered?: number;
  /** Sent with every batch when set (KASA_DEPLOYMENT). */
  deployment?: string;
}

/** The contract's limit of requests in one `gateway.request.completed` event. */
const MAX_PER_EVENT = 1_000;

/**
 * Collects answered requests and publishes them in `gateway.request.completed` batches: every `flushIntervalMs` or as
 * soon as `batchSize` are waiting, whichever comes first. Recording is a push into an array, so the request path
 * never waits for the broker. While RabbitMQ is away the batches wait, bounded by `maxBuffered`: beyond it the oldest
 * are dropped and counted in `gateway_request_events_dropped_total`, so an outage cannot grow memory without limit.
 */
export class RequestEventBuffer {
  private buffer: CompletedRequest[] = [];
  private sending: Promise<void> | undefined;
  private flushSoon: NodeJS.Immediate | undefined;
  private readonly timer: NodeJS.Timeout;
  private readonly batchSize: number;
  private readonly maxBuffered: number;
  readonly dropped: Counter;

  constructor(private readonly options: RequestEventBufferOptions) {
    this.batchSize = Math.min(options.batchSize ?? 200, MAX_PER_EVENT);
    this.maxBuffered = Math.max(options.maxBuffered ?? 10_000, this.batchSize);
    this.dropped = new Counter({
      name: 'gateway_request_events_dropped_total',
      help: 'Answered requests left out of gateway.request.completed because the buffer was full or sending failed',
      registers: [options.registry],
    });
    this.timer = setInterval(() => void this.flush(), options.flushIntervalMs ?? 1_000);
    this.timer.unref();
  }

  /** How many requests wait to be sent. */
  get size(): number {
    return this.buffer.length;
  }

  record(request: CompletedRequest): void {
    this.buffer.push(request);
    if (this.buffer.length > this.maxBuffered) {
      // Drop in one splice of a tenth of the bound, so that a long outage costs one copy per many requests.
      const excess = this.buffer.length - this.maxBuffered + Math.ceil(this.maxBuffered / 10);
      this.buffer.splice(0, excess);
      this.dropped.inc(excess);
    }
    if (this.buffer.length >= this.batchSize && !this.flushSoon) {
      this.flushSoon = setImmediate(() => {
        this.flushSoon = undefined;
        void this.flush();
      });
    }
  }

  /** Sends what is waiting, one event per 1 000 requests; one send at a time; nothing while disconnected. */
  flush(): Promise<void> {
    if (this.sending) return this.sending;
    if (this.buffer.length === 0 || !this.options.publisher.isConnected()) return Promise.resolve();
    this.sending = this.sendAll().finally(() => {
      this.sending = undefined;
    });
    return this.sending;
  }

  /** Stops the timer and sends what is left (when connected). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    if (this.flushSoon) clearImmediate(this.flushSoon);
    await this.flush();
  }

  private async sendAll(): Promise<void> {
    while (this.buffer.length > 0 && this.options.publisher.isConnected()) {
      const batch = this.buffer.splice(0, MAX_PER_EVENT);
      try {
        const { deployment } = this.options;
        await this.options.publisher.publish('gateway.request.completed', {
          ...(deployment ? { deployment } : {}),
          requests: batch.map(toRecord),
        });
      } catch (err) {
        this.dropped.inc(batch.length);
        this.options.logger.warn(
          { err: err instanceof Error ? err.message : String(err), requests: batch.length },
          'request events not published; dropped',
        );
        return;
      }
    }
  }
}

function toRecord(request: CompletedRequest): RequestRecord {
  const record: RequestRecord = {
    route: request.route,
    method: request.method,
    status: request.status,
    durationMs: Math.max(0, Math.round(request.durationMs * 1000) / 1000),
    at: new Date(request.atMs).toISOString(),
  };
  if (request.userId) record.userId = request.userId;
  if (request.apiKeyId) record.apiKeyId = request.apiKeyId;
  return record;
}
