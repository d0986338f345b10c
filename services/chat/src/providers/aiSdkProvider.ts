// The provider kinds and their models are shared with the voice service's translation.
import { modelFactoryFor, type ModelFactory, type ProviderKind, type ProviderSettings } from '@kasa/ai-providers';
import { streamText, type LanguageModel, type ModelMessage } from 'ai';
import type { PersonaId } from '@kasa/contracts';
import type { ChatProvider, GenerationSettings, PromptMessage, ProviderChunk, ProviderRequest } from './chatProvider';
import { outputOf, providerToolOptions, toolChoiceOf, toolSetOf } from './aiSdkTools';

/** The caller's sampling settings as the AI SDK's call settings; only those that were set. */
function callSettings(settings: GenerationSettings | undefined) {
  if (!settings) return {};
  const { user: _user, ...call } = settings;
  return Object.fromEntries(Object.entries(call).filter(([, value]) => value !== undefined));
}

/** A tool call's arguments as the AI SDK's input: the JSON they are, or the text itself when they are not JSON. */
function inputOf(args: string): unknown {
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args;
  }
}

/**
 * The prompt as the AI SDK's messages: a user message with images becomes a text part and an image part each; an
 * assistant message's tool calls become tool-call parts, and tool messages in a row one tool message of results.
 */
export function toModelMessages(messages: PromptMessage[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const message of messages) {
    if (message.role === 'tool') {
      const result = {
        type: 'tool-result' as const,
        toolCallId: message.toolCallId ?? '',
        toolName: message.toolName ?? '',
        output: { type: 'text' as const, value: message.content },
      };
      const last = out[out.length - 1];
      if (last?.role === 'tool') last.content.push(result);
      else out.push({ role: 'tool', content: [result] });
    } else if (message.role === 'assistant') {
      if (!message.toolCalls?.length) out.push({ role: 'assistant', content: message.content });
      else
        out.push({
          role: 'assistant',
          content: [
            ...(message.content ? [{ type: 'text' as const, text: message.content }] : []),
            ...message.toolCalls.map((call) => ({
              type: 'tool-call' as const,
              toolCallId: call.id,
              toolName: call.name,
              input: inputOf(call.arguments),
            })),
          ],
        });
    } else if (!message.images?.length) out.push({ role: 'user', content: message.content });
    else
      out.push({
        role: 'user',
        content: [
          { type: 'text', text: message.content },
          ...message.images.map((image) => ({ type: 'image' as const, image: image.data, mediaType: image.mediaType })),
        ],
      });
  }
  return out;
}

/** Kinds whose AI SDK provider cannot call tools (Perplexity's Sonar models search instead). */
const WITHOUT_TOOLS: ReadonlySet<ProviderKind> = new Set(['perplexity']);

/** A provider of the chain backed by the Vercel AI SDK. Retries are the chain's business, so the SDK makes none. */
export class AiSdkProvider implements ChatProvider {
  readonly name: string;
  readonly honoursSettings = true;
  readonly vision: boolean;
  readonly tools: boolean;
  readonly structuredOutput = true;
  private readonly models = new Map<string, LanguageModel>();
  private readonly factory: ModelFactory;

  constructor(private readonly settings: ProviderSettings) {
    this.name = settings.name;
    this.vision = settings.vision;
    this.tools = !WITHOUT_TOOLS.has(settings.kind);
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
    const tools = request.tools && this.tools ? request.tools : undefined;
    const output = request.output ? outputOf(request.output) : undefined;
    const result = streamText({
      model,
      system: request.system,
      messages: toModelMessages(request.messages),
      ...callSettings(request.settings),
      ...(tools ? { tools: toolSetOf(tools.tools), toolChoice: toolChoiceOf(tools.choice) } : {}),
      ...(output ? { output } : {}),
      providerOptions: providerToolOptions(this.settings, {
        user: request.settings?.user,
        parallel: tools?.parallel,
        strictSchema: request.output?.schema ? (request.output.strict ?? false) : undefined,
      }),
      abortSignal: request.signal,
      maxRetries: 0,
      // Errors arrive as 'error' parts below; the default handler would also print them to the console.
      onError: () => undefined,
    });
    // A call's arguments as they streamed: what the model wrote, passed on as it is (the SDK's parsed input is not).
    const streamed = new Map<string, string>();
    for await (const part of result.fullStream) {
      switch (part.type) {
        case 'text-delta':
          if (part.text) yield { type: 'text', text: part.text };
          break;
        case 'tool-input-start':
          streamed.set(part.id, '');
          yield { type: 'tool-call-start', id: part.id, name: part.toolName };
          break;
        case 'tool-input-delta':
          if (!part.delta) break;
          streamed.set(part.id, (streamed.get(part.id) ?? '') + part.delta);
          yield { type: 'tool-call-delta', id: part.id, arguments: part.delta };
          break;
        case 'tool-call': {
          if (part.providerExecuted) break;
          const args = streamed.get(part.toolCallId);
          yield {
            type: 'tool-call',
            id: part.toolCallId,
            name: part.toolName,
            arguments: args || (typeof part.input === 'string' ? part.input : JSON.stringify(part.input ?? {})),
          };
          break;
        }
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
            finishReason:
              part.finishReason === 'length' ? 'length' : part.finishReason === 'tool-calls' ? 'tool_calls' : 'stop',
          };
          break;
        default:
          break;
      }
    }
  }
}
