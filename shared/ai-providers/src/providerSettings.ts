import { PersonaId } from '@kasa/contracts';
import { z } from 'zod';

/**
 * The kinds of AI provider Kasa can talk to through the Vercel AI SDK, each with the prefix of its environment
 * variables (`<PREFIX>_API_KEY`, `<PREFIX>_BASE_URL`, `<PREFIX>_MODEL`, `<PREFIX>_MODEL_<PERSONA>`), its default model
 * and whether it needs a key. Any other name in CHAT_PROVIDERS is an OpenAI-compatible server that needs
 * `<NAME>_BASE_URL` (LM Studio, llama.cpp, vLLM, a LiteLLM proxy, a test double...).
 */
export const PROVIDER_KINDS = {
  openai: { prefix: 'OPENAI', model: 'gpt-4o-mini', needsKey: true },
  anthropic: { prefix: 'ANTHROPIC', model: 'claude-3-5-haiku-latest', needsKey: true },
  google: { prefix: 'GOOGLE_GENERATIVE_AI', model: 'gemini-2.0-flash', needsKey: true },
  mistral: { prefix: 'MISTRAL', model: 'mistral-small-latest', needsKey: true },
  groq: { prefix: 'GROQ', model: 'llama-3.1-8b-instant', needsKey: true },
  deepseek: { prefix: 'DEEPSEEK', model: 'deepseek-chat', needsKey: true },
  xai: { prefix: 'XAI', model: 'grok-3-mini', needsKey: true },
  cohere: { prefix: 'COHERE', model: 'command-r-plus', needsKey: true },
  togetherai: { prefix: 'TOGETHER_AI', model: 'meta-llama/Llama-3.3-70B-Instruct-Turbo', needsKey: true },
  fireworks: { prefix: 'FIREWORKS', model: 'accounts/fireworks/models/llama-v3p1-8b-instruct', needsKey: true },
  perplexity: { prefix: 'PERPLEXITY', model: 'sonar', needsKey: true },
  cerebras: { prefix: 'CEREBRAS', model: 'llama3.1-8b', needsKey: true },
  deepinfra: { prefix: 'DEEPINFRA', model: 'meta-llama/Meta-Llama-3.1-8B-Instruct', needsKey: true },
  openrouter: { prefix: 'OPENROUTER', model: 'openai/gpt-4o-mini', needsKey: true },
  // Azure needs a deployment name as the model and either AZURE_RESOURCE_NAME or AZURE_BASE_URL.
  azure: { prefix: 'AZURE', model: '', needsKey: true },
  // Bedrock reads AWS_REGION and the usual AWS credential chain (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY...).
  bedrock: { prefix: 'BEDROCK', model: 'anthropic.claude-3-5-haiku-20241022-v1:0', needsKey: false },
  ollama: { prefix: 'OLLAMA', model: 'llama3.2', needsKey: false },
  lmstudio: { prefix: 'LMSTUDIO', model: 'local-model', needsKey: false },
  llamacpp: { prefix: 'LLAMACPP', model: 'local-model', needsKey: false },
  vllm: { prefix: 'VLLM', model: 'local-model', needsKey: false },
  // A GGUF model run inside the chat service (node-llama-cpp): LOCAL_MODEL names its file in CHAT_MODELS_DIR (or a
  // path); the default is the file the operators' download fetches by default. Not an AI SDK provider: the chat
  // service builds it (services/chat/src/providers/local).
  local: { prefix: 'LOCAL', model: 'qwen2.5-1.5b-instruct-q4_k_m.gguf', needsKey: false },
} as const;
export type KnownProviderKind = keyof typeof PROVIDER_KINDS;
export type ProviderKind = KnownProviderKind | 'openai-compatible';

/** Where the local OpenAI-compatible servers listen by default. */
export const DEFAULT_BASE_URLS: Partial<Record<ProviderKind, string>> = {
  ollama: 'http://127.0.0.1:11434/api',
  lmstudio: 'http://127.0.0.1:1234/v1',
  llamacpp: 'http://127.0.0.1:8080/v1',
  vllm: 'http://127.0.0.1:8000/v1',
};

/** One configured provider, in chain order. */
export interface ProviderSettings {
  /** The name in the provider list (CHAT_PROVIDERS...); what attempts and events report. */
  name: string;
  kind: ProviderKind;
  apiKey?: string;
  baseURL?: string;
  /** Default model, and per-persona overrides (`<PREFIX>_MODEL_MERLA=...`). */
  model: string;
  personaModels: Partial<Record<PersonaId, string>>;
  /** Extra settings some kinds need (Azure resource name, Bedrock region). */
  extra: Record<string, string>;
  /**
   * Whether the provider's models can see images (`<PREFIX>_VISION=true|false`); by default, whether its default
   * model is of a family known to take images (see `seesImagesByDefault`).
   */
  vision: boolean;
  /** The embedding model of `/v1/embeddings` (`<PREFIX>_EMBEDDING_MODEL`); the kind's default when unset. */
  embeddingModel?: string;
}

/**
 * Model families that take images as input, by name: OpenAI's GPT-4o, GPT-4.1, GPT-5 and o-series; Anthropic's
 * Claude 3 and later; Google's Gemini; Mistral's Pixtral and Small/Medium 3.1+; Meta's Llama 4 and Llama 3.2 Vision;
 * xAI's Grok 4 and vision models; Gemma 3; LLaVA, Qwen-VL, MiniCPM-V and Moondream on local servers. Anything else
 * (DeepSeek chat, Cohere Command R, Llama 3.1, Perplexity Sonar, an unnamed local model...) is assumed blind until
 * `<PREFIX>_VISION=true` says otherwise.
 */
const VISION_MODEL =
  /gpt-4o|gpt-4\.1|gpt-5|(^|\/)o[134](-|$)|claude-(3|sonnet|opus|haiku-4)|claude-\w+-4|gemini|pixtral|mistral-(small|medium)|llama-4|vision|llava|[-_]vl\b|vl[-_:]|gemma-?3|grok-4|minicpm-v|moondream/i;

/** Whether a provider's default model is of a family known to take images (see VISION_MODEL). */
export function seesImagesByDefault(kind: ProviderKind, model: string): boolean {
  // An Azure deployment is named by its owner, not after its model: only the operator knows.
  if (kind === 'azure') return false;
  return VISION_MODEL.test(model);
}

const BOOLEAN = /^(true|false)$/i;

const NAME = /^[a-z][a-z0-9-]{0,31}$/;

export const envPrefixOf = (name: string): string =>
  name in PROVIDER_KINDS
    ? PROVIDER_KINDS[name as KnownProviderKind].prefix
    : name.toUpperCase().replace(/[^A-Z0-9]/g, '_');

/**
 * Reads the provider list (CHAT_PROVIDERS unless `listVariable` names another: comma-separated names, in failover
 * order) and each provider's variables. Problems are reported as `VARIABLE: message` lines so that the service's
 * config check lists them all at once.
 */
export function parseProviders(
  env: Record<string, string | undefined>,
  report: (problem: string) => void,
  { listVariable = 'CHAT_PROVIDERS' }: { listVariable?: string } = {},
): ProviderSettings[] {
  const list = (env[listVariable] ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const seen = new Set<string>();
  const providers: ProviderSettings[] = [];
  for (const name of list) {
    if (!NAME.test(name)) {
      report(`${listVariable}: '${name}' is not a valid provider name (letters, digits and dashes)`);
      continue;
    }
    if (name === 'offline') continue; // the offline provider is always last; naming it is harmless
    if (seen.has(name)) {
      report(`${listVariable}: '${name}' is listed twice`);
      continue;
    }
    seen.add(name);
    const known = name in PROVIDER_KINDS ? PROVIDER_KINDS[name as KnownProviderKind] : undefined;
    const kind: ProviderKind = known ? (name as KnownProviderKind) : 'openai-compatible';
    const prefix = envPrefixOf(name);
    const read = (suffix: string) => {
      const value = env[`${prefix}_${suffix}`]?.trim();
      return value ? value : undefined;
    };
    const apiKey = read('API_KEY');
    const baseURL = read('BASE_URL') ?? DEFAULT_BASE_URLS[kind];
    const model = read('MODEL') ?? known?.model ?? '';
    const problem = (variable: string, message: string) =>
      report(`${variable}: ${message} (provider '${name}' is in ${listVariable})`);

    if (known?.needsKey && !apiKey) problem(`${prefix}_API_KEY`, 'is required');
    if (!known && !baseURL) problem(`${prefix}_BASE_URL`, 'is required for an OpenAI-compatible provider');
    if (baseURL && !z.string().url().safeParse(baseURL).success) problem(`${prefix}_BASE_URL`, 'must be a URL');
    if (!model) problem(`${prefix}_MODEL`, 'is required (the model or deployment name)');
    const extra: Record<string, string> = {};
    if (kind === 'azure') {
      const resource = read('RESOURCE_NAME');
      if (resource) extra.resourceName = resource;
      else if (!baseURL) problem('AZURE_RESOURCE_NAME', 'or AZURE_BASE_URL is required');
    }
    if (kind === 'bedrock') {
      const region = env.AWS_REGION?.trim();
      if (region) extra.region = region;
      else problem('AWS_REGION', 'is required');
    }
    const personaModels: Partial<Record<PersonaId, string>> = {};
    for (const persona of PersonaId.options) {
      const override = read(`MODEL_${persona.toUpperCase()}`);
      if (override) personaModels[persona] = override;
    }
    const visionSetting = read('VISION');
    if (visionSetting !== undefined && !BOOLEAN.test(visionSetting))
      problem(`${prefix}_VISION`, 'must be true or false');
    const vision =
      visionSetting !== undefined && BOOLEAN.test(visionSetting)
        ? visionSetting.toLowerCase() === 'true'
        : seesImagesByDefault(kind, model);
    const embeddingModel = read('EMBEDDING_MODEL');
    providers.push({
      name,
      kind,
      apiKey,
      baseURL,
      model,
      personaModels,
      extra,
      vision,
      ...(embeddingModel ? { embeddingModel } : {}),
    });
  }
  return providers;
}
