import {
  OPENAI_IMAGE_DATA_URL,
  OpenAIParamCode,
  type OpenAIChatCompletionRequest,
  type Persona,
} from '@kasa/contracts';
import { InputError, NotFoundError, type Logger } from '@kasa/service-kit';
import type { Model } from 'mongoose';
import type { Identity } from '../identity/identity';
import type { PersonaStore } from '../personas/personaStore';
import type { PromptBuilder } from '../prompts/promptBuilder';
import type { AttemptDocument } from '../providers/attemptModel';
import { detectFileKind, maxBytesOf } from '../attachments/fileKind';
import type { GenerationSettings, PromptImage, PromptMessage, ToolRequest } from '../providers/chatProvider';
import type { ProviderChain, TurnHandlers, TurnResult } from '../providers/providerChain';
import { structuredOutputOf, type StructuredOutput } from './structuredOutput';
import { keepToolExchangesWhole, textOf, toolPromptMessageOf, toolRequestOf } from './toolMessages';

type ChatMessage = OpenAIChatCompletionRequest['messages'][number];

/** OpenAI's sampling parameters as the providers' settings; `max_completion_tokens` is the newer `max_tokens`. */
export function settingsOf(request: OpenAIChatCompletionRequest): GenerationSettings {
  const stop = request.stop ?? undefined;
  const settings: GenerationSettings = {
    maxOutputTokens: request.max_completion_tokens ?? request.max_tokens ?? undefined,
    temperature: request.temperature ?? undefined,
    topP: request.top_p ?? undefined,
    stopSequences: stop === undefined ? undefined : typeof stop === 'string' ? [stop] : stop,
    seed: request.seed ?? undefined,
    presencePenalty: request.presence_penalty ?? undefined,
    frequencyPenalty: request.frequency_penalty ?? undefined,
    user: request.user ?? request.safety_identifier ?? undefined,
  };
  return Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined)) as GenerationSettings;
}

/** A refused image part, named as OpenAI's `param` names it (`messages.0.content.1.image_url.url`). */
const imageError = (path: string, message: string) => new InputError(message, [{ path, message }]);

/**
 * The images of a message's `image_url` parts: base64 data URLs (the schema refuses web URLs: Kasa fetches
 * nothing), each checked by its bytes to be a PNG, JPEG, WebP or GIF within the image size limit.
 */
async function imagesOf(content: ChatMessage['content'], messageIndex: number): Promise<PromptImage[]> {
  if (content == null || typeof content === 'string') return [];
  const images: PromptImage[] = [];
  for (const [index, part] of content.entries()) {
    if (part.type !== 'image_url') continue;
    const path = `messages.${messageIndex}.content.${index}.image_url.url`;
    const url = (part as { image_url?: { url?: string } }).image_url?.url ?? '';
    const base64 = OPENAI_IMAGE_DATA_URL.exec(url)?.[2];
    if (!base64) throw imageError(path, 'an image must be a base64 data URL (data:image/png;base64,...)');
    const data = Buffer.from(base64, 'base64');
    const kind = data.length > 0 ? await detectFileKind(data, '', undefined) : undefined;
    if (kind?.kind !== 'image') throw imageError(path, 'the data URL does not hold a PNG, JPEG, WebP or GIF image');
    if (data.length > maxBytesOf('image')) throw imageError(path, 'an image may be at most 10 MB');
    images.push({ data, mediaType: kind.mediaType });
  }
  return images;
}

/** A 400 about a parameter the configured providers cannot serve, with OpenAI's code for it. */
const unsupported = (param: string, message: string, code: string) =>
  new InputError(message, [{ path: param, message }], code);

/** A checked request, ready to run: the prompt and what the turn needs from the providers. */
export interface PreparedCompletion {
  persona: Persona;
  system: string;
  messages: PromptMessage[];
  settings: GenerationSettings;
  tools?: ToolRequest;
  /** The JSON the reply must be, checked once it is complete. */
  output?: StructuredOutput;
}

export interface CompletionServiceDeps {
  personas: PersonaStore;
  chain: ProviderChain;
  /** The same prompt rules as the chat API's: the persona's system prompt, the history within its budget. */
  prompts: PromptBuilder;
  attempts: Model<AttemptDocument>;
  logger: Logger;
}

/**
 * The engine behind the OpenAI-compatible API: the model is a persona id; the caller's own system messages are added
 * to the persona's prompt; the conversation is the caller's (Kasa stores no messages for it, only the attempts).
 */
export class CompletionService {
  constructor(private readonly deps: CompletionServiceDeps) {}

  async models(who: Identity): Promise<Persona[]> {
    return [...(await this.deps.personas.listBuiltIn()), ...(await this.deps.personas.listOwn(who.userId))];
  }

  async persona(who: Identity, model: string): Promise<Persona> {
    const persona = await this.deps.personas.findForUser(model, who.userId);
    if (!persona)
      throw new NotFoundError(`The model '${model}' does not exist. Use a persona id: GET /v1/models lists them.`);
    return persona;
  }

  /**
   * The request as a turn, checked before anything is answered (a streamed answer has not started yet, so every
   * problem is a plain 400): the conversation, the persona's prompt, and what the turn needs from the providers.
   */
  async prepare(persona: Persona, request: OpenAIChatCompletionRequest): Promise<PreparedCompletion> {
    const extraSystem = request.messages
      .filter((m) => m.role === 'system' || m.role === 'developer')
      .map((m) => textOf(m.content));
    const conversation: PromptMessage[] = [];
    const toolNames = new Map<string, string>();
    for (const [index, m] of request.messages.entries()) {
      const toolMessage = toolPromptMessageOf(m, toolNames);
      if (toolMessage) {
        conversation.push(toolMessage);
        continue;
      }
      if (m.role !== 'user' && m.role !== 'assistant') continue;
      const images = m.role === 'user' ? await imagesOf(m.content, index) : [];
      const content = textOf(m.content);
      if (content.length === 0 && images.length === 0) continue;
      conversation.push({ role: m.role, content, ...(images.length ? { images } : {}) });
    }
    const last = conversation[conversation.length - 1]?.role;
    if (last !== 'user' && last !== 'tool')
      throw new InputError('messages must end with a user message (or with tool messages answering tool calls)');
    if (conversation.some((m) => m.images?.length) && !this.deps.chain.seesImages())
      throw new InputError(
        'None of the AI providers configured here can see images, so this request cannot be answered: send text only.',
        [{ path: 'messages', message: 'no vision-capable provider is configured' }],
      );
    const tools = toolRequestOf(request);
    if (tools && !this.deps.chain.callsTools())
      throw unsupported(
        request.tools?.length ? 'tools' : 'messages',
        `The model '${persona.id}' cannot call tools here: none of the AI providers configured for it supports ` +
          'function calling (the built-in offline engine answers with text only).',
        OpenAIParamCode.unsupportedParameter,
      );
    const output = structuredOutputOf(request.response_format);
    if (output && !this.deps.chain.givesStructuredOutput())
      throw unsupported(
        'response_format',
        `The model '${persona.id}' cannot give structured output here: none of the AI providers configured for it ` +
          'supports JSON replies (the built-in offline engine answers with text only).',
        OpenAIParamCode.unsupportedValue,
      );
    const system = this.deps.prompts.openAISystem(persona, output ? [...extraSystem, output.instruction] : extraSystem);
    return {
      persona,
      system,
      messages: keepToolExchangesWhole(conversation, this.deps.prompts.fit(conversation)),
      settings: settingsOf(request),
      ...(tools ? { tools } : {}),
      ...(output ? { output } : {}),
    };
  }

  /** Runs a prepared turn through the provider chain and records its attempts. */
  async complete(
    who: Identity,
    turn: PreparedCompletion,
    signal: AbortSignal,
    handlers: TurnHandlers,
  ): Promise<TurnResult> {
    const { persona } = turn;
    const result = await this.deps.chain.run(
      {
        personaId: persona.id,
        system: turn.system,
        messages: turn.messages,
        settings: turn.settings,
        ...(turn.tools ? { tools: turn.tools } : {}),
        ...(turn.output ? { output: turn.output.request } : {}),
        signal,
      },
      handlers,
    );
    await this.deps.attempts
      .insertMany(
        result.attempts.map((a) => ({
          ...a,
          messageId: null,
          sessionId: null,
          userId: who.userId,
          personaId: persona.id,
        })),
      )
      .catch((err: unknown) => this.deps.logger.warn({ err }, 'provider attempts not recorded'));
    return result;
  }
}
