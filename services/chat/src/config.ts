import { ConfigError, baseServiceEnv, envPort, loadConfig } from '@kasa/service-kit';
import { z } from 'zod';
import { parseProviders, type ProviderSettings } from './providers/providerSettings';

const ms = (fallback: number, min = 0) => z.coerce.number().int().min(min).max(3_600_000).default(fallback);

const base = baseServiceEnv.extend({
  CHAT_PORT: envPort(4002),
  CHAT_HOST: z.string().default('127.0.0.1'),
  CHAT_DB_NAME: z.string().default('kasa_chat'),
  /** Comma-separated provider names in failover order; the offline provider always comes last. See README. */
  CHAT_PROVIDERS: z.string().max(1000).default(''),
  /** An attempt that has not produced its first token by then fails over to the next provider. */
  CHAT_PROVIDER_FIRST_TOKEN_TIMEOUT_MS: ms(15_000, 1),
  /** An attempt whose stream stalls this long between two chunks fails over (mid-stream). */
  CHAT_PROVIDER_IDLE_TIMEOUT_MS: ms(20_000, 1),
  /** The longest one attempt may take, end to end. */
  CHAT_PROVIDER_TOTAL_TIMEOUT_MS: ms(180_000, 1),
  /** Circuit breaker (opossum) per provider: open at this error percentage over the rolling window... */
  CHAT_BREAKER_ERROR_PERCENT: z.coerce.number().int().min(1).max(100).default(50),
  /** ...once at least this many attempts were made in the window... */
  CHAT_BREAKER_MIN_REQUESTS: z.coerce.number().int().min(1).max(10_000).default(5),
  /** ...and let one trial attempt through after this long. */
  CHAT_BREAKER_RESET_MS: ms(30_000, 1),
  CHAT_BREAKER_WINDOW_MS: ms(60_000, 1000),
  /** How much recent history (estimated tokens) goes into each prompt. */
  CHAT_HISTORY_TOKEN_BUDGET: z.coerce.number().int().min(0).max(1_000_000).default(3_000),
  /** SSE heartbeat comment interval. */
  CHAT_SSE_HEARTBEAT_MS: ms(15_000, 100),
  /** Pause between words of the offline provider, so it streams like a real one. */
  CHAT_OFFLINE_WORD_DELAY_MS: ms(15),
  /** The voice service, asked where the caller is (GET /api/geo) for the personas that use a location. */
  VOICE_SERVICE_URL: z.url({ protocol: /^https?$/ }).default('http://127.0.0.1:4003'),
  /** Replies one person may have being written at once (streamed or not, on every replica); one more gets 429. */
  CHAT_MAX_CONCURRENT_REPLIES: z.coerce.number().int().min(1).max(1_000_000).default(10),
  /** How long a geo lookup may take before the prompt goes without a location. */
  CHAT_GEO_TIMEOUT_MS: ms(300, 1),
  /**
   * Redis shared by the replicas: replies being written are followed and stopped from any replica, and the
   * concurrent-replies limit is counted there. Without it, replies live in this process (one replica).
   */
  REDIS_URL: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
  ),
});

export type ChatConfig = z.output<typeof base> & { providers: ProviderSettings[] };

/** Reads the service's settings and the provider chain from the environment; lists every problem at once. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ChatConfig {
  const problems: string[] = [];
  const providers = parseProviders(env, (problem) => problems.push(problem));
  let settings: z.output<typeof base> | undefined;
  try {
    settings = loadConfig(base, env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    problems.unshift(...err.problems);
  }
  if (problems.length > 0 || !settings) throw new ConfigError(problems);
  return { ...settings, providers };
}
