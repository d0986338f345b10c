import { PersonaId } from './chat';
import { z } from './zod';

// The operators' AI provider settings (`/api/admin/providers*`, owned by the chat service; services/chat/README.md#ai-
// providers-in-the-browser). To anyone who is not an operator every route is a 404, as an unknown path.

/**
 * The kinds of AI provider Kasa talks to: those of the Vercel AI SDK (@kasa/ai-providers' PROVIDER_KINDS), any
 * OpenAI-compatible server, and `local`, a GGUF model run inside the chat service (node-llama-cpp).
 */
export const AI_PROVIDER_KINDS = [
  'openai',
  'anthropic',
  'google',
  'mistral',
  'groq',
  'deepseek',
  'xai',
  'cohere',
  'togetherai',
  'fireworks',
  'perplexity',
  'cerebras',
  'deepinfra',
  'openrouter',
  'azure',
  'bedrock',
  'ollama',
  'lmstudio',
  'llamacpp',
  'vllm',
  'openai-compatible',
  'local',
] as const;
export const AiProviderKind = z.enum(AI_PROVIDER_KINDS, { error: 'must be a known provider kind' });
export type AiProviderKind = z.infer<typeof AiProviderKind>;

/** A provider's name in the chain: what attempts, metrics and the audit log call it. `offline` is the built-in one. */
export const AiProviderName = z
  .string({ error: 'must be a text' })
  .regex(/^[a-z][a-z0-9-]{0,31}$/, { error: 'must be 1 to 32 lower-case letters, digits or dashes, from a letter' })
  .refine((name) => name !== 'offline', { error: 'offline is the built-in provider' })
  .openapi({ example: 'openai' });

const ModelName = z.string().trim().min(1, { error: 'must not be empty' }).max(200);
const ApiKey = z
  .string({ error: 'must be a text' })
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(1_000, { error: 'must be at most 1000 characters' });
const BaseUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(500);

/** What some kinds need beyond a key and an address (Azure's resource, Bedrock's region). */
const Extra = z
  .strictObject({
    resourceName: z.string().trim().min(1).max(100).optional(),
    region: z.string().trim().min(1).max(50).optional(),
  })
  .openapi('AiProviderExtra');

const settings = {
  /** Saved encrypted; never returned. */
  apiKey: ApiKey.optional(),
  baseURL: BaseUrl.optional(),
  /** The default model (the kind's default when left out; for `local`, the model file's name). */
  model: ModelName.optional(),
  /** Models for particular personas. */
  personaModels: z.partialRecord(PersonaId, ModelName).optional(),
  /** Whether its models see images (default: guessed from the model's name). */
  vision: z.boolean().optional(),
  /** The model of POST /v1/embeddings with `kasa-embedding` (default: the kind's, where it has one). */
  embeddingModel: ModelName.optional(),
  extra: Extra.optional(),
  /** A disabled provider stays saved but is not tried. */
  enabled: z.boolean().optional(),
};

/** An operator adds a provider; it goes to the end of the chain (before the offline notes). */
export const AiProviderCreateRequest = z
  .strictObject({ name: AiProviderName, kind: AiProviderKind, ...settings })
  .openapi('AiProviderCreateRequest');
export type AiProviderCreateRequest = z.infer<typeof AiProviderCreateRequest>;

/** Changes to a provider added in the browser; `apiKey: null` removes its key, an absent field stays as it was. */
export const AiProviderUpdateRequest = z
  .strictObject({ ...settings, apiKey: ApiKey.nullable().optional() })
  .openapi('AiProviderUpdateRequest');
export type AiProviderUpdateRequest = z.infer<typeof AiProviderUpdateRequest>;

/** The whole chain's order, by name: every provider once (those from the environment too). */
export const AiProviderOrderRequest = z
  .strictObject({ names: z.array(AiProviderName).min(1).max(50) })
  .openapi('AiProviderOrderRequest');
export type AiProviderOrderRequest = z.infer<typeof AiProviderOrderRequest>;

/**
 * A connection test: either a saved provider (`name`, with its stored key) or settings not saved yet. One short
 * request to the model ("Say OK"), at most 15 s; nothing is stored.
 */
export const AiProviderTestRequest = z
  .union([z.strictObject({ name: AiProviderName }), z.strictObject({ kind: AiProviderKind, ...settings })])
  .openapi('AiProviderTestRequest');
export type AiProviderTestRequest = z.infer<typeof AiProviderTestRequest>;

export const AiProviderTestResult = z
  .object({
    ok: z.boolean(),
    model: z.string(),
    latencyMs: z.number().int().nonnegative(),
    /** The first words of the model's answer, when it answered. */
    sample: z.string().max(200).optional(),
    /** What went wrong, in the provider's words where it gave any (never a key). */
    error: z.string().max(500).optional(),
  })
  .openapi('AiProviderTestResult');
export type AiProviderTestResult = z.infer<typeof AiProviderTestResult>;

export const CircuitState = z.enum(['closed', 'open', 'half-open']);

/** One provider as operators see it: never its key, only whether one is set and its last four characters. */
export const AiProviderView = z
  .object({
    name: z.string(),
    kind: AiProviderKind,
    /** `environment`: set by variables, read-only here (only its place in the chain changes); `console`: added here. */
    source: z.enum(['environment', 'console']),
    enabled: z.boolean(),
    baseURL: z.string().optional(),
    model: z.string(),
    personaModels: z.partialRecord(PersonaId, z.string()),
    vision: z.boolean(),
    embeddingModel: z.string().optional(),
    extra: Extra,
    key: z.object({ set: z.boolean(), hint: z.string().optional() }),
    /** This replica's circuit breaker for the provider. */
    circuit: CircuitState,
    /** This replica's attempts over the last 15 minutes. */
    recent: z.object({
      attempts: z.number().int().nonnegative(),
      failures: z.number().int().nonnegative(),
      /** failures / attempts; 0 without attempts. */
      errorRate: z.number().min(0).max(1),
    }),
    updatedAt: z.string().optional(),
  })
  .openapi('AiProviderView');
export type AiProviderView = z.infer<typeof AiProviderView>;

/** What a kind needs, for the form that adds one. */
export const AiProviderKindInfo = z
  .object({
    kind: AiProviderKind,
    needsKey: z.boolean(),
    needsBaseURL: z.boolean(),
    defaultModel: z.string(),
    defaultBaseURL: z.string().optional(),
  })
  .openapi('AiProviderKindInfo');
export type AiProviderKindInfo = z.infer<typeof AiProviderKindInfo>;

export const AiProviderList = z
  .object({
    /** The chain in order; the offline notes always answer last and are not listed. */
    providers: z.array(AiProviderView),
    kinds: z.array(AiProviderKindInfo),
    /**
     * Whether keys can be saved: in production only with CHAT_SECRETS_KEY set (a key every replica shares); providers
     * without a key (a local server) can be added either way.
     */
    keysStorable: z.boolean(),
  })
  .openapi('AiProviderList');
export type AiProviderList = z.infer<typeof AiProviderList>;

/** What the chat service finds on this machine: a local Ollama on its default port, and its models. */
export const AiProviderDiscovery = z
  .object({
    ollama: z.object({ found: z.boolean(), baseURL: z.string(), models: z.array(z.string()) }),
  })
  .openapi('AiProviderDiscovery');
export type AiProviderDiscovery = z.infer<typeof AiProviderDiscovery>;

/** The local model's file: fetched from a URL the operator can change (resumed where it stopped), or already there. */
export const LocalModelStatus = z
  .object({
    state: z.enum(['absent', 'downloading', 'ready', 'failed']),
    /** Where it is (or was last) fetched from. */
    url: z.string(),
    /** The file's name in the models folder (what a `local` provider's `model` names). */
    file: z.string().optional(),
    bytes: z.number().int().nonnegative(),
    totalBytes: z.number().int().nonnegative().optional(),
    error: z.string().max(500).optional(),
  })
  .openapi('LocalModelStatus');
export type LocalModelStatus = z.infer<typeof LocalModelStatus>;

export const LocalModelDownloadRequest = z
  .strictObject({ url: BaseUrl.optional() })
  .openapi('LocalModelDownloadRequest');
export type LocalModelDownloadRequest = z.infer<typeof LocalModelDownloadRequest>;

/** What an operator changed in the chain, for every chat replica (reload) and the audit log. */
export const AI_PROVIDER_CHANGES = ['added', 'updated', 'removed', 'reordered'] as const;
