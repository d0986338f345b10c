import type { ScriptingRedis } from '../quota/quotaCounter';
import type { IdempotencyRecord, IdempotencyStore, InFlightRecord } from './idempotencyStore';

/** The part of an ioredis client the Redis store uses (express-gateway's own connection, when REDIS_URL is set). */
export interface IdempotencyRedis extends ScriptingRedis {
  set(key: string, value: string, px: 'PX', ttlMs: number, nx: 'NX'): Promise<'OK' | null>;
  get(key: string): Promise<string | null>;
}

/**
 * KEYS: the key. ARGV: owner, new value (empty: delete), TTL (ms). Acts only while the stored record is in flight and
 * held by `owner`, in one atomic step on the Redis server. Returns 1 when it acted.
 */
const REPLACE_SCRIPT = `
local current = redis.call('GET', KEYS[1])
if not current then return 0 end
local ok, record = pcall(cjson.decode, current)
if not ok or type(record) ~= 'table' or record.state ~= 'in_flight' or record.owner ~= ARGV[1] then return 0 end
if ARGV[2] == '' then
  redis.call('DEL', KEYS[1])
else
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
end
return 1
`;

const COMMAND = 'kasaIdempotencyReplace';
type ReplaceCommand = (
  numberOfKeys: number,
  key: string,
  owner: string,
  value: string,
  ttlMs: number,
) => Promise<unknown>;

/** A record as JSON (the recorded body in base64: Redis values are bytes, JSON is text). */
interface SerializedCompleted {
  state: 'completed';
  method: string;
  path: string;
  bodyHash: string;
  status: number;
  headers: Record<string, string | string[]>;
  body: string;
  completedAtMs: number;
}

function serialize(record: IdempotencyRecord): string {
  if (record.state === 'in_flight') return JSON.stringify(record);
  const { response, ...rest } = record;
  const serialized: SerializedCompleted = {
    ...rest,
    status: response.status,
    headers: response.headers,
    body: response.body.toString('base64'),
  };
  return JSON.stringify(serialized);
}

function deserialize(value: string): IdempotencyRecord | undefined {
  const parsed = JSON.parse(value) as InFlightRecord | SerializedCompleted;
  if (parsed.state === 'in_flight') return parsed;
  if (parsed.state !== 'completed') return undefined;
  const { status, headers, body, ...rest } = parsed;
  return { ...rest, response: { status, headers, body: Buffer.from(body, 'base64') } };
}

/**
 * Keys in Redis, shared by every gateway instance: `reserve` is `SET NX PX`, `replace` and `release` a Lua script
 * that checks the owner first (ioredis sends it by its SHA once loaded).
 */
export class RedisIdempotencyStore implements IdempotencyStore {
  private command?: ReplaceCommand;

  constructor(private readonly getClient: () => IdempotencyRedis) {}

  async reserve(key: string, record: InFlightRecord, ttlMs: number): Promise<boolean> {
    const reply = await this.getClient().set(key, serialize(record), 'PX', Math.max(1, Math.round(ttlMs)), 'NX');
    return reply === 'OK';
  }

  async get(key: string): Promise<IdempotencyRecord | undefined> {
    const value = await this.getClient().get(key);
    return value === null ? undefined : deserialize(value);
  }

  async replace(key: string, owner: string, record: IdempotencyRecord, ttlMs: number): Promise<boolean> {
    const reply = await this.replaceCommand()(1, key, owner, serialize(record), Math.max(1, Math.round(ttlMs)));
    return Number(reply) === 1;
  }

  async release(key: string, owner: string): Promise<void> {
    await this.replaceCommand()(1, key, owner, '', 1);
  }

  async close(): Promise<void> {
    // The connection is express-gateway's; the gateway closes it on shutdown.
  }

  private replaceCommand(): ReplaceCommand {
    if (!this.command) {
      const client = this.getClient();
      client.defineCommand(COMMAND, { lua: REPLACE_SCRIPT });
      const command = (client as unknown as Record<string, ReplaceCommand>)[COMMAND]!;
      this.command = command.bind(client);
    }
    return this.command;
  }
}
