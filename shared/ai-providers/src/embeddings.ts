import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import { createAzure } from '@ai-sdk/azure';
import { createCohere } from '@ai-sdk/cohere';
import { createDeepInfra } from '@ai-sdk/deepinfra';
import { createFireworks } from '@ai-sdk/fireworks';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createMistral } from '@ai-sdk/mistral';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createTogetherAI } from '@ai-sdk/togetherai';
import type { EmbeddingModel } from 'ai';
import { createOllama } from 'ollama-ai-provider-v2';
import type { ProviderKind, ProviderSettings } from './providerSettings';

/**
 * The embedding model each kind uses unless `<PREFIX>_EMBEDDING_MODEL` (or the operator's setting) names another. Kinds
 * not listed have no embeddings through the AI SDK (Anthropic, Groq, DeepSeek, xAI, Perplexity, Cerebras, OpenRouter,
 * a local GGUF model); an OpenAI-compatible server, LM Studio, llama.cpp and vLLM have them only when a model is named.
 */
export const DEFAULT_EMBEDDING_MODELS: Partial<Record<ProviderKind, string>> = {
  openai: 'text-embedding-3-small',
  mistral: 'mistral-embed',
  google: 'gemini-embedding-001',
  cohere: 'embed-multilingual-v3.0',
  togetherai: 'BAAI/bge-base-en-v1.5',
  fireworks: 'nomic-ai/nomic-embed-text-v1.5',
  deepinfra: 'BAAI/bge-m3',
  bedrock: 'amazon.titan-embed-text-v2:0',
  ollama: 'nomic-embed-text',
};

/** Kinds whose embedding model is whatever the server was started with: it must be named. */
const NAMED_ONLY: ReadonlySet<ProviderKind> = new Set(['azure', 'lmstudio', 'llamacpp', 'vllm', 'openai-compatible']);

/** The embedding model a provider uses by default; undefined when it has none. */
export function embeddingModelIdOf(settings: ProviderSettings): string | undefined {
  if (settings.embeddingModel) return settings.embeddingModel;
  return NAMED_ONLY.has(settings.kind) ? undefined : DEFAULT_EMBEDDING_MODELS[settings.kind];
}

/** Whether a provider can embed text at all (with its default model, or one a request names). */
export const hasEmbeddings = (settings: ProviderSettings): boolean =>
  settings.kind in DEFAULT_EMBEDDING_MODELS || NAMED_ONLY.has(settings.kind);

/** The AI SDK's embedding model `modelId` of a configured provider; undefined for kinds without embeddings. */
export function embeddingModelFor(settings: ProviderSettings, modelId: string): EmbeddingModel | undefined {
  const { apiKey, baseURL } = settings;
  const common = { apiKey, ...(baseURL ? { baseURL } : {}) };
  switch (settings.kind) {
    case 'openai':
      return createOpenAI(common).embedding(modelId);
    case 'azure':
      return createAzure({
        apiKey,
        ...(settings.extra.resourceName ? { resourceName: settings.extra.resourceName } : { baseURL }),
      }).textEmbeddingModel(modelId);
    case 'mistral':
      return createMistral(common).embeddingModel(modelId);
    case 'google':
      return createGoogleGenerativeAI(common).embeddingModel(modelId);
    case 'cohere':
      return createCohere(common).embeddingModel(modelId);
    case 'togetherai':
      return createTogetherAI(common).embeddingModel(modelId);
    case 'fireworks':
      return createFireworks(common).embeddingModel(modelId);
    case 'deepinfra':
      return createDeepInfra(common).embeddingModel(modelId);
    case 'bedrock':
      return createAmazonBedrock({ region: settings.extra.region }).embeddingModel(modelId);
    case 'ollama':
      return createOllama({ ...(baseURL ? { baseURL } : {}) }).textEmbeddingModel(modelId);
    case 'lmstudio':
    case 'llamacpp':
    case 'vllm':
    case 'openai-compatible':
      return createOpenAICompatible({ name: settings.name, baseURL: baseURL!, apiKey }).embeddingModel(modelId);
    default:
      return undefined;
  }
}
