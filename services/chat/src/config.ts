import { ATTACHMENT_PROCESSING_LIMITS, PLANS } from '@kasa/contracts';
import { ConfigError, baseServiceEnv, envPort, loadConfig, serviceUrl } from '@kasa/service-kit';
import path from 'node:path';
import { z } from 'zod';
import type { ProcessingSettings } from './attachments/fileLimits';
import {
  DEFAULT_CONTEXT_TOKENS,
  DEFAULT_MAX_MODEL_BYTES,
  DEFAULT_QUEUE_LENGTH,
  DEFAULT_SEQUENCES,
  defaultThreads,
} from './providers/local/localModelEngine';
import { DEFAULT_MODEL_URL, DEFAULT_STALL_MS } from './providers/local/modelDownloader';
import { parseProviders, type ProviderSettings } from './providers/providerSettings';

const ms = (fallback: number, min = 0) => z.coerce.number().int().min(min).max(3_600_000).default(fallback);
const count = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);
const PROCESSING = ATTACHMENT_PROCESSING_LIMITS;

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
  VOICE_SERVICE_URL: serviceUrl('http://127.0.0.1:4003'),
  /** The auth service, asked whether a person is an operator (the `/api/admin/*` routes of chat). */
  AUTH_SERVICE_URL: serviceUrl('http://127.0.0.1:4001'),
  /**
   * base64 of 32 random bytes (`openssl rand -base64 32`), the same on every replica: the AI provider keys operators
   * save in the browser are encrypted with it. Outside production, without it, a key is made once and kept in
   * CHAT_KEYS_DIR; in production without it, keys cannot be saved (providers without one still can).
   */
  CHAT_SECRETS_KEY: z
    .string()
    .optional()
    .refine((value) => value === undefined || Buffer.from(value, 'base64').length === 32, {
      error: 'must be base64 of 32 random bytes (openssl rand -base64 32)',
    }),
  CHAT_KEYS_DIR: z.string().default(path.resolve(__dirname, '../../../.data/chat')),
  /**
   * The local model (a `local` provider: a GGUF file run in this process with node-llama-cpp; see README "A local
   * model"): the folder its files are in and downloaded to, where the operators' download fetches it from by default,
   * the largest file it takes, sequences generated at once (more wait in line, up to CHAT_LOCAL_QUEUE_MAX; one more
   * fails over at once), the CPU threads inference uses, each sequence's context, and how long a download may stall.
   */
  CHAT_MODELS_DIR: z.string().min(1).default(path.resolve(__dirname, '../../../.data/models')),
  CHAT_LOCAL_MODEL_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).default(DEFAULT_MODEL_URL),
  CHAT_LOCAL_MAX_MODEL_BYTES: count(DEFAULT_MAX_MODEL_BYTES, 1, 2 ** 40),
  CHAT_LOCAL_SEQUENCES: count(DEFAULT_SEQUENCES, 1, 64),
  CHAT_LOCAL_QUEUE_MAX: count(DEFAULT_QUEUE_LENGTH, 0, 10_000),
  CHAT_LOCAL_THREADS: count(defaultThreads(), 1, 256),
  CHAT_LOCAL_CONTEXT_TOKENS: count(DEFAULT_CONTEXT_TOKENS, 256, 131_072),
  CHAT_LOCAL_DOWNLOAD_STALL_MS: ms(DEFAULT_STALL_MS, 1_000),
  /** Replies one person may have being written at once (streamed or not, on every replica); one more gets 429. */
  CHAT_MAX_CONCURRENT_REPLIES: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(PLANS.free.limits.concurrentReplies),
  /** Attachments one person may have being uploaded and read at once; one more gets 429. */
  CHAT_MAX_CONCURRENT_UPLOADS: z.coerce.number().int().min(1).max(1_000).default(PLANS.pro.limits.concurrentUploads),
  /** How long a geo lookup may take before the prompt goes without a location. */
  CHAT_GEO_TIMEOUT_MS: ms(300, 1),
  /**
   * Attachments are read (documents' text, images' size and thumbnail) in a pool of worker threads, within limits
   * checked while reading (ATTACHMENT_PROCESSING_LIMITS in @kasa/contracts gives the defaults; see README).
   */
  CHAT_ATTACHMENT_THREADS_MIN: count(PROCESSING.minThreads, 0, 64),
  CHAT_ATTACHMENT_THREADS_MAX: count(PROCESSING.maxThreads, 1, 64),
  /** Files waiting for a thread; one more is answered 503 with Retry-After. */
  CHAT_ATTACHMENT_QUEUE_MAX: count(PROCESSING.maxQueue, 0, 10_000),
  /** The longest a file waits for a thread before it is answered 503 with Retry-After. */
  CHAT_ATTACHMENT_QUEUE_WAIT_MS: ms(PROCESSING.queueWaitMs, 1),
  /** The longest one file may take to read; its worker is then stopped and replaced, and the upload gets 422. */
  CHAT_ATTACHMENT_JOB_TIMEOUT_MS: ms(PROCESSING.jobMs, 1),
  /** Each worker's V8 heap (old generation), in MB; a file that needs more gets 422 and its worker is replaced. */
  CHAT_ATTACHMENT_WORKER_MEMORY_MB: count(PROCESSING.workerMemoryMb, 16, 65_536),
  CHAT_ATTACHMENT_WORKER_YOUNG_MEMORY_MB: count(PROCESSING.workerYoungMemoryMb, 1, 4_096),
  /** How long an idle worker stays before it exits (and gives its memory back). */
  CHAT_ATTACHMENT_IDLE_MS: ms(PROCESSING.idleTimeoutMs, 0),
  /** Files inside a Word document. */
  CHAT_DOCX_MAX_ENTRIES: count(PROCESSING.docxEntries, 1, 1_000_000),
  /** Bytes a Word document may unpack to, all its files together. */
  CHAT_DOCX_MAX_UNPACKED_BYTES: count(PROCESSING.docxUnpackedBytes, 1, 2 ** 40),
  /** How many times its packed size a Word document, or a file in it, may unpack to. */
  CHAT_DOCX_MAX_COMPRESSION_RATIO: count(PROCESSING.docxCompressionRatio, 1, 1_000_000),
  /** Pages of a PDF. */
  CHAT_PDF_MAX_PAGES: count(PROCESSING.pdfPages, 1, 1_000_000),
  /** Pixels (width × height) of an image. */
  CHAT_IMAGE_MAX_PIXELS: count(PROCESSING.imagePixels, 1, 2 ** 40),
  /**
   * Redis shared by the replicas: replies being written are followed and stopped from any replica, and the
   * concurrent-replies limit is counted there. Without it, replies live in this process (one replica).
   */
  REDIS_URL: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
  ),
});

export type ChatConfig = z.output<typeof base> & {
  providers: ProviderSettings[];
  /** The attachment pool's settings, from the CHAT_ATTACHMENT_*, CHAT_DOCX_*, CHAT_PDF_* and CHAT_IMAGE_* variables. */
  attachmentProcessing: ProcessingSettings;
};

/** The attachment pool's settings from the variables that override ATTACHMENT_PROCESSING_LIMITS. */
function attachmentProcessingOf(settings: z.output<typeof base>): ProcessingSettings {
  return {
    minThreads: settings.CHAT_ATTACHMENT_THREADS_MIN,
    maxThreads: settings.CHAT_ATTACHMENT_THREADS_MAX,
    maxQueue: settings.CHAT_ATTACHMENT_QUEUE_MAX,
    queueWaitMs: settings.CHAT_ATTACHMENT_QUEUE_WAIT_MS,
    jobMs: settings.CHAT_ATTACHMENT_JOB_TIMEOUT_MS,
    workerMemoryMb: settings.CHAT_ATTACHMENT_WORKER_MEMORY_MB,
    workerYoungMemoryMb: settings.CHAT_ATTACHMENT_WORKER_YOUNG_MEMORY_MB,
    idleTimeoutMs: settings.CHAT_ATTACHMENT_IDLE_MS,
    docxEntries: settings.CHAT_DOCX_MAX_ENTRIES,
    docxUnpackedBytes: settings.CHAT_DOCX_MAX_UNPACKED_BYTES,
    docxCompressionRatio: settings.CHAT_DOCX_MAX_COMPRESSION_RATIO,
    pdfPages: settings.CHAT_PDF_MAX_PAGES,
    imagePixels: settings.CHAT_IMAGE_MAX_PIXELS,
  };
}

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
  if (settings && settings.CHAT_ATTACHMENT_THREADS_MIN > settings.CHAT_ATTACHMENT_THREADS_MAX)
    problems.push(
      `CHAT_ATTACHMENT_THREADS_MIN: must be at most CHAT_ATTACHMENT_THREADS_MAX (${settings.CHAT_ATTACHMENT_THREADS_MAX})`,
    );
  if (problems.length > 0 || !settings) throw new ConfigError(problems);
  return { ...settings, providers, attachmentProcessing: attachmentProcessingOf(settings) };
}
