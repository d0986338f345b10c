// The provider kinds and their models are shared with the voice service's translation.
import { modelFactoryFor, type ModelFactory, type ProviderSettings } from '@kasa/ai-providers';
import { streamText, type LanguageModel, type ModelMessage } from 'ai';
import type { PersonaId } from '@kasa/contracts';
import type { ChatProvider, GenerationSettings, PromptMessage, ProviderChunk, ProviderRequest } from './chatProvider';

/** The caller's sampling settings as the AI SDK's call settings; only those that were set. */
function callSettings(settings: GenerationSettings | undefined) {
  if (!settings) return {};
  const { user, ...call } = settings;
  const defined = Object.fromEntries(Object.entries(call).filter(([, value]) => value !== undefined));
  // `user` is an OpenAI request field: OpenAI's provider and every OpenAI-compatible one read it from these options.
  return user ? { ...defined, providerOptions: { openai: { user }, openaiCompatible: { user } } } : defined;
}

/** The prompt as the AI SDK's messages: a user message with images becomes a text part and an image part each. */
export function toModelMessages(messages: PromptMessage[]): ModelMessage[] {
  return messages.map((message): ModelMessage => {
    if (message.role === 'assistant') return { role: 'assistant', content: message.content };
    if (!message.images?.length) return { role: 'user', content: message.content };
    return {
      role: 'user',
      content: [
        { type: 'text', text: message.content },
        ...message.images.map((image) => ({ type: 'image' as const, image: image.data, mediaType: image.mediaType })),
      ],
    };
  });
}

/** A provider of the chain backed by the Vercel AI SDK. Retries are the chain's business, so the SDK makes none. */
export class AiSdkProvider implements ChatProvider {
  readonly name: string;
  readonly honoursSettings = true;
  readonly vision: boolean;
  private readonly models = new Map<string, LanguageModel>();
  private readonly factory: ModelFactory;

  constructor(private readonly settings: ProviderSettings) {
    this.name = settings.name;
    this.vision = settings.vision;
    this.factory = modelFactoryFor(settings);
  }

  modelFor(personaId: string): string {
    return this.settings.personaModels[personaId as PersonaId] ?? this.settings.model;
  }

  async *stream(request: ProviderRequest): AsyncIterable<ProviderChunk> {
    let model = this.models.get(request.model);
    if (!model) {
      model = this.factory(request.model);
      this.models.set(request.model, model);
    }
    const result = streamText({
      model,
      system: request.system,
      messages: toModelMessages(request.messages),
      ...callSettings(request.settings),
      abortSignal: request.signal,
      maxRetries: 0,
      // Errors arrive as 'error' parts below; the default handler would also print them to the console.
      onError: () => undefined,
    });
    for await (const part of result.fullStream) {
      switch (part.type) {
        case 'text-delta':
          if (part.text) yield { type: 'text', text: part.text };
          break;
        case 'error':
          throw part.error;
        case 'abort':
          throw request.signal.reason ?? new Error('aborted');
        case 'finish':
          if (part.finishReason === 'error') throw new Error('the provider ended the stream with an error');
          yield {
            type: 'usage',
            inputTokens: part.totalUsage.inputTokens,
            outputTokens: part.totalUsage.outputTokens,
            finishReason: part.finishReason === 'length' ? 'length' : 'stop',
          };
          break;
        default:
          break;
      }
    }
  }
}
