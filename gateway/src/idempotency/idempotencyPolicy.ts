import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { ErrorCode } from '@kasa/contracts';
import type { Logger } from '@kasa/service-kit';
import { sendError } from '../errors';
import type { EgConfig, EgPolicy, GatewayRequest, GatewayResponse, Next } from '../eg/types';
import { refuseTooLarge, routeBodyLimits } from '../proxy/bodyLimit';
import type { IdempotencyStore, InFlightRecord, RecordedResponse } from './idempotencyStore';
import {
  IdempotentExchange,
  PassThroughTap,
  setExchangeTap,
  sha256,
  type ExchangeSettings,
} from './idempotentExchange';

/** The request header (Stripe's name), and the response header that marks a replayed answer (Stripe's too). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
export const MAX_KEY_LENGTH = 255;

export interface IdempotencyOptions {
  /** How long a completed answer is replayed (24 h). */
  replayTtlMs: number;
  /** How long a key in flight survives its gateway going away (renewed while the request runs). */
  leaseMs: number;
  /** How long a duplicate waits for the first request to finish before a 409. */
  waitMs: number;
  /** How often a waiting duplicate looks at the store. */
  pollMs: number;
  /** Answers with a longer body are passed on but not recorded (the key is released). */
  maxRecordedBytes: number;
}

export const DEFAULT_IDEMPOTENCY_OPTIONS: IdempotencyOptions = {
  replayTtlMs: 24 * 3_600_000,
  leaseMs: 60_000,
  waitMs: 30_000,
  pollMs: 75,
  maxRecordedBytes: 1024 * 1024,
};

const STORE_WARNING_INTERVAL_MS = 10_000;

/** 1 to 255 printable ASCII characters (space to tilde), as Stripe accepts. */
export function isValidIdempotencyKey(value: string): boolean {
  if (value.length === 0 || value.length > MAX_KEY_LENGTH) return false;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code > 0x7e) return false;
  }
  return true;
}

/**
 * Where a caller's keys live: per person (the user id of the token or of the API key's owner), and for a team key
 * per team as well, so two people's keys never meet. The user id is a Redis Cluster hash tag.
 */
function scopeOf(req: GatewayRequest): string | undefined {
  const key = req.kasaApiKey;
  if (key) return `kasa:idempotency:{${key.userId}}:${key.teamId ? `team:${key.teamId}` : '-'}:`;
  if (req.kasaIdentity) return `kasa:idempotency:{${req.kasaIdentity.sub}}:-:`;
  return undefined;
}

/** A streamed answer (a chat reply as events, speech as it is made): its client leaving means stop. */
function wantsStream(req: GatewayRequest): boolean {
  const accept = req.headers.accept;
  return typeof accept === 'string' && (accept.includes('text/event-stream') || accept.includes('audio/'));
}

/**
 * Idempotency keys on creating POSTs, as Stripe has them, after authentication (keys belong to a caller): a POST
 * with `Idempotency-Key` (1–255 printable ASCII characters, else 400) is run once; its answer (2xx, or 4xx other
 * than 409 and 429) is recorded and replayed for 24 h to a request with the same key, method, path and body, with
 * `Idempotent-Replayed: true`. The same key with another body, method or path is a 422 `idempotency_key_reused`. A
 * duplicate that arrives while the first still runs waits for its answer (at most `waitMs`, then 409
 * `idempotency_in_progress` with `Retry-After: 1`). A 5xx, 409, 429, an answer over 1 MB or a failure releases the
 * key, so the next retry runs again. Streamed answers (Server-Sent Events) reach the first client chunk by chunk and
 * are recorded as they pass; a duplicate gets the whole stream at once.
 *
 * Keys live in Redis with REDIS_URL (shared by every instance), else in a bounded in-process LRU. Requests without
 * the header cost one header lookup. If the store fails, requests pass as if they had no key (a warning at most
 * every 10 s): a lost key is better than an outage.
 */
export function createIdempotencyPolicy(deps: {
  getStore: () => IdempotencyStore;
  logger: Logger;
  /**
   * The proxy's default body limit (GATEWAY_MAX_BODY_BYTES). A duplicate's body is read (to compare it) within the
   * limit of its route: the `maxBodyBytes` of the `kasa-proxy` step of the same pipeline, else this.
   */
  maxBodyBytes: number;
  options?: Partial<IdempotencyOptions>;
}): EgPolicy<Record<string, never>> {
  const { logger, maxBodyBytes } = deps;
  const options = { ...DEFAULT_IDEMPOTENCY_OPTIONS, ...deps.options };
  let lastWarningMs = 0;

  const storeFailed = (err: unknown, req: GatewayRequest) => {
    const nowMs = Date.now();
    if (nowMs - lastWarningMs < STORE_WARNING_INTERVAL_MS) return;
    lastWarningMs = nowMs;
    logger.warn(
      { err: err instanceof Error ? err.message : String(err), requestId: req.kasaRequestId },
      'idempotency store unavailable; running requests without their keys',
    );
  };

  return {
    name: 'kasa-idempotency',
    schema: { $id: 'https://kasa.example/schemas/policies/kasa-idempotency.json', type: 'object' },
    policy: (_params, config: EgConfig) => {
      const store = deps.getStore();
      const limits = routeBodyLimits(config, maxBodyBytes);
      const bodyLimitOf = (req: GatewayRequest) =>
        limits.get(req.egContext?.apiEndpoint?.apiEndpointName ?? '') ?? maxBodyBytes;
      const settings: ExchangeSettings = {
        store,
        logger,
        replayTtlMs: options.replayTtlMs,
        leaseMs: options.leaseMs,
        maxRecordedBytes: options.maxRecordedBytes,
      };

      /** This request holds the key: forward it, recording what comes back. */
      const forward = (
        req: GatewayRequest,
        res: GatewayResponse,
        next: Next,
        key: string,
        record: InFlightRecord,
        body?: Buffer,
      ) => {
        const exchange = new IdempotentExchange(settings, key, record, {
          outlivesClient: !wantsStream(req),
          bufferedBody: body,
          requestId: req.kasaRequestId,
        });
        setExchangeTap(req, exchange);
        // Fires after every answer; releases the key only if the proxy never took the request.
        res.once('close', () => exchange.abandonUnlessClaimed());
        next();
      };

      const passWithBody = (req: GatewayRequest, next: Next, body: Buffer) => {
        setExchangeTap(req, new PassThroughTap(body));
        next();
      };

      const handle = async (req: GatewayRequest, res: GatewayResponse, next: Next, key: string): Promise<void> => {
        const path = req.originalUrl || req.url;
        const record: InFlightRecord = {
          state: 'in_flight',
          owner: randomUUID(),
          method: req.method,
          path,
          startedAtMs: Date.now(),
        };
        let reserved: boolean;
        try {
          reserved = await store.reserve(key, record, options.leaseMs);
        } catch (err) {
          storeFailed(err, req);
          next();
          return;
        }
        if (reserved) {
          forward(req, res, next, key, record);
          return;
        }

        // A duplicate: its body decides between a replay and a 422, so it is read whole (it never goes upstream
        // unless the first request fails and this one takes its place).
        const body = await readBody(req, res, bodyLimitOf(req));
        if (!body) return;
        const bodyHash = sha256(body);
        const deadline = Date.now() + options.waitMs;
        for (;;) {
          // The client gave up waiting.
          if (res.destroyed || res.writableEnded) return;
          let current;
          try {
            current = await store.get(key);
            if (!current) {
              // The first request failed and freed the key: this one runs in its place.
              const mine: InFlightRecord = { ...record, bodyHash, startedAtMs: Date.now() };
              if (await store.reserve(key, mine, options.leaseMs)) {
                forward(req, res, next, key, mine, body);
                return;
              }
              continue;
            }
          } catch (err) {
            storeFailed(err, req);
            passWithBody(req, next, body);
            return;
          }
          if (current.method !== req.method || current.path !== path) {
            reused(
              req,
              res,
              `This Idempotency-Key was already used for ${current.method} ${current.path}; use a new key for a different request.`,
            );
            return;
          }
          if (current.bodyHash !== undefined && current.bodyHash !== bodyHash) {
            reused(
              req,
              res,
              'This Idempotency-Key was already used with a different request body; use a new key for a different request.',
            );
            return;
          }
          if (current.state === 'completed') {
            replay(res, current.response);
            return;
          }
          if (Date.now() >= deadline) {
            sendError(
              res,
              409,
              ErrorCode.idempotencyInProgress,
              'A request with this Idempotency-Key is still being processed; retry it in a moment.',
              req.kasaRequestId,
              { 'retry-after': '1' },
            );
            return;
          }
          await delay(options.pollMs);
        }
      };

      return (req, res, next) => {
        const header = req.headers[IDEMPOTENCY_KEY_HEADER];
        if (header === undefined || req.method !== 'POST') {
          next();
          return;
        }
        const scope = scopeOf(req);
        if (!scope) {
          // Anonymous calls (the landing page's speech samples) have nobody to scope a key to.
          next();
          return;
        }
        if (typeof header !== 'string' || !isValidIdempotencyKey(header)) {
          sendError(
            res,
            400,
            ErrorCode.badRequest,
            `The Idempotency-Key header must be 1 to ${MAX_KEY_LENGTH} printable ASCII characters (a UUID is a good choice).`,
            req.kasaRequestId,
          );
          return;
        }
        handle(req, res, next, scope + header).catch((err: unknown) => next(err));
      };
    },
  };
}

function reused(req: GatewayRequest, res: GatewayResponse, message: string): void {
  sendError(res, 422, ErrorCode.idempotencyKeyReused, message, req.kasaRequestId);
}

/** The first request's answer, again: its status, the headers that describe it, its body (a stream whole). */
function replay(res: GatewayResponse, response: RecordedResponse): void {
  res.writeHead(response.status, {
    ...response.headers,
    'content-length': response.body.length,
    [REPLAYED_HEADER]: 'true',
  });
  res.end(response.body);
}

/** A duplicate's body, within its route's limit (413 beyond it); undefined when answered or the client left. */
async function readBody(req: GatewayRequest, res: GatewayResponse, maxBytes: number): Promise<Buffer | undefined> {
  const tooLarge = () => refuseTooLarge(req, res, maxBytes);
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBytes) {
    tooLarge();
    return undefined;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    // Without destroyOnReturn, stopping early keeps the socket open for the 413.
    for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) break;
      chunks.push(chunk);
    }
  } catch {
    return undefined;
  }
  if (size > maxBytes) {
    tooLarge();
    return undefined;
  }
  return Buffer.concat(chunks, size);
}
