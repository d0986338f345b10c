import { baseServiceEnv, envPort, loadConfig } from '@kasa/service-kit';
import { z } from 'zod';

const serviceUrl = (fallback: string) => z.string().url({ error: 'must be an http(s) URL' }).default(fallback);

const schema = baseServiceEnv.extend({
  STATUS_PORT: envPort(4004),
  STATUS_HOST: z.string().default('127.0.0.1'),
  STATUS_DB_NAME: z.string().default('kasa_status'),
  AUTH_SERVICE_URL: serviceUrl('http://127.0.0.1:4001'),
  CHAT_SERVICE_URL: serviceUrl('http://127.0.0.1:4002'),
  VOICE_SERVICE_URL: serviceUrl('http://127.0.0.1:4003'),
  PROBE_TIMEOUT_MS: z.coerce.number().int().min(100).max(10_000).default(1_500),
});

export type StatusConfig = z.output<typeof schema>;
export const readConfig = (env: NodeJS.ProcessEnv = process.env): StatusConfig => loadConfig(schema, env);
