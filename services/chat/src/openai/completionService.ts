import type { OpenAIChatCompletionRequest, Persona } from '@kasa/contracts';
import { InputError, NotFoundError, type Logger } from '@kasa/service-kit';
import type { Model } from 'mongoose';
import type { Identity } from '../identity/identity';
import { fitHistory } from '../messages/messageService';
import type { PersonaStore } from '../personas/personaStore';
import type { AttemptDocument } from '../providers/attemptModel';
import type { GenerationSettings, PromptMessage } from '../providers/chatProvider';
import type { ProviderChain, TurnHandlers, TurnResult } from '../providers/providerChain';

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
    user: request.user,
  };
  return Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined)) as GenerationSettings;
}

const textOf = (content: ChatMessage['content']): string =>
  typeof content === 'string' ? content : content.map((part) => part.text ?? '').join('');

/**
 * The engine behind the OpenAI-compatible API: the model is a persona id; the caller's own system messages are added
 * to the persona's prompt; the conversation is the caller's (Kasa stores no messages for it, only the attempts).
 */
export class CompletionService {
  constructor(
    private readonly personas: PersonaStore,
    private readonly chain: ProviderChain,
    private readonly attempts: Model<AttemptDocument>,
    private readonly logger: Logger,
    private readonly historyTokenBudget: number,
  ) {}

  async models(who: Identity): Promise<Persona[]> {
    return [...(await this.personas.listBuiltIn()), ...(await this.personas.listOwn(who.userId))];
  }

  async persona(who: Identity, model: string): Promise<Persona> {
    const persona = await this.personas.findForUser(model, who.userId);
    if (!persona)
      throw new NotFoundError(`The model '${model}' does not exist. Use a persona id: GET /v1/models lists them.`);
    return persona;
  }

  async complete(
    who: Identity,
    persona: Persona,
    request: OpenAIChatCompletionRequest,
    signal: AbortSignal,
    handlers: TurnHandlers,
  ): Promise<TurnResult> {
    const extraSystem = request.messages
      .filter((m) => m.role === 'system' || m.role === 'developer')
      .map((m) => textOf(m.content));
    const conversation: PromptMessage[] = request.messages
      .filter((m) => m.role === 'user' || m.role === 'assistant')
      .map((m) => ({ role: m.role as PromptMessage['role'], content: textOf(m.content) }))
      .filter((m) => m.content.length > 0);
    if (conversation[conversation.length - 1]?.role !== 'user')
      throw new InputError('messages must end with a user message');
    const system = [persona.systemPrompt, ...extraSystem].join('\n\n');
    const result = await this.chain.run(
      {
        personaId: persona.id,
        system,
        messages: fitHistory(conversation, this.historyTokenBudget),
        settings: settingsOf(request),
        signal,
      },
      handlers,
    );
    await this.attempts
      .insertMany(
        result.attempts.map((a) => ({
          ...a,
          messageId: null,
          sessionId: null,
          userId: who.userId,
          personaId: persona.id,
        })),
      )
      .catch((err: unknown) => this.logger.warn({ err }, 'provider attempts not recorded'));
    return result;
  }
}
