import {
  CallGuard,
  CallerAbortError,
  DeadlineExceededError,
  withDeadline,
  type Deadline,
  type Logger,
} from '@kasa/service-kit';
import {
  CHARS_PER_TOKEN,
  classifyFailure,
  timeoutMessage,
  estimateTokens,
  type AttemptOutcome,
  type ChatProvider,
  type FinishReason,
  type GenerationSettings,
  type OutputRequest,
  type PromptMessage,
  type PromptToolCall,
  type ProviderChunk,
  type ToolRequest,
} from './chatProvider';

export interface ChainTimeouts {
  firstTokenMs: number;
  idleMs: number;
  totalMs: number;
}

export interface BreakerOptions {
  errorThresholdPercentage: number;
  volumeThreshold: number;
  resetTimeoutMs: number;
  windowMs: number;
}

export interface TurnRequest {
  personaId: string;
  system: string;
  messages: PromptMessage[];
  /** Sampling settings of the OpenAI-compatible API (max tokens, temperature...), passed to every provider. */
  settings?: GenerationSettings;
  /**
   * Tools the model may call (OpenAI-compatible API). Only providers that call tools are tried, and once a provider
   * has answered anything, no other one takes over: a tool call cannot be continued by another model.
   */
  tools?: ToolRequest;
  /** A JSON reply (OpenAI-compatible API): only providers that can be asked for one are tried; no takeover either. */
  output?: OutputRequest;
  /** The user's stop (client disconnect): aborts the provider call in progress, and the chain stops. */
  signal: AbortSignal;
  /**
   * What a reply says first when the prompt has images and the provider answering cannot see them, in the reply's
   * language (default: NO_VISION_NOTICE.en).
   */
  noVisionNotice?: string;
}

/**
 * The first words of a reply whose images the answering provider could not see, in the interface's languages (English
 * for any other): what happened, and the setting that would change it. The Twi, Ewe, Ga, Hausa and Yoruba wording has
 * not been reviewed by a native speaker yet, like those catalogues.
 */
export const NO_VISION_NOTICE: Record<string, string> = {
  en:
    "I can't see images right now: none of the AI providers connected to this server sees images (an operator can " +
    'add one under AI providers). I have answered from your text only.\n\n',
  fr:
    "Je ne peux pas voir les images pour le moment : aucun fournisseur d'IA connecté à ce serveur ne voit les " +
    "images (un opérateur peut en ajouter un dans Fournisseurs d'IA). J'ai répondu à partir de votre texte seulement.\n\n",
  sw:
    'Siwezi kuona picha kwa sasa: hakuna mtoa huduma wa AI aliyeunganishwa na seva hii anayeona picha (msimamizi ' +
    'anaweza kuongeza mmoja katika Watoa huduma wa AI). Nimejibu kutokana na maandishi yako pekee.\n\n',
  ha:
    'Ba zan iya ganin hotuna a yanzu ba: babu mai samar da AI da aka haɗa da wannan sabar da ke ganin hotuna (mai ' +
    'gudanarwa zai iya ƙara ɗaya a Masu samar da AI). Na amsa daga rubutunka kawai.\n\n',
  yo:
    'Mi ò lè rí àwọn àwòrán báyìí: kò sí olùpèsè AI tí a so mọ́ olupin yìí tí ó ń rí àwòrán (alákòóso lè fi ọ̀kan ' +
    'kún un ní Àwọn olùpèsè AI). Mo ti dáhùn láti inú ọ̀rọ̀ rẹ nìkan.\n\n',
  tw:
    'Mentumi nhwɛ mfonini seesei: AI adwumayɛfoɔ a wɔde aka server yi ho no mu biara nhunu mfonini (ɔhwɛfoɔ betumi ' +
    'de baako aka ho wɔ AI adwumayɛfoɔ mu). Wo nsɛm nko ara so na megyina ayi ano.\n\n',
  ee:
    'Nyemate ŋu kpɔ foto siawo fifia o: AI nunanala siwo wotsɔ kpe ɖe server sia ŋu la dometɔ aɖeke mekpɔa fotowo o ' +
    '(dzikpɔla ate ŋu atsɔ ɖeka akpe ɖe eŋu le AI nunanalawo me). Wò nuŋlɔɖi ɖeɖeko dzi mete ɖo ŋu ɖo.\n\n',
  gaa:
    'Minyɛŋ mina mfonirii lɛ amrɔ nɛɛ: AI hãlɔi ni akɛbɔ server nɛɛ he lɛ ateŋ ekome po nyɛŋ mfonirii (nɔkwɛlɔ ' +
    'baanyɛ ekɛ ekome aké ehe yɛ AI hãlɔi lɛ amli). Oowiemɔi lɛ pɛ mli mijɛ mihã hetoo.\n\n',
  ar:
    'لا أستطيع رؤية الصور حاليًا: لا يرى أيّ من مزوّدي الذكاء الاصطناعي المتصلين بهذا الخادم الصور (يمكن للمشغّل ' +
    'إضافة واحد في مزوّدي الذكاء الاصطناعي). أجبت من نصك فقط.\n\n',
};

/** Told to a provider that cannot see images when the person sent some, so that its answer fits the notice. */
const BLIND_INSTRUCTION =
  'The user attached images to their message, but you cannot see them: answer from their text only and do not ' +
  'guess what the images show.';

/** The provider's stream, after a first piece of text of our own. */
async function* after(first: string, stream: AsyncIterable<ProviderChunk>): AsyncIterable<ProviderChunk> {
  yield { type: 'text', text: first };
  yield* stream;
}

/** A tool call as it streams: its start (id and tool), pieces of its arguments, then the complete call. */
export type ToolCallEvent = Extract<ProviderChunk, { type: 'tool-call-start' | 'tool-call-delta' | 'tool-call' }>;

export interface TurnHandlers {
  /** A provider started answering (its first text). `continued` when it takes over a reply another one began. */
  onProvider?(info: { provider: string; model: string; continued: boolean }): void;
  /** Each piece of text, in order, across providers: one continuous reply. */
  onText(text: string): void;
  /** Each tool call event, in order (turns with tools only). */
  onToolCall?(event: ToolCallEvent): void;
  /**
   * The request waits its turn at a provider that answers in turn (the local model): its place in the line (1 =
   * next), each change of it, and 0 when its turn came (its first text follows).
   */
  onQueued?(position: number): void;
}

export interface AttemptRecord {
  provider: string;
  model: string;
  outcome: AttemptOutcome;
  detail?: string;
  startedAt: Date;
  latencyMs: number;
  firstTokenMs?: number;
  inputTokens?: number;
  outputTokens?: number;
  continued: boolean;
  answered: boolean;
}

export interface TurnResult {
  text: string;
  /** The tools the model called, complete, in order (turns with tools only; empty or left out otherwise). */
  toolCalls?: PromptToolCall[];
  status: 'complete' | 'stopped' | 'failed';
  /** `length` when the reply was cut at `settings.maxOutputTokens`. */
  finishReason: FinishReason;
  /** The provider that produced the end of the reply (or was producing it when the user stopped). */
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
  firstTokenMs?: number;
  attempts: AttemptRecord[];
}

/** Thrown inside an attempt when the user stopped; not the provider's fault, so breakers ignore it. */
class ClientAbortError extends CallerAbortError {
  constructor() {
    super('stopped by the client');
    this.name = 'ClientAbortError';
  }
}

/** Sent to the next provider after a mid-stream failure, with the partial reply as the assistant's last turn. */
export const CONTINUE_INSTRUCTION =
  'Your previous reply was cut off. Continue it exactly where it stopped: do not repeat anything, do not comment ' +
  'on the interruption, start with the very next characters.';

type Run = (deadline: Deadline) => Promise<void>;

/**
 * The ordered provider chain: tries each configured provider in turn, each call bounded by timeouts (first token,
 * idle gap, total) and guarded by its own opossum circuit breaker; a failure before or during the stream falls
 * over to the next provider, which continues the partial reply, so the caller sees one continuous text. The
 * offline provider ends every chain and is neither timed nor broken: it is local and always answers.
 */
/**
 * The iterator's next chunk, or the signal's reason as soon as it aborts: some provider libraries do not notice an
 * abort while they wait for the network, and a hung call must be left behind at once (its fetch is aborted too, so
 * its socket closes). Not `Promise.race` against one promise that lives as long as the reply: each race leaves a
 * reaction on that promise, holding every chunk of the reply until it ends (long enough for the garbage collector to
 * move them all to the old generation, which is what made the chat process's memory swing under load).
 */
function nextUnlessAborted<T>(iterator: AsyncIterator<T>, signal: AbortSignal): Promise<IteratorResult<T>> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    iterator.next().then(
      (result) => {
        signal.removeEventListener('abort', onAbort);
        resolve(result);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

export class ProviderChain {
  /** Each provider's circuit breaker (the kit's guarded call); the attempt sets its own deadlines. */
  private readonly guard: CallGuard;

  constructor(
    private providers: ChatProvider[],
    private readonly offline: ChatProvider,
    private readonly timeouts: ChainTimeouts,
    breaker: BreakerOptions,
    private readonly logger: Logger,
    /** Called with every finished attempt (metrics). */
    private readonly observe: (attempt: AttemptRecord) => void = () => undefined,
  ) {
    this.guard = new CallGuard({ ...breaker, logger });
  }

  /**
   * Puts a new list of providers in the chain (an operator changed it): turns already running finish with the
   * providers they started with; the next ones use the new list. `changed`: names whose settings changed, whose
   * breakers start again closed.
   */
  replace(providers: ChatProvider[], changed: Iterable<string> = []): void {
    this.providers = providers;
    for (const name of changed) this.guard.forget(name);
  }

  /** The configured providers in order (not the offline notes). */
  list(): readonly ChatProvider[] {
    return this.providers;
  }

  /** Each provider in order with its default model and breaker state, for the providers endpoint and status. */
  describe(): { name: string; model: string; circuit: 'closed' | 'open' | 'half-open' }[] {
    return [
      ...this.providers.map((p) => ({ name: p.name, model: p.modelFor('kasa'), circuit: this.guard.circuit(p.name) })),
      { name: this.offline.name, model: this.offline.modelFor('kasa'), circuit: 'closed' as const },
    ];
  }

  /** Whether any configured provider can see images (the offline provider cannot). */
  seesImages(): boolean {
    return this.providers.some((provider) => provider.vision === true);
  }

  /** Whether any configured provider can call tools (the offline provider cannot). */
  callsTools(): boolean {
    return this.providers.some((provider) => provider.tools === true);
  }

  /** Whether any configured provider can be asked for a JSON reply (the offline provider cannot). */
  givesStructuredOutput(): boolean {
    return this.providers.some((provider) => provider.structuredOutput === true);
  }

  /** Whether a provider can answer this turn: tools and a JSON reply need providers that support them. */
  private canAnswer(provider: ChatProvider, request: TurnRequest): boolean {
    return (!request.tools || provider.tools === true) && (!request.output || provider.structuredOutput === true);
  }

  /** Stops the breakers' timers (tests and shutdown). */
  shutdown(): void {
    this.guard.shutdown();
  }

  async run(request: TurnRequest, handlers: TurnHandlers): Promise<TurnResult> {
    const started = performance.now();
    const attempts: AttemptRecord[] = [];
    let text = '';
    const toolCalls: PromptToolCall[] = [];
    let firstTokenMs: number | undefined;
    const finish = { reason: 'stop' as FinishReason };
    const chain = [...this.providers, this.offline].filter((provider) => this.canAnswer(provider, request));
    // Another provider may continue a text reply; a tool call or a JSON reply it cannot.
    const resumable = !request.tools && !request.output;

    for (const provider of chain) {
      if (request.signal.aborted) break;
      const model = provider.modelFor(request.personaId);
      const continued = text.length > 0;
      const record: AttemptRecord = {
        provider: provider.name,
        model,
        outcome: 'ok',
        startedAt: new Date(),
        latencyMs: 0,
        continued,
        answered: false,
      };
      attempts.push(record);
      const attemptStart = performance.now();
      let produced = '';
      let calling = false;
      const run: Run = (deadline) =>
        this.attempt(provider, model, request, text, record, attemptStart, finish, deadline, {
          onProvider: handlers.onProvider,
          onQueued: handlers.onQueued,
          onText: (piece) => {
            firstTokenMs ??= Math.round(performance.now() - started);
            produced += piece;
            handlers.onText(piece);
          },
          onToolCall: (event) => {
            firstTokenMs ??= Math.round(performance.now() - started);
            calling = true;
            if (event.type === 'tool-call')
              toolCalls.push({ id: event.id, name: event.name, arguments: event.arguments });
            handlers.onToolCall?.(event);
          },
        });
      try {
        // The total deadline runs from the start; the first-token and idle ones are armed by the attempt. The
        // offline provider is local and always answers: neither timed nor broken.
        const timed = provider !== this.offline;
        const guarded = {
          signal: request.signal,
          callerAbort: () => new ClientAbortError(),
          ...(timed
            ? {
                what: 'total',
                timeoutMs: this.timeouts.totalMs,
                message: timeoutMessage('total', this.timeouts.totalMs),
              }
            : {}),
        };
        await (timed ? this.guard.run(provider.name, guarded, run) : withDeadline(guarded, run));
        record.latencyMs = Math.round(performance.now() - attemptStart);
        text += produced;
        record.outputTokens ??= estimateTokens(produced);
        record.answered = true;
        // A model that called tools ends its turn for them, whatever its provider reported.
        const reason: FinishReason = toolCalls.length > 0 ? 'tool_calls' : finish.reason;
        return this.result(text, toolCalls, 'complete', record, attempts, started, firstTokenMs, reason);
      } catch (err) {
        record.latencyMs = Math.round(performance.now() - attemptStart);
        text += produced;
        if (request.signal.aborted || err instanceof ClientAbortError) {
          record.outcome = 'aborted';
          record.outputTokens ??= estimateTokens(produced);
          record.answered = true;
          return this.result(text, toolCalls, 'stopped', record, attempts, started, firstTokenMs);
        }
        const { outcome, detail } = classifyFailure(err);
        record.outcome = outcome;
        record.detail = detail;
        if (produced) record.outputTokens ??= estimateTokens(produced);
        if (!resumable && (produced.length > 0 || calling)) {
          this.logger.warn(
            { provider: provider.name, model, outcome, detail, midStream: true },
            'provider attempt failed after it began a tool call or a JSON reply; no other provider can continue it',
          );
          return this.result(text, toolCalls, 'failed', record, attempts, started, firstTokenMs);
        }
        this.logger.warn(
          { provider: provider.name, model, outcome, detail, midStream: produced.length > 0 || continued },
          'provider attempt failed; falling over to the next provider',
        );
      }
    }
    const last = attempts[attempts.length - 1];
    if (request.signal.aborted && last)
      return this.result(text, toolCalls, 'stopped', last, attempts, started, firstTokenMs);
    return this.result(
      text,
      toolCalls,
      'failed',
      last ?? { provider: this.offline.name, model: '' },
      attempts,
      started,
      firstTokenMs,
    );
  }

  private result(
    text: string,
    toolCalls: PromptToolCall[],
    status: TurnResult['status'],
    answered: Pick<AttemptRecord, 'provider' | 'model'>,
    attempts: AttemptRecord[],
    started: number,
    firstTokenMs: number | undefined,
    finishReason: FinishReason = 'stop',
  ): TurnResult {
    for (const attempt of attempts) this.observe(attempt);
    return {
      text,
      toolCalls,
      status,
      finishReason,
      provider: answered.provider,
      model: answered.model,
      inputTokens: attempts.reduce((sum, a) => sum + (a.inputTokens ?? 0), 0),
      outputTokens: attempts.reduce((sum, a) => sum + (a.outputTokens ?? 0), 0),
      latencyMs: Math.round(performance.now() - started),
      ...(firstTokenMs !== undefined ? { firstTokenMs } : {}),
      attempts,
    };
  }

  /** One provider call: streams into `handlers`, bounded by the timeouts, aborted with the client. */
  private async attempt(
    provider: ChatProvider,
    model: string,
    request: TurnRequest,
    partial: string,
    record: AttemptRecord,
    attemptStart: number,
    finish: { reason: FinishReason },
    deadline: Deadline,
    handlers: TurnHandlers,
  ): Promise<void> {
    const client = request.signal;
    if (client.aborted) throw new ClientAbortError();
    const signal = deadline.signal;
    const timed = provider !== this.offline;
    const arm = (phase: 'first-token' | 'idle', ms: number) => {
      if (timed) deadline.arm(phase, ms, timeoutMessage(phase, ms));
    };
    arm('first-token', this.timeouts.firstTokenMs);

    // A provider that cannot see images never receives them; the reply says so first (once, not on a continuation).
    const blind = !provider.vision && request.messages.some((m) => m.images?.length);
    const prompt: PromptMessage[] = blind
      ? request.messages.map(({ images: _images, ...rest }) => rest)
      : request.messages;
    const messages: PromptMessage[] = partial
      ? [...prompt, { role: 'assistant', content: partial }, { role: 'user', content: CONTINUE_INSTRUCTION }]
      : prompt;
    const providerStream = provider.stream({
      personaId: request.personaId,
      model,
      system: blind ? `${request.system}\n${BLIND_INSTRUCTION}` : request.system,
      messages,
      ...(request.settings ? { settings: request.settings } : {}),
      ...(request.tools ? { tools: request.tools } : {}),
      ...(request.output ? { output: request.output } : {}),
      signal,
    });
    const stream =
      blind && !partial ? after(request.noVisionNotice ?? NO_VISION_NOTICE.en!, providerStream) : providerStream;
    const iterator = stream[Symbol.asyncIterator]();
    const next = () => nextUnlessAborted(iterator, signal);
    let started = false;
    // A provider that cannot count tokens is cut at the estimated count of the whole reply (every attempt's text).
    const maxTokens = request.settings?.maxOutputTokens;
    let charsLeft =
      maxTokens !== undefined && !provider.honoursSettings ? maxTokens * CHARS_PER_TOKEN - partial.length : Infinity;
    try {
      for (;;) {
        const result = await next();
        if (result.done) break;
        const chunk = result.value;
        if (chunk.type === 'queued') {
          // Waiting in line is not a hung provider: the first-token deadline waits too (the total deadline bounds
          // the whole wait), and starts afresh when the request's turn comes (position 0).
          if (!started) {
            arm('first-token', chunk.position > 0 ? this.timeouts.totalMs : this.timeouts.firstTokenMs);
            handlers.onQueued?.(chunk.position);
          }
          continue;
        }
        if (chunk.type === 'usage') {
          if (chunk.inputTokens !== undefined) record.inputTokens = chunk.inputTokens;
          if (chunk.outputTokens !== undefined) record.outputTokens = chunk.outputTokens;
          if (chunk.finishReason) finish.reason = chunk.finishReason;
          continue;
        }
        if (chunk.type !== 'text') {
          if (!started) {
            started = true;
            record.firstTokenMs = Math.round(performance.now() - attemptStart);
            handlers.onProvider?.({ provider: provider.name, model, continued: false });
          }
          arm('idle', this.timeouts.idleMs);
          handlers.onToolCall?.(chunk);
          continue;
        }
        if (!chunk.text) continue;
        const piece = chunk.text.length > charsLeft ? chunk.text.slice(0, Math.max(0, charsLeft)) : chunk.text;
        charsLeft -= piece.length;
        if (!started) {
          started = true;
          record.firstTokenMs = Math.round(performance.now() - attemptStart);
          handlers.onProvider?.({ provider: provider.name, model, continued: partial.length > 0 });
        }
        arm('idle', this.timeouts.idleMs);
        if (piece) handlers.onText(piece);
        if (piece.length < chunk.text.length) {
          finish.reason = 'length';
          void iterator.return?.(undefined)?.catch(() => undefined);
          break;
        }
      }
      if (!started) throw new Error('the provider returned an empty reply');
    } catch (err) {
      // Cancels the provider's request too (its fetch listens to the signal).
      if (!signal.aborted) deadline.cancel(err instanceof Error ? err : new Error(String(err)));
      void iterator.return?.(undefined)?.catch(() => undefined);
      if (client.aborted) throw new ClientAbortError();
      throw signal.reason instanceof DeadlineExceededError ? signal.reason : err;
    }
  }
}
