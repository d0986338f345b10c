import type { ProviderSettings } from '@kasa/ai-providers';
import type { PersonaId } from '@kasa/contracts';
import type { ChatProvider, PromptMessage, ProviderChunk, ProviderRequest } from '../chatProvider';
import type { LocalGeneration, LocalMessage } from './localModelEngine';

/** The part of the engine a provider uses (a stand-in in tests). */
export interface LocalGenerator {
  generate(request: LocalGeneration): AsyncIterable<ProviderChunk>;
}

/**
 * The prompt as the local model's messages: text only. A tool call the conversation carries (OpenAI-compatible API)
 * is told in words, since this provider calls no tools; images never reach it (it cannot see them).
 */
export function toLocalMessages(messages: PromptMessage[]): LocalMessage[] {
  return messages.map((message): LocalMessage => {
    if (message.role === 'tool')
      return { role: 'user', content: `Result of ${message.toolName ?? 'a tool'}: ${message.content}` };
    if (message.role === 'assistant' && message.toolCalls?.length) {
      const calls = message.toolCalls.map((call) => `${call.name}(${call.arguments})`).join(', ');
      return { role: 'assistant', content: [message.content, `Called ${calls}.`].filter(Boolean).join('\n') };
    }
    return { role: message.role, content: message.content };
  });
}

/**
 * A GGUF model run inside the chat service (kind `local`): answers in turn through the process's one
 * LocalModelEngine, saying its place in the line while it waits. Text only: no images, tools or JSON replies.
 */
export class LocalModelProvider implements ChatProvider {
  readonly name: string;
  readonly honoursSettings = true;
  readonly vision = false;
  readonly tools = false;
  readonly structuredOutput = false;

  constructor(
    private readonly settings: ProviderSettings,
    private readonly engine: LocalGenerator,
  ) {
    if (settings.kind !== 'local') throw new Error(`provider '${settings.name}' is not of kind local`);
    this.name = settings.name;
  }

  /** The model file for a persona (`LOCAL_MODEL_<PERSONA>`), else LOCAL_MODEL. */
  modelFor(personaId: string): string {
    return this.settings.personaModels[personaId as PersonaId] ?? this.settings.model;
  }

  stream(request: ProviderRequest): AsyncIterable<ProviderChunk> {
    const settings = request.settings ?? {};
    return this.engine.generate({
      model: request.model,
      system: request.system,
      messages: toLocalMessages(request.messages),
      ...(settings.maxOutputTokens !== undefined ? { maxTokens: settings.maxOutputTokens } : {}),
      ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
      ...(settings.topP !== undefined ? { topP: settings.topP } : {}),
      ...(settings.seed !== undefined ? { seed: settings.seed } : {}),
      ...(settings.stopSequences?.length ? { stopSequences: settings.stopSequences } : {}),
      signal: request.signal,
    });
  }
}
