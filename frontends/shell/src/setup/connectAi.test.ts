import { AiProviderCreateRequest, AiProviderTestRequest, type AiProviderKindInfo } from '@kasa/contracts';
import {
  asksBaseUrl,
  formatBytes,
  keyFormProblems,
  keyFormRequests,
  keyKinds,
  keyNeed,
  percentDone,
  uniqueName,
} from './connectAi';

const OPENAI: AiProviderKindInfo = { kind: 'openai', needsKey: true, needsBaseURL: false, defaultModel: 'gpt-4o-mini' };
const COMPATIBLE: AiProviderKindInfo = {
  kind: 'openai-compatible',
  needsKey: false,
  needsBaseURL: true,
  defaultModel: 'local-model',
};
const OLLAMA: AiProviderKindInfo = {
  kind: 'ollama',
  needsKey: false,
  needsBaseURL: false,
  defaultModel: 'llama3.2',
  defaultBaseURL: 'http://127.0.0.1:11434/api',
};
const LOCAL: AiProviderKindInfo = { kind: 'local', needsKey: false, needsBaseURL: false, defaultModel: 'kasa.gguf' };
const AZURE: AiProviderKindInfo = { kind: 'azure', needsKey: true, needsBaseURL: false, defaultModel: '' };

describe('the Connect AI step', () => {
  it('offers a pasted key for the providers a key and an address are enough for', () => {
    expect(keyKinds([OPENAI, AZURE, OLLAMA, COMPATIBLE, LOCAL]).map((info) => info.kind)).toEqual([
      'openai',
      'openai-compatible',
    ]);
    expect(keyNeed(OPENAI)).toBe('required');
    expect(keyNeed(COMPATIBLE)).toBe('optional');
    expect(asksBaseUrl(OPENAI)).toBe(false);
    expect(asksBaseUrl(COMPATIBLE)).toBe(true);
  });

  it('asks for what is missing before testing', () => {
    expect(keyFormProblems({ kind: 'openai', apiKey: ' ', baseURL: '', model: '' }, OPENAI)).toEqual({
      apiKey: 'key',
      model: 'model',
    });
    expect(keyFormProblems({ kind: 'openai-compatible', apiKey: '', baseURL: '', model: 'm' }, COMPATIBLE)).toEqual({
      baseURL: 'baseURLRequired',
    });
    expect(
      keyFormProblems({ kind: 'openai-compatible', apiKey: '', baseURL: 'localhost:8000', model: 'm' }, COMPATIBLE),
    ).toEqual({ baseURL: 'baseURL' });
  });

  it('tests the settings typed, then saves them under a free name', () => {
    const form = { kind: 'openai-compatible' as const, apiKey: '', baseURL: ' http://127.0.0.1:9/v1 ', model: 'fake' };
    const { test, create } = keyFormRequests(form, COMPATIBLE, ['openai-compatible']);
    expect(test).toEqual({ kind: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1', model: 'fake' });
    expect(create).toEqual({
      name: 'openai-compatible-2',
      kind: 'openai-compatible',
      baseURL: 'http://127.0.0.1:9/v1',
      model: 'fake',
    });
    expect(AiProviderTestRequest.safeParse(test).success).toBe(true);
    expect(AiProviderCreateRequest.safeParse(create).success).toBe(true);
    const keyed = keyFormRequests({ kind: 'openai', apiKey: ' sk-1 ', baseURL: 'http://x', model: 'gpt' }, OPENAI, []);
    expect(keyed.create).toEqual({ name: 'openai', kind: 'openai', apiKey: 'sk-1', model: 'gpt' });
  });

  it('names a provider never offline and never twice', () => {
    expect(uniqueName('ollama', [])).toBe('ollama');
    expect(uniqueName('ollama', ['ollama', 'ollama-2'])).toBe('ollama-3');
    expect(uniqueName('offline', [])).toBe('offline-2');
  });

  it('shows the download’s progress as a whole percent and sizes as people read them', () => {
    expect(percentDone({ bytes: 250, totalBytes: 1_000 })).toBe(25);
    expect(percentDone({ bytes: 1_200, totalBytes: 1_000 })).toBe(100);
    expect(percentDone({ bytes: 250 })).toBeNull();
    expect(formatBytes(1_999_999_999, ['en'])).toBe('1.99 GB');
    expect(formatBytes(45_670_000, ['en'])).toBe('45.6 MB');
    expect(formatBytes(900, ['en'])).toBe('900 byte');
  });
});
