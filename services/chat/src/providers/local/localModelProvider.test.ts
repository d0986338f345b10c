import type { ProviderSettings } from '@kasa/ai-providers';
import type { ProviderChunk } from '../chatProvider';
import type { LocalGeneration } from './localModelEngine';
import { LocalModelProvider, toLocalMessages } from './localModelProvider';

const settings: ProviderSettings = {
  name: 'local',
  kind: 'local',
  model: 'kasa-local.gguf',
  personaModels: { merla: 'merla.gguf' },
  extra: {},
  vision: false,
};

/** An engine stand-in: remembers each generation and plays the given chunks. */
function engine(chunks: ProviderChunk[]) {
  const seen: LocalGeneration[] = [];
  return {
    seen,
    async *generate(request: LocalGeneration): AsyncIterable<ProviderChunk> {
      seen.push(request);
      yield* chunks;
    },
  };
}

describe('LocalModelProvider', () => {
  it('is a text-only provider that honours the sampling settings, with a model file per persona', () => {
    const provider = new LocalModelProvider(settings, engine([]));
    expect(provider).toMatchObject({
      name: 'local',
      vision: false,
      tools: false,
      structuredOutput: false,
      honoursSettings: true,
    });
    expect(provider.modelFor('kasa')).toBe('kasa-local.gguf');
    expect(provider.modelFor('merla')).toBe('merla.gguf');
    expect(() => new LocalModelProvider({ ...settings, kind: 'ollama' }, engine([]))).toThrow(/not of kind local/);
  });

  it('passes the prompt and settings to the engine and streams its place in line, text and usage', async () => {
    const fake = engine([
      { type: 'queued', position: 1 },
      { type: 'queued', position: 0 },
      { type: 'text', text: 'Akwaaba' },
      { type: 'usage', inputTokens: 20, outputTokens: 2, finishReason: 'stop' },
    ]);
    const provider = new LocalModelProvider(settings, fake);
    const signal = new AbortController().signal;
    const chunks: ProviderChunk[] = [];
    for await (const chunk of provider.stream({
      personaId: 'kasa',
      model: 'kasa-local.gguf',
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Hi' }],
      settings: { maxOutputTokens: 50, temperature: 0.2, topP: 0.9, seed: 3, stopSequences: ['\n\n'], user: 'u1' },
      signal,
    }))
      chunks.push(chunk);
    expect(chunks.map((c) => c.type)).toEqual(['queued', 'queued', 'text', 'usage']);
    expect(fake.seen).toEqual([
      {
        model: 'kasa-local.gguf',
        system: 'Be brief.',
        messages: [{ role: 'user', content: 'Hi' }],
        maxTokens: 50,
        temperature: 0.2,
        topP: 0.9,
        seed: 3,
        stopSequences: ['\n\n'],
        signal,
      },
    ]);
  });

  it('tells tool calls and their results in words, and leaves images out', () => {
    expect(
      toLocalMessages([
        { role: 'user', content: 'Weather?', images: [{ data: new Uint8Array([1]), mediaType: 'image/png' }] },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'weather', arguments: '{"city":"Accra"}' }] },
        { role: 'tool', content: '31 °C', toolCallId: 'c1', toolName: 'weather' },
      ]),
    ).toEqual([
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: 'Called weather({"city":"Accra"}).' },
      { role: 'user', content: 'Result of weather: 31 °C' },
    ]);
  });
});
