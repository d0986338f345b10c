import type { AiProviderKind, AiProviderKindInfo } from '@kasa/contracts';

// What a provider kind is to the forms that connect one (contracts in shared/contracts/src/aiProviders.ts): its
// name, whether it takes a key, and where a form asks for its address.

/** The kinds that are not a brand: each frontend names them in its own words. */
export type UnbrandedKind = 'openai-compatible' | 'local';

/** The providers' own names, the same in every language (like plan and processor names). */
const BRANDS: Record<Exclude<AiProviderKind, UnbrandedKind>, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  google: 'Google Gemini',
  mistral: 'Mistral',
  groq: 'Groq',
  deepseek: 'DeepSeek',
  xai: 'xAI',
  cohere: 'Cohere',
  togetherai: 'Together AI',
  fireworks: 'Fireworks AI',
  perplexity: 'Perplexity',
  cerebras: 'Cerebras',
  deepinfra: 'DeepInfra',
  openrouter: 'OpenRouter',
  azure: 'Azure OpenAI',
  bedrock: 'Amazon Bedrock',
  ollama: 'Ollama',
  lmstudio: 'LM Studio',
  llamacpp: 'llama.cpp',
  vllm: 'vLLM',
};

/**
 * A kind as people read it: the provider's name, or for a kind that is not a brand the message `words` gives for it
 * in the frontend's catalogue, read with `t` (the kind itself where `words` has none).
 */
export function kindName<Id extends string>(
  kind: AiProviderKind,
  t: (id: Id) => string,
  words: Partial<Record<UnbrandedKind, Id>>,
): string {
  // `?? kind`: a kind newer than this frontend shows as it is called.
  if (kind !== 'openai-compatible' && kind !== 'local') return BRANDS[kind] ?? kind;
  const id = words[kind];
  return id === undefined ? kind : t(id);
}

/** Whether a kind takes a key: required by the cloud providers, optional for a self-hosted OpenAI-style server. */
export type KeyNeed = 'required' | 'optional' | 'none';

/** Servers that speak OpenAI's API and may sit behind a key of their own (a proxy, a shared vLLM). */
const OPTIONAL_KEY_KINDS: ReadonlySet<AiProviderKind> = new Set(['openai-compatible', 'lmstudio', 'llamacpp', 'vllm']);

export function keyNeed(info: Pick<AiProviderKindInfo, 'kind' | 'needsKey'>): KeyNeed {
  if (info.needsKey) return 'required';
  return OPTIONAL_KEY_KINDS.has(info.kind) ? 'optional' : 'none';
}

/**
 * Where a form asks for the base URL: with the main fields when the kind needs one or runs on a server of its own,
 * under "More settings" for a cloud provider (an override few need), nowhere for the local model file.
 */
export function baseUrlPlace(info: AiProviderKindInfo): 'main' | 'more' | 'none' {
  if (info.kind === 'local') return 'none';
  if (info.needsBaseURL || info.defaultBaseURL || OPTIONAL_KEY_KINDS.has(info.kind) || info.kind === 'azure')
    return 'main';
  return 'more';
}
