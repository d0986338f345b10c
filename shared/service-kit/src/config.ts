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
 * With `NODE_ENV=production`, every peer address declared with `serviceUrl` must be set (see there).
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.output<S> {
  const missing = missingPeerUrls(schema, env);
  const result = schema.safeParse(env);
  if (result.success && missing.length === 0) return result.data;
  const invalid = result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.map(String).join('.') || '(environment)'}: ${issue.message}`);
  throw new ConfigError([...missing, ...invalid.filter((problem) => !missing.some((m) => sameVariable(m, problem)))]);
}

const sameVariable = (a: string, b: string) => a.slice(0, a.indexOf(':')) === b.slice(0, b.indexOf(':'));

/** The loopback address of each `serviceUrl` field, by its schema. */
const loopbackDefaults = new WeakMap<z.ZodType, string>();

/**
 * A peer service's address (`<NAME>_SERVICE_URL`), as microservices-demo's `mustMapEnv`: an http(s) URL, trailing
 * slashes dropped. Outside production it defaults to `loopback`, where every part runs on one machine; with
 * `NODE_ENV=production` it is required — `loadConfig` refuses to start without it, naming the variable — because a
 * loopback default there silently points a container at itself.
 */
export function serviceUrl(loopback: string) {
  const field = z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .default(loopback)
    .transform((value) => value.replace(/\/+$/, ''));
  loopbackDefaults.set(field, loopback);
  return field;
}

/** The problems of a production environment that leaves a `serviceUrl` variable unset. */
function missingPeerUrls(schema: z.ZodType, env: NodeJS.ProcessEnv): string[] {
  if (env.NODE_ENV !== 'production') return [];
  const shape = objectShape(schema);
  const problems: string[] = [];
  for (const [name, field] of Object.entries(shape)) {
    const loopback = loopbackDefaults.get(field);
    if (loopback === undefined || env[name]?.trim()) continue;
    const peer = name.replace(/_SERVICE_URL$/, '').toLowerCase();
    const port = new URL(loopback).port;
    problems.push(
      `${name}: is required when NODE_ENV=production: the ${peer} service's address (e.g. http://${peer}${port ? `:${port}` : ''}); ` +
        `the default ${loopback} only works with every part on one machine`,
    );
  }
  return problems;
}

/** The fields of an object schema, also through refinements (the same object) and pipes (their input). */
function objectShape(schema: z.ZodType): Record<string, z.ZodType> {
  if (schema instanceof z.ZodObject) return schema.shape as Record<string, z.ZodType>;
  if (schema instanceof z.ZodPipe) return objectShape(schema.in as z.ZodType);
  return {};
}

/** A boolean variable: only the words true/false/1/0/yes/no count; anything else is a configuration error. */
export const envBoolean = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be one of true, false, 1, 0, yes, no' })
    .optional()
    .transform((value) => (value === undefined ? fallback : ['true', '1', 'yes'].includes(value)));

/** A TCP port with a default. */
export const envPort = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

/** `HEARTBEAT_INTERVAL_MS`: 100 ms to 5 minutes, default 10 s (the gateway reads the same variable). */
export const envHeartbeatInterval = () => z.coerce.number().int().min(100).max(300_000).default(10_000);

/** `KASA_DEPLOYMENT`: an optional name of letters, digits, '.', '_' or '-' (the gateway reads the same variable). */
export const envDeployment = () =>
  z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, "must be letters, digits, '.', '_' or '-' (at most 64)")
    .optional();

/** Settings every service shares; each service extends this with its own. */
export const baseServiceEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  MONGO_URL: z.string().url({ error: 'must be a mongodb:// URL' }).default('mongodb://127.0.0.1:27017'),
  AMQP_URL: z.string().url({ error: 'must be an amqp:// URL' }).default('amqp://guest:guest@127.0.0.1:5672'),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** How often each process publishes `service.heartbeat`; the status service's missed-heartbeat rule uses it too. */
  HEARTBEAT_INTERVAL_MS: envHeartbeatInterval(),
  /** Names this deployment in heartbeats when several share one broker (e.g. test runs); unset in production. */
  KASA_DEPLOYMENT: envDeployment(),
  /** OTLP/HTTP collector base URL; spans are exported to `<url>/v1/traces` when set. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
});
