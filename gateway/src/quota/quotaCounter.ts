/** One request's question to the counters: may it pass, and what are the counts? */
export interface AdmitRequest {
  minuteKey: string;
  minuteLimit: number;
  minuteTtlMs: number;
  /** Absent on routes that do not count towards the monthly quota. */
  monthKey?: string;
  /** null: unlimited (still counted). */
  monthLimit: number | null;
  monthTtlMs: number;
  /**
   * The counter of extra calls bought for this month (add-on packs): they raise `monthLimit` (when limited) by its
   * value. Only with `monthKey`.
   */
  extraKey?: string;
}

/**
 * The counts after the request was counted (allowed), or as they stood when it was refused: a refused request is
 * not counted, so a client that keeps retrying a full quota does not push it further.
 */
export interface AdmitResult {
  allowed: boolean;
  minuteCount: number;
  monthCount: number;
  /** The month's extra calls (add-on packs) counted in its limit; present when the request named `extraKey`. */
  monthExtra?: number;
}

/** Where the per-minute and monthly counters live: process memory, or Redis shared by every gateway instance. */
export interface QuotaCounter {
  /** Checks both limits and counts the request in both, atomically. */
  admit(request: AdmitRequest): AdmitResult | Promise<AdmitResult>;
  /**
   * Sets an allowance (the month's extra calls) to `total` unless it is already higher, so that repeated or
   * out-of-order announcements never lower nor double it; it expires after `ttlMs`.
   */
  raise(key: string, total: number, ttlMs: number): void | Promise<void>;
  close(): Promise<void>;
}

function refuses(request: AdmitRequest, minuteCount: number, monthCount: number, extra: number): boolean {
  if (minuteCount >= request.minuteLimit) return true;
  return request.monthKey !== undefined && request.monthLimit !== null && monthCount >= request.monthLimit + extra;
}

/**
 * Counters in this process's memory (when REDIS_URL is unset): each gateway instance counts only what it saw, so
 * with N instances a person may make up to N times the limits. Expired counters are swept once a minute. Check and
 * count happen in one synchronous step, so concurrent requests can never both take the last unit of an allowance.
 *
 * `maxEntries` bounds the memory of counters keyed by something a client controls (its address): when full, expired
 * counters are swept, and if that is not enough the oldest tenth is forgotten (those clients start a fresh window).
 */
export class MemoryQuotaCounter implements QuotaCounter {
  private readonly counters = new Map<string, { count: number; expiresAtMs: number }>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly maxEntries: number;

  constructor(
    private readonly now: () => number = Date.now,
    options: { maxEntries?: number } = {},
  ) {
    this.maxEntries = options.maxEntries ?? Infinity;
    this.sweeper = setInterval(() => this.sweep(), 60_000).unref();
  }

  get size(): number {
    return this.counters.size;
  }

  admit(request: AdmitRequest): AdmitResult {
    const nowMs = this.now();
    const minuteCount = this.read(request.minuteKey, nowMs);
    const monthCount = request.monthKey ? this.read(request.monthKey, nowMs) : 0;
    const extraKey = request.monthKey ? request.extraKey : undefined;
    const extra = extraKey ? this.read(extraKey, nowMs) : 0;
    const withExtra = extraKey ? { monthExtra: extra } : {};
    if (refuses(request, minuteCount, monthCount, extra))
      return { allowed: false, minuteCount, monthCount, ...withExtra };
    return {
      allowed: true,
      minuteCount: this.increment(request.minuteKey, nowMs, request.minuteTtlMs),
      monthCount: request.monthKey ? this.increment(request.monthKey, nowMs, request.monthTtlMs) : 0,
      ...withExtra,
    };
  }

  raise(key: string, total: number, ttlMs: number): void {
    const nowMs = this.now();
    if (this.read(key, nowMs) >= total) return;
    this.counters.set(key, { count: total, expiresAtMs: nowMs + ttlMs });
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.counters.clear();
  }

  private read(key: string, nowMs: number): number {
    const counter = this.counters.get(key);
    return counter && counter.expiresAtMs > nowMs ? counter.count : 0;
  }

  private increment(key: string, nowMs: number, ttlMs: number): number {
    const counter = this.counters.get(key);
    if (counter && counter.expiresAtMs > nowMs) return ++counter.count;
    if (!counter && this.counters.size >= this.maxEntries) this.makeRoom();
    this.counters.set(key, { count: 1, expiresAtMs: nowMs + ttlMs });
    return 1;
  }

  private makeRoom(): void {
    this.sweep();
    if (this.counters.size < this.maxEntries) return;
    // A Map iterates in insertion order: the first entries are the oldest windows.
    let excess = Math.max(1, Math.ceil(this.maxEntries / 10));
    for (const key of this.counters.keys()) {
      this.counters.delete(key);
      if (--excess === 0) break;
    }
  }

  private sweep(): void {
    const nowMs = this.now();
    for (const [key, counter] of this.counters) if (counter.expiresAtMs <= nowMs) this.counters.delete(key);
  }
}

/**
 * Check and count in one round trip, atomically: a Lua script runs alone on the Redis server, so two gateway
 * instances can never both let the 1,000th call through. KEYS: minute counter [, month counter [, month's extra
 * calls]]. ARGV: minute limit, minute TTL (ms), month limit (-1: unlimited), month TTL (ms).
 * Returns {minute, month, allowed, extra}.
 */
export const ADMIT_SCRIPT = `
local minuteLimit = tonumber(ARGV[1])
local monthLimit = tonumber(ARGV[3])
local counted = #KEYS >= 2
local minute = tonumber(redis.call('GET', KEYS[1]) or '0')
local month = 0
local extra = 0
if counted then month = tonumber(redis.call('GET', KEYS[2]) or '0') end
if #KEYS == 3 then extra = tonumber(redis.call('GET', KEYS[3]) or '0') end
if minute >= minuteLimit or (counted and monthLimit >= 0 and month >= monthLimit + extra) then
  return {minute, month, 0, extra}
end
minute = redis.call('INCR', KEYS[1])
if minute == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if counted then
  month = redis.call('INCR', KEYS[2])
  if month == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[4]) end
end
return {minute, month, 1, extra}
`;

/** Sets KEYS[1] to ARGV[1] unless it is already higher, expiring after ARGV[2] ms. */
export const RAISE_SCRIPT = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local total = tonumber(ARGV[1])
if current >= total then return current end
redis.call('SET', KEYS[1], total, 'PX', ARGV[2])
return total
`;

/** The part of an ioredis client the Redis counter uses (express-gateway's own connection, when REDIS_URL is set). */
export interface ScriptingRedis {
  defineCommand(name: string, definition: { lua: string }): void;
}

const COMMAND = 'kasaQuotaAdmit';
const RAISE_COMMAND = 'kasaQuotaRaise';
type AdmitCommand = (numberOfKeys: number, ...keysAndArgs: Array<string | number>) => Promise<unknown>;

/** Counters in Redis, shared by every gateway instance (ioredis sends the script by its SHA once it is loaded). */
export class RedisQuotaCounter implements QuotaCounter {
  private command?: AdmitCommand;
  private raiseCommand?: AdmitCommand;

  constructor(private readonly getClient: () => ScriptingRedis) {}

  async admit(request: AdmitRequest): Promise<AdmitResult> {
    const keys = request.monthKey
      ? [request.minuteKey, request.monthKey, ...(request.extraKey ? [request.extraKey] : [])]
      : [request.minuteKey];
    const reply = await this.admitCommand()(
      keys.length,
      ...keys,
      request.minuteLimit,
      request.minuteTtlMs,
      request.monthLimit ?? -1,
      request.monthTtlMs,
    );
    if (!Array.isArray(reply) || reply.length !== 4) throw new Error('unexpected reply from the quota script');
    const [minuteCount, monthCount, allowed, extra] = reply.map(Number) as [number, number, number, number];
    return { allowed: allowed === 1, minuteCount, monthCount, ...(keys.length === 3 ? { monthExtra: extra } : {}) };
  }

  async raise(key: string, total: number, ttlMs: number): Promise<void> {
    if (!this.raiseCommand) {
      const client = this.getClient();
      client.defineCommand(RAISE_COMMAND, { lua: RAISE_SCRIPT });
      this.raiseCommand = (client as unknown as Record<string, AdmitCommand>)[RAISE_COMMAND]!.bind(client);
    }
    await this.raiseCommand(1, key, total, Math.max(1, Math.round(ttlMs)));
  }

  async close(): Promise<void> {
    // The connection is express-gateway's; the gateway closes it on shutdown.
  }

  private admitCommand(): AdmitCommand {
    if (!this.command) {
      const client = this.getClient();
      client.defineCommand(COMMAND, { lua: ADMIT_SCRIPT });
      const command = (client as unknown as Record<string, AdmitCommand>)[COMMAND]!;
      this.command = command.bind(client);
    }
    return this.command;
  }
}
