import { baseServiceEnv, envBoolean, envPort, loadConfig } from '@kasa/service-kit';
import path from 'node:path';
import { z } from 'zod';

const schema = baseServiceEnv.extend({
  AUTH_PORT: envPort(4001),
  AUTH_HOST: z.string().default('127.0.0.1'),
  AUTH_DB_NAME: z.string().default('kasa_auth'),
  /** PEM of the RS256 signing key. When absent, a key is generated once and kept in AUTH_KEYS_DIR. */
  JWT_PRIVATE_KEY: z.string().optional(),
  AUTH_KEYS_DIR: z.string().default(path.resolve(__dirname, '../../../.data/auth')),
  JWT_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 24 * 3600)
    .default(7 * 24 * 3600),
  /**
   * Who takes payments: `builtin` completes every checkout locally with no money (development, tests, the local
   * platform of `npm start`, with a test-mode banner); `none` sells nothing. Default: builtin outside production,
   * none in production.
   */
  KASA_PAYMENTS: z.enum(['builtin', 'none']).optional(),
  /** Mark the session cookie Secure (set true behind HTTPS). */
  COOKIE_SECURE: envBoolean(false),
  /** API keys' "last used" times are written in one batch this often (never while the gateway waits). */
  API_KEY_USAGE_FLUSH_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  /** Keys whose last use waits to be written at most (while the database is away); further uses are not recorded. */
  API_KEY_USAGE_MAX_PENDING: z.coerce.number().int().min(100).max(1_000_000).default(10_000),
  /**
   * Origins of Kasa's web app besides the one a request addresses (comma-separated, like the gateway's WEB_ORIGIN):
   * a browser navigation from them may sign out; one from any other site is refused.
   */
  WEB_ORIGIN: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.url({ protocol: /^https?$/, error: 'WEB_ORIGIN must list origins like http://localhost:8080' })))
    .transform((urls) => urls.map((url) => new URL(url).origin)),
});

export type AuthConfig = z.output<typeof schema>;

export function readConfig(env: NodeJS.ProcessEnv = process.env): AuthConfig {
  return loadConfig(schema, env);
}
