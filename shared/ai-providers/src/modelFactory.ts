import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createAzure } from '@ai-sdk/azure';
import { createCerebras } from '@ai-sdk/cerebras';
import { createCohere } from '@ai-sdk/cohere';
import { createDeepInfra } from '@ai-sdk/deepinfra';
import { createDeepSeek } from '@ai-sdk/deepseek';
import { createFireworks } from '@ai-sdk/fireworks';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createGroq } from '@ai-sdk/groq';
import { createMistral } from '@ai-sdk/mistral';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createPerplexity } from '@ai-sdk/perplexity';
import { createTogetherAI } from '@ai-sdk/togetherai';
import { createXai } from '@ai-sdk/xai';
import { createOpenRouter } from '@openrouter/ai-sdk-provider';
import type { LanguageModel } from 'ai';
import { createOllama } from 'ollama-ai-provider-v2';
import type { ProviderSettings } from './providerSettings';

export type ModelFactory = (modelId: string) => LanguageModel;

/** The Vercel AI SDK provider for a configured kind; only configuration differs between them. */
export function modelFactoryFor(settings: ProviderSettings): ModelFactory {
  const { apiKey, baseURL } = settings;
  const common = { apiKey, ...(baseURL ? { baseURL } : {}) };
  switch (settings.kind) {
    // Chat Completions rather than the Responses API: it is what every OpenAI-compatible proxy speaks too.
    case 'openai':
      return (id) => createOpenAI(common).chat(id);
    case 'anthropic':
      return (id) => createAnthropic(common)(id);
    case 'google':
      return (id) => createGoogleGenerativeAI(common)(id);
    case 'mistral':
      return (id) => createMistral(common)(id);
    case 'groq':
      return (id) => createGroq(common)(id);
    case 'deepseek':
      return (id) => createDeepSeek(common)(id);
    case 'xai':
      return (id) => createXai(common)(id);
    case 'cohere':
      return (id) => createCohere(common)(id);
    case 'togetherai':
      return (id) => createTogetherAI(common)(id);
    case 'fireworks':
      return (id) => createFireworks(common)(id);
    case 'perplexity':
      return (id) => createPerplexity(common)(id);
    case 'cerebras':
      return (id) => createCerebras(common)(id);
    case 'deepinfra':
      return (id) => createDeepInfra(common)(id);
    case 'openrouter':
      return (id) => createOpenRouter(common).chat(id);
    case 'azure':
      return (id) =>
        createAzure({
          apiKey,
          ...(settings.extra.resourceName ? { resourceName: settings.extra.resourceName } : { baseURL }),
        }).chat(id);
    case 'bedrock':
      return (id) => createAmazonBedrock({ region: settings.extra.region })(id);
    case 'ollama':
      return (id) => createOllama({ ...(baseURL ? { baseURL } : {}) })(id);
    case 'local':
      throw new Error('a local model is run by the chat service itself, not through the AI SDK');
    case 'lmstudio':
    case 'llamacpp':
    case 'vllm':
    case 'openai-compatible':
      // Structured outputs on: a reply with a JSON schema is asked for as OpenAI's `json_schema` response format
      // (which these servers take, some of them enforcing it) rather than as bare `json_object`.
      return (id) =>
        createOpenAICompatible({
          name: settings.name,
          baseURL: baseURL!,
          apiKey,
          includeUsage: true,
          supportsStructuredOutputs: true,
        }).chatModel(id);
  }
}
