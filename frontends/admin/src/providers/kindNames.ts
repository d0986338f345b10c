import type { AiProviderKind } from '@kasa/contracts';
import type { Translate } from '../i18n/useT';

/** The providers' own names, the same in every language (like plan and processor names). */
const BRANDS: Partial<Record<AiProviderKind, string>> = {
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

/** A kind as people read it: the provider's name, or the console's words for the two that are not a brand. */
export function kindName(kind: AiProviderKind, t: Translate): string {
  if (kind === 'openai-compatible') return t('kind.openaiCompatible');
  if (kind === 'local') return t('kind.local');
  return BRANDS[kind] ?? kind;
}
