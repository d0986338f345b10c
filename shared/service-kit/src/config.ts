import { z } from 'zod';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads configuration from the environment with a zod schema, once, at start-up. Throws a ConfigError that names
 * every variable that is wrong, so that a service fails fast with a readable list instead of misbehaving later.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.output<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => `${issue.path.map(String).join('.') || '(environment)'}: ${issue.message}`),
  );
}

/** A boolean variable: only the words true/false/1/0/yes/no count; anything else is a configuration error. */
export const envBoolean = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be one of true, false, 1, 0, yes, no' })
    .optional()
    .transform((value) => (value === undefined ? fallback : ['true', '1', 'yes'].includes(value)));

/** A TCP port with a default. */
export const envPort = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

/** Settings every service shares; each service extends this with its own. */
export const baseServiceEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  MONGO_URL: z.string().url({ error: 'must be a mongodb:// URL' }).default('mongodb://127.0.0.1:27017'),
  AMQP_URL: z.string().url({ error: 'must be an amqp:// URL' }).default('amqp://guest:guest@127.0.0.1:5672'),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
});
