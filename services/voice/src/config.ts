import { baseServiceEnv, envPort, loadConfig } from '@kasa/service-kit';
import { z } from 'zod';

const schema = baseServiceEnv.extend({
  VOICE_PORT: envPort(4003),
  VOICE_HOST: z.string().default('127.0.0.1'),
  VOICE_DB_NAME: z.string().default('kasa_voice'),
  /** The eSpeak NG program (Debian package espeak-ng); run as a separate process. */
  VOICE_ESPEAK_BIN: z.string().min(1).default('espeak-ng'),
  /** ffmpeg, used to encode speech compactly; without it audio is stored as WAV. */
  VOICE_FFMPEG_BIN: z.string().min(1).default('ffmpeg'),
  /** mp3 plays everywhere; ogg (Opus) is smaller; wav needs no encoder. */
  VOICE_AUDIO_FORMAT: z.enum(['mp3', 'ogg', 'wav']).default('mp3'),
  /** The longest one engine may take for one chunk of text before the next engine is tried. */
  VOICE_SYNTHESIS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(20_000),
  /** How long synthesized audio is kept (and may be cached by browsers). */
  VOICE_AUDIO_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 365)
    .default(72),
  /**
   * Languages the chat capability is claimed for: `*` (every living language in the catalogue: the AI providers
   * reply in the user's language) or a comma-separated list, e.g. `en` where only the offline provider runs.
   */
  VOICE_CHAT_LANGUAGES: z
    .string()
    .trim()
    .max(2_000)
    .regex(/^(\*|[a-z]{2,3}(,[a-z]{2,3})*)$/, { error: 'must be * or a comma-separated list of language codes' })
    .default('*'),
});

export type VoiceConfig = z.output<typeof schema>;
export const readConfig = (env: NodeJS.ProcessEnv = process.env): VoiceConfig => loadConfig(schema, env);
