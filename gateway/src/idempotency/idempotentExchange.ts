import { createHash, type Hash } from 'node:crypto';
import type { OutgoingHttpHeaders } from 'node:http';
import type { Logger } from '@kasa/service-kit';
import type { GatewayRequest } from '../eg/types';
import type { IdempotencyStore, InFlightRecord, RecordedResponse } from './idempotencyStore';

/**
 * What the proxy tells the idempotency policy about one forwarded request (see proxyPolicy.ts): the body as it goes
 * upstream, the answer as it comes back, and how it ended. After `claim()` the proxy calls exactly one of
 * `responseEnd()` or `fail()`.
 */
export interface ExchangeTap {
  /** A body the gateway has already read (a duplicate that found the key free again): forwarded instead of the stream. */
  readonly bufferedBody?: Buffer;
  /**
   * Whether the upstream request should run to its end when the client goes away, so that a retry gets its answer.
   * False for streamed answers (events, audio), where the client leaving means stop (a chat reply stops being written).
   */
  readonly outlivesClient: boolean;
  claim(): void;
  requestData(chunk: Buffer): void;
  requestEnd(): void;
  responseStart(status: number, headers: OutgoingHttpHeaders): void;
  responseData(chunk: Buffer): void;
  responseEnd(): void;
  fail(): void;
}

interface TappedRequest extends GatewayRequest {
  kasaExchangeTap?: ExchangeTap;
}

/** The tap the idempotency policy left on this request, if any (one property read on the hot path). */
export function exchangeTapOf(req: GatewayRequest): ExchangeTap | undefined {
  return (req as TappedRequest).kasaExchangeTap;
}

export function setExchangeTap(req: GatewayRequest, tap: ExchangeTap): void {
  (req as TappedRequest).kasaExchangeTap = tap;
}

/** A forwarded request whose answer is not recorded (the store failed): only hands over a body already read. */
export class PassThroughTap implements ExchangeTap {
  readonly outlivesClient = false;
  constructor(readonly bufferedBody: Buffer) {}
  claim(): void {}
  requestData(): void {}
  requestEnd(): void {}
  responseStart(): void {}
  responseData(): void {}
  responseEnd(): void {}
  fail(): void {}
}

/** Response headers a replay repeats; the rest (rate limits, request id, security headers) are the replay's own. */
const REPLAYED_HEADERS = new Set([
  'content-type',
  'content-language',
  'content-disposition',
  'content-encoding',
  'location',
  'cache-control',
  'x-accel-buffering',
]);

/** 2xx and 4xx answers are final; 409 and 429 say "not now", so a retry must run again (as Stripe does). */
export function isRecordable(status: number): boolean {
  return (status >= 200 && status < 300) || (status >= 400 && status < 500 && status !== 409 && status !== 429);
}

export interface ExchangeSettings {
  store: IdempotencyStore;
  logger: Logger;
  /** How long a completed answer is replayed. */
  replayTtlMs: number;
  /** How long an in-flight key lives without renewal (renewed every third of it while the request runs). */
  leaseMs: number;
  /** Answers with a longer body are not recorded: the key is released when they end. */
  maxRecordedBytes: number;
}

/**
 * The first request with a key, from the moment it holds the key: hashes the body as the proxy forwards it, keeps
 * the key's lease alive, records the answer as it passes (chunk by chunk, a stream as well), and then either stores
 * it for replay or releases the key (5xx, 409, 429, an answer over the size bound, a failure, a client that left an
 * event stream).
 */
export class IdempotentExchange implements ExchangeTap {
  readonly outlivesClient: boolean;
  readonly bufferedBody?: Buffer;
  private hash?: Hash;
  private bodyHash?: string;
  private claimed = false;
  private settled = false;
  private response?: { status: number; headers: Record<string, string | string[]> };
  private chunks: Buffer[] = [];
  private recordedBytes = 0;
  private recording = false;
  private readonly lease: NodeJS.Timeout;
  private readonly requestId?: string;

  constructor(
    private readonly settings: ExchangeSettings,
    private readonly key: string,
    private readonly record: InFlightRecord,
    options: { outlivesClient: boolean; bufferedBody?: Buffer; requestId?: string },
  ) {
    this.outlivesClient = options.outlivesClient;
    this.requestId = options.requestId;
    if (options.bufferedBody) {
      this.bufferedBody = options.bufferedBody;
      this.bodyHash = record.bodyHash ?? sha256(options.bufferedBody);
    } else {
      this.hash = createHash('sha256');
    }
    this.lease = setInterval(() => this.renew(), Math.max(50, Math.floor(settings.leaseMs / 3)));
    this.lease.unref();
  }

  claim(): void {
    this.claimed = true;
  }

  /** Releases the key if the request ended before the proxy took it (an earlier policy answered, or a bad path). */
  abandonUnlessClaimed(): void {
    if (!this.claimed) this.fail();
  }

  requestData(chunk: Buffer): void {
    this.hash?.update(chunk);
  }

  requestEnd(): void {
    if (!this.hash || this.bodyHash !== undefined) return;
    this.bodyHash = this.hash.digest('hex');
    this.hash = undefined;
    // Duplicates compare their body with this as soon as it is known, rather than wait for the answer.
    if (!this.settled) this.renew();
  }

  responseStart(status: number, headers: OutgoingHttpHeaders): void {
    if (this.settled) return;
    this.recording = isRecordable(status);
    if (!this.recording) return;
    const kept: Record<string, string | string[]> = {};
    for (const name in headers) {
      const value = headers[name];
      if (value === undefined) continue;
      const lower = name.toLowerCase();
      if (REPLAYED_HEADERS.has(lower) || lower.startsWith('x-kasa-'))
        kept[lower] = Array.isArray(value) ? value : String(value);
    }
    this.response = { status, headers: kept };
  }

  responseData(chunk: Buffer): void {
    if (!this.recording) return;
    this.recordedBytes += chunk.length;
    if (this.recordedBytes > this.settings.maxRecordedBytes) {
      // Too big to keep: the key is released when the answer ends, so a retry runs again.
      this.recording = false;
      this.chunks = [];
      return;
    }
    // The proxy hands over undici's chunk; it is not reused, so keeping the reference is safe.
    this.chunks.push(chunk);
  }

  responseEnd(): void {
    if (this.settled) return;
    if (!this.recording || !this.response || this.bodyHash === undefined) {
      this.fail();
      return;
    }
    this.settle();
    const response: RecordedResponse = { ...this.response, body: Buffer.concat(this.chunks, this.recordedBytes) };
    this.chunks = [];
    const { method, path, owner } = this.record;
    const completed = {
      state: 'completed' as const,
      method,
      path,
      bodyHash: this.bodyHash,
      response,
      completedAtMs: Date.now(),
    };
    this.settings.store.replace(this.key, owner, completed, this.settings.replayTtlMs).then(
      (stored) => {
        if (!stored)
          this.settings.logger.warn(
            { requestId: this.requestId },
            'idempotency key lost before its answer was recorded (lease expired or evicted)',
          );
      },
      (err: unknown) => {
        this.warn(err, 'idempotent answer not recorded');
        // The key must not stay in flight: duplicates would wait for nothing until the lease ends.
        this.settings.store.release(this.key, owner).catch(() => undefined);
      },
    );
  }

  fail(): void {
    if (this.settled) return;
    this.settle();
    this.chunks = [];
    this.settings.store
      .release(this.key, this.record.owner)
      .catch((err: unknown) => this.warn(err, 'idempotency key not released'));
  }

  private settle(): void {
    this.settled = true;
    this.recording = false;
    clearInterval(this.lease);
  }

  private renew(): void {
    const record: InFlightRecord =
      this.bodyHash === undefined ? this.record : { ...this.record, bodyHash: this.bodyHash };
    this.settings.store
      .replace(this.key, this.record.owner, record, this.settings.leaseMs)
      .catch((err: unknown) => this.warn(err, 'idempotency lease not renewed'));
  }

  private warn(err: unknown, message: string): void {
    this.settings.logger.warn(
      { requestId: this.requestId, err: err instanceof Error ? err.message : String(err) },
      message,
    );
  }
}

export function sha256(body: Buffer): string {
  return createHash('sha256').update(body).digest('hex');
}
