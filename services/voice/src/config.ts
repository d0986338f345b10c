import { parseProviders, type ProviderSettings } from '@kasa/ai-providers';
import { formatByteSize, TRANSCRIBE_MAX_AUDIO_BYTES } from '@kasa/contracts';
import { baseServiceEnv, ConfigError, envBoolean, envPort, loadConfig, serviceUrl } from '@kasa/service-kit';
import { z } from 'zod';

const schema = baseServiceEnv.extend({
  VOICE_PORT: envPort(4003),
  VOICE_HOST: z.string().default('127.0.0.1'),
  VOICE_DB_NAME: z.string().default('kasa_voice'),
  /**
   * The chat service, asked for the AI providers operators add in the browser (`GET /internal/ai-providers`), which
   * translation and speech to text use after those of the variables; required in production (serviceUrl).
   */
  CHAT_SERVICE_URL: serviceUrl('http://127.0.0.1:4002'),
  /** The eSpeak NG program (Debian package espeak-ng); run as a separate process. */
  VOICE_ESPEAK_BIN: z.string().min(1).default('espeak-ng'),
  /** ffmpeg, used to encode speech compactly and to make videos. */
  VOICE_FFMPEG_BIN: z.string().min(1).default('ffmpeg'),
  /**
   * Whether the engines that come inside npm packages stand in for the programs above when those are not found:
   * eSpeak NG compiled to WebAssembly, a static ffmpeg, and lamejs for MP3. `false`: only the system programs.
   */
  VOICE_PACKAGED_ENGINES: envBoolean(true),
  /** mp3 plays everywhere; ogg (Opus) is smaller; wav needs no encoder. */
  VOICE_AUDIO_FORMAT: z.enum(['mp3', 'ogg', 'wav']).default('mp3'),
  /**
   * The longest one engine may take for one chunk of text before the next engine is tried; for the offline engine,
   * the time limit of each of its processes (the wait for a place in the process pool does not count).
   */
  VOICE_SYNTHESIS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(20_000),
  /** Syntheses one person (the identity's user id) may have under way at once, across replicas (then **429**). */
  VOICE_SYNTHESIS_MAX_CONCURRENT: z.coerce.number().int().min(1).max(100).default(2),
  /** Transcriptions one person may have under way at once (then **429**). */
  VOICE_TRANSCRIPTION_MAX_CONCURRENT: z.coerce.number().int().min(1).max(100).default(2),
  /** Translations one person may have under way at once: each is a call to a paid AI provider (then **429**). */
  VOICE_TRANSLATION_MAX_CONCURRENT: z.coerce.number().int().min(1).max(100).default(2),
  /**
   * Heavy processes (eSpeak NG per chunk of text, ffmpeg making a video) running at once on this instance: 3 suits
   * a 2-core machine (one more than the cores: a process also waits on its pipes); raise it with the cores.
   */
  VOICE_PROCESS_POOL_SIZE: z.coerce.number().int().min(1).max(256).default(3),
  /** How many more may wait for a place; beyond that, **503** with Retry-After ("busy, try again"). */
  VOICE_PROCESS_QUEUE_MAX: z.coerce.number().int().min(0).max(10_000).default(16),
  /**
   * The data memory each heavy process may use, in MB, set with `prlimit` where it runs (ffmpeg making a 720p video
   * needs about 300-500); the Node process of eSpeak NG's WebAssembly build also gets it as its heap limit. 0: none.
   */
  VOICE_PROCESS_MEMORY_MB: z.coerce
    .number()
    .int()
    .max(65_536)
    .refine((mb) => mb === 0 || mb >= 128, { error: 'must be 0 (no limit) or at least 128' })
    .default(1_024),
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
  /** The longest one cloud provider (speech, transcription) may take for one call before the next one is tried. */
  VOICE_CLOUD_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
  /** Circuit breaker (opossum) per cloud provider: open at this error percentage over the rolling window... */
  VOICE_BREAKER_ERROR_PERCENT: z.coerce.number().int().min(1).max(100).default(50),
  /** ...once at least this many calls were made in it... */
  VOICE_BREAKER_MIN_REQUESTS: z.coerce.number().int().min(1).max(10_000).default(5),
  /** ...and try the provider again after this long. */
  VOICE_BREAKER_RESET_MS: z.coerce.number().int().min(1).max(3_600_000).default(30_000),
  /**
   * Largest audio POST /api/voice/transcribe accepts, in bytes (10 MB). It may be lowered, not raised: the gateway's
   * upload route (BODY_LIMITS.transcription in @kasa/contracts) lets no larger recording through.
   */
  VOICE_TRANSCRIBE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(TRANSCRIBE_MAX_AUDIO_BYTES, {
      error: `must be at most ${TRANSCRIBE_MAX_AUDIO_BYTES} (${formatByteSize(TRANSCRIBE_MAX_AUDIO_BYTES)}): the gateway's upload route takes no larger recording`,
    })
    .default(TRANSCRIBE_MAX_AUDIO_BYTES),
  /** The longest one translation provider may take before the next one is tried. */
  VOICE_TRANSLATE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(20_000),
  /** The durable work queue of video jobs (its dead letters go to `<name>.dlq`). */
  VOICE_VIDEO_QUEUE: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,95}$/, { error: 'must be a queue name of letters, digits, ".", "_" or "-"' })
    .default('kasa.voice.video'),
  /** Whether this instance renders videos; `false` for an instance that only takes requests (workers run apart). */
  VOICE_VIDEO_WORKER: envBoolean(true),
  /** What makes videos: `offline` (speech plus caption frames, made here) or `openai` (its hosted video model). */
  VOICE_VIDEO_PROVIDER: z.enum(['offline', 'openai']).default('offline'),
  OPENAI_VIDEO_MODEL: z.string().trim().min(1).default('sora-2'),
  /** The font the offline renderer draws captions with; without it, plain frames and a subtitle track. */
  VOICE_VIDEO_FONT: z.string().trim().min(1).default('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'),
  /** The longest one video may take to make before it fails. */
  VOICE_VIDEO_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(600_000),
  /** How long finished videos and their jobs are kept. */
  VOICE_VIDEO_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 365)
    .default(168),
  /**
   * Unfinished video jobs one person may have at once: each holds one of the person's `video` slots from its creation
   * until it succeeds or fails (then **429**).
   */
  VOICE_VIDEO_MAX_ACTIVE_JOBS: z.coerce.number().int().min(1).max(100).default(5),
  /** How often a video job's event stream reads the job (changes made by another replica's worker). */
  VOICE_VIDEO_EVENTS_POLL_MS: z.coerce.number().int().min(100).max(60_000).default(3_000),
  /** How often an open event stream sends a `: ping` comment. */
  VOICE_VIDEO_EVENTS_HEARTBEAT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  /** Video job event streams one person may have open on one instance (then **429**). */
  VOICE_VIDEO_EVENTS_MAX_STREAMS: z.coerce.number().int().min(1).max(100).default(5),
  ...cloudEnv(),
});

/** Each cloud speech provider's key (it is used only when set) and its address (tests point it at a fake). */
function cloudEnv() {
  const key = z.string().trim().min(1).optional();
  const url = (fallback: string) => z.url().default(fallback);
  return {
    OPENAI_API_KEY: key,
    OPENAI_BASE_URL: url('https://api.openai.com/v1'),
    OPENAI_TTS_MODEL: z.string().trim().min(1).default('gpt-4o-mini-tts'),
    OPENAI_TRANSCRIBE_MODEL: z.string().trim().min(1).default('whisper-1'),
    ELEVENLABS_API_KEY: key,
    ELEVENLABS_BASE_URL: url('https://api.elevenlabs.io'),
    ELEVENLABS_MODEL: z.string().trim().min(1).default('eleven_multilingual_v2'),
    AZURE_SPEECH_KEY: key,
    AZURE_SPEECH_REGION: z
      .string()
      .trim()
      .regex(/^[a-z0-9]+$/, { error: 'must be an Azure region such as westeurope' })
      .optional(),
    /** Overrides https://{region}.tts.speech.microsoft.com. */
    AZURE_SPEECH_TTS_BASE_URL: z.url().optional(),
    /** Overrides https://{region}.stt.speech.microsoft.com. */
    AZURE_SPEECH_STT_BASE_URL: z.url().optional(),
    GOOGLE_TTS_API_KEY: key,
    GOOGLE_TTS_BASE_URL: url('https://texttospeech.googleapis.com'),
    /** Speech-to-Text; the Text-to-Speech key when unset (one Google Cloud key may allow both APIs). */
    GOOGLE_STT_API_KEY: key,
    GOOGLE_STT_BASE_URL: url('https://speech.googleapis.com'),
    KHAYA_API_KEY: key,
    KHAYA_BASE_URL: url('https://translation-api.ghananlp.org'),
    SPITCH_API_KEY: key,
    SPITCH_BASE_URL: url('https://api.spi-tch.com'),
  };
}

export type VoiceConfig = z.output<typeof schema> & {
  /** The AI providers translation uses, in failover order (TRANSLATE_PROVIDERS, else CHAT_PROVIDERS). */
  translationProviders: ProviderSettings[];
};

/** Reads the service's settings and the translation providers from the environment; lists every problem at once. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): VoiceConfig {
  const problems: string[] = [];
  const listVariable = env.TRANSLATE_PROVIDERS !== undefined ? 'TRANSLATE_PROVIDERS' : 'CHAT_PROVIDERS';
  const translationProviders = parseProviders(env, (problem) => problems.push(problem), { listVariable });
  let settings: z.output<typeof schema> | undefined;
  try {
    settings = loadConfig(schema, env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    problems.unshift(...err.problems);
  }
  if (settings?.AZURE_SPEECH_KEY && !settings.AZURE_SPEECH_REGION && !settings.AZURE_SPEECH_TTS_BASE_URL)
    problems.push('AZURE_SPEECH_REGION: is required with AZURE_SPEECH_KEY');
  if (settings?.VOICE_VIDEO_PROVIDER === 'openai' && !settings.OPENAI_API_KEY)
    problems.push('VOICE_VIDEO_PROVIDER: openai needs OPENAI_API_KEY');
  if (problems.length > 0 || !settings) throw new ConfigError(problems);
  return { ...settings, translationProviders };
}
