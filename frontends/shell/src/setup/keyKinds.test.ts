import { AI_PROVIDER_KINDS, type AiProviderKindInfo } from '@kasa/contracts';
import { keyKinds } from './keyKinds';

const info = (kind: AiProviderKindInfo['kind']): AiProviderKindInfo => ({
  kind,
  needsKey: false,
  needsBaseURL: false,
  defaultModel: '',
});

describe('the Connect AI step’s “paste a key” choice', () => {
  it('offers the providers a key and an address are enough for, in the server’s order', () => {
    expect(keyKinds(AI_PROVIDER_KINDS.map(info)).map((entry) => entry.kind)).toEqual([
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
      'lmstudio',
      'llamacpp',
      'vllm',
      'openai-compatible',
    ]);
    expect(keyKinds([info('vllm'), info('azure'), info('openai')]).map((entry) => entry.kind)).toEqual([
      'vllm',
      'openai',
    ]);
  });
});
