import { createHash } from 'node:crypto';
import { API_KEY_PATTERN, ApiKeyRejection, VerifiedApiKey } from '@kasa/contracts';
import type { Logger } from '@kasa/service-kit';
import { LRUCache } from 'lru-cache';
import { Pool } from 'undici';

export type ApiKeyRejectReason = ApiKeyRejection | 'unavailable';
export type ApiKeyResult =
  | { ok: true; key: VerifiedApiKey }
  /** `userId`: whose key was refused as suspended, so that a restoration (`evictUser`) forgets the refusal. */
  | { ok: false; reason: ApiKeyRejectReason; userId?: string };

interface CacheEntry {
  result: ApiKeyResult;
  /** When the key itself expires (ms since the epoch), so a cached key never outlives it. */
  expiresAtMs: number;
}

export interface ApiKeyVerifierOptions {
  /** The auth service; keys are checked at `<authServiceUrl>/internal/api-keys/verify`. */
  authServiceUrl: string;
  logger: Logger;
  /** How long an answer is trusted before auth is asked again (also bounds a revocation the broker never delivered). */
  ttlMs: number;
  maxEntries?: number;
  timeoutMs?: number;
  now?: () => number;
}

const VERIFY_PATH = '/internal/api-keys/verify';
const MALFORMED: ApiKeyResult = { ok: false, reason: 'unknown' };

/**
 * Verifies API keys with the auth service, which alone knows their hashes, and caches the answers for a short time
 * (a bounded LRU keyed by the SHA-256 of the key: the key itself is never kept or logged). Refusals are cached too,
 * so a client repeating a bad key does not reach auth on every request. Concurrent checks of one key share one call.
 *
 * The revocation feed calls `evictKey` the moment auth announces `auth.apikey.revoked`, and `evictUser` when a plan
 * changes, so neither waits for the TTL. An answer that was in flight while an eviction happened is not cached.
 */
export class ApiKeyVerifier {
  private readonly cache: LRUCache<string, CacheEntry>;
  /** keyId → cache key and userId → cache keys of the valid keys in the cache, for evictions by event. */
  private readonly byKeyId = new Map<string, string>();
  private readonly byUserId = new Map<string, Set<string>>();
  private readonly inFlight = new Map<string, Promise<ApiKeyResult>>();
  private readonly pool: Pool;
  private readonly now: () => number;
  /** Bumped by every eviction; an answer fetched across an eviction is returned but not cached. */
  private generation = 0;

  constructor(private readonly options: ApiKeyVerifierOptions) {
    this.now = options.now ?? Date.now;
    this.cache = new LRUCache<string, CacheEntry>({
      max: options.maxEntries ?? 10_000,
      dispose: (entry, cacheKey) => this.unindex(entry, cacheKey),
    });
    const timeoutMs = options.timeoutMs ?? 2_000;
    this.pool = new Pool(new URL(options.authServiceUrl).origin, {
      connections: 16,
      connect: { timeout: timeoutMs },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
  }

  /** The cached answer for a key, without I/O; undefined when auth must be asked. */
  verifyCached(key: string): ApiKeyResult | undefined {
    // Not shaped like a key: no need to ask auth (nor to fill the cache with junk).
    if (!API_KEY_PATTERN.test(key)) return MALFORMED;
    return this.lookup(cacheKeyOf(key));
  }

  async verify(key: string, requestId?: string): Promise<ApiKeyResult> {
    if (!API_KEY_PATTERN.test(key)) return MALFORMED;
    const cacheKey = cacheKeyOf(key);
    const cached = this.lookup(cacheKey);
    if (cached) return cached;
    const pending = this.inFlight.get(cacheKey);
    if (pending) return pending;
    const generation = this.generation;
    const asking = this.ask(key, requestId).then((result) => {
      if (generation === this.generation) this.store(cacheKey, result);
      return result;
    });
    this.inFlight.set(cacheKey, asking);
    try {
      return await asking;
    } finally {
      this.inFlight.delete(cacheKey);
    }
  }

  /** Forgets a revoked key at once. */
  evictKey(keyId: string): void {
    this.generation += 1;
    const cacheKey = this.byKeyId.get(keyId);
    if (cacheKey) this.cache.delete(cacheKey);
  }

  /** Forgets every cached key that runs on a person's plan (theirs and their team's keys): the plan changed. */
  evictUser(userId: string): void {
    this.generation += 1;
    for (const cacheKey of [...(this.byUserId.get(userId) ?? [])]) this.cache.delete(cacheKey);
  }

  get size(): number {
    return this.cache.size;
  }

  async close(): Promise<void> {
    this.cache.clear();
    await this.pool.close();
  }

  private lookup(cacheKey: string): ApiKeyResult | undefined {
    const entry = this.cache.get(cacheKey);
    if (!entry) return undefined;
    if (entry.expiresAtMs > this.now()) return entry.result;
    this.cache.delete(cacheKey);
    return { ok: false, reason: 'expired' };
  }

  private store(cacheKey: string, result: ApiKeyResult): void {
    if (this.options.ttlMs <= 0 || (!result.ok && result.reason === 'unavailable')) return;
    const expiresAtMs = result.ok && result.key.expiresAt ? Date.parse(result.key.expiresAt) : Infinity;
    this.cache.set(cacheKey, { result, expiresAtMs }, { ttl: this.options.ttlMs });
    if (!result.ok && !result.userId) return;
    if (result.ok) this.byKeyId.set(result.key.keyId, cacheKey);
    // Indexed by the person whose plan the key runs on (a team key: the team's owner), whom plan changes name; a key
    // refused because its owner is suspended, by that owner, whom the restoration names.
    const planHolder = result.ok ? planHolderOf(result.key) : result.userId!;
    const keys = this.byUserId.get(planHolder) ?? new Set<string>();
    keys.add(cacheKey);
    this.byUserId.set(planHolder, keys);
  }

  private unindex(entry: CacheEntry, cacheKey: string): void {
    const { result } = entry;
    if (!result.ok && !result.userId) return;
    const planHolder = result.ok ? planHolderOf(result.key) : result.userId!;
    if (result.ok && this.byKeyId.get(result.key.keyId) === cacheKey) this.byKeyId.delete(result.key.keyId);
    const keys = this.byUserId.get(planHolder);
    keys?.delete(cacheKey);
    if (keys?.size === 0) this.byUserId.delete(planHolder);
  }

  private async ask(key: string, requestId?: string): Promise<ApiKeyResult> {
    try {
      const res = await this.pool.request({
        method: 'POST',
        path: VERIFY_PATH,
        headers: { 'content-type': 'application/json', ...(requestId ? { 'x-request-id': requestId } : {}) },
        body: JSON.stringify({ key }),
      });
      const body: unknown = await res.body.json().catch(() => undefined);
      if (res.statusCode === 200) {
        const verified = VerifiedApiKey.safeParse(body);
        if (verified.success) return { ok: true, key: verified.data };
      } else if (res.statusCode === 401) {
        const details = (body as { details?: { reason?: unknown; userId?: unknown } })?.details;
        const reason = ApiKeyRejection.safeParse(details?.reason);
        if (reason.success && reason.data === 'suspended' && typeof details?.userId === 'string') {
          return { ok: false, reason: 'suspended', userId: details.userId };
        }
        return { ok: false, reason: reason.success ? reason.data : 'unknown' };
      }
      this.options.logger.warn({ status: res.statusCode, requestId }, 'unexpected answer from the API key check');
    } catch (err) {
      this.options.logger.warn(
        { err: (err as Error).message, requestId },
        'cannot reach the auth service to check an API key',
      );
    }
    return { ok: false, reason: 'unavailable' };
  }
}

function cacheKeyOf(key: string): string {
  return createHash('sha256').update(key).digest('base64url');
}

/** The person whose plan a verified key runs on (answers of older auth versions name only the key's owner). */
function planHolderOf(key: VerifiedApiKey): string {
  return key.planHolderId ?? key.userId;
}
