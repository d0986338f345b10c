import { baseServiceEnv, envPort, loadConfig } from '@kasa/service-kit';
import { z } from 'zod';

const schema = baseServiceEnv.extend({
  VOICE_PORT: envPort(4003),
  VOICE_HOST: z.string().default('127.0.0.1'),
  VOICE_DB_NAME: z.string().default('kasa_voice'),
});

export type VoiceConfig = z.output<typeof schema>;
export const readConfig = (env: NodeJS.ProcessEnv = process.env): VoiceConfig => loadConfig(schema, env);
