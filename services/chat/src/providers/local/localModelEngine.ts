import type { Logger } from '@kasa/service-kit';
import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FinishReason } from '../chatProvider';

/**
 * node-llama-cpp is an ES module only, and this service compiles to CommonJS. Under `module: node16` tsc keeps an
 * `import()` as it is (it does not turn it into `require`, which cannot load an ES module that awaits at its top
 * level), so this one function is the only place that loads it, on the first generation.
 */
const loadBindings = () => import('node-llama-cpp');
type Bindings = Awaited<ReturnType<typeof loadBindings>>;
type Llama = Awaited<ReturnType<Bindings['getLlama']>>;
type LlamaModel = Awaited<ReturnType<Llama['loadModel']>>;
type LlamaContext = Awaited<ReturnType<LlamaModel['createContext']>>;
type LlamaContextSequence = ReturnType<LlamaContext['getSequence']>;
type LlamaChat = InstanceType<Bindings['LlamaChat']>;
type ChatWrapper = Bindings['ChatWrapper']['prototype'];
type ChatHistoryItem = Parameters<LlamaChat['generateResponse']>[0][number];

/** 4 GiB: a 7 B model at 4 bits fits; anything larger would not run well on the CPU anyway. */
export const DEFAULT_MAX_MODEL_BYTES = 4 * 1024 ** 3;
export const DEFAULT_SEQUENCES = 2;
export const DEFAULT_QUEUE_LENGTH = 16;
export const DEFAULT_CONTEXT_TOKENS = 4096;
/** Half the cores (at least one): the other half keeps serving HTTP, the database and the other replies. */
export const defaultThreads = (): number => Math.max(1, Math.floor(os.availableParallelism() / 2));
/** Sampling temperature when the caller sets none (node-llama-cpp's own default, 0, repeats itself on small models). */
const DEFAULT_TEMPERATURE = 0.7;

export interface LocalModelEngineOptions {
  /** Where a model named by its file name is found. */
  modelsDir: string;
  /** Replies generated at once (sequences of the one context). */
  sequences?: number;
  /** Requests that may wait for a sequence; one more is refused at once. */
  queueLength?: number;
  /** Native threads for inference (never the event loop's). */
  threads?: number;
  /** A model file larger than this is not loaded. */
  maxModelBytes?: number;
  /** The context of each sequence, in tokens (capped at what the model was trained on). */
  contextTokens?: number;
  logger: Logger;
}

/** A message of the conversation, as the model's chat template lays it out. */
export interface LocalMessage {
  role: 'user' | 'assistant';
  content: string;
}

/** One generation: the model file, the prompt, how to sample and when to stop. */
export interface LocalGeneration {
  /** A file name in the models folder, or an absolute path. */
  model: string;
  system: string;
  messages: LocalMessage[];
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  seed?: number;
  stopSequences?: string[];
  /** Stops the generation (or takes the request out of the queue). */
  signal: AbortSignal;
}

/**
 * What a generation streams: its place in the queue while it waits (1 = next; 0 once its turn came, only after a
 * place was said), its text, then its token counts.
 */
export type LocalChunk =
  | { type: 'queued'; position: number }
  | { type: 'text'; text: string }
  | { type: 'usage'; inputTokens: number; outputTokens: number; finishReason: FinishReason };

/** A request the engine cannot take or run: the model file is missing or too large, or the queue is full. */
export class LocalModelError extends Error {
  constructor(
    message: string,
    readonly code: 'queue_full' | 'not_found' | 'too_large' | 'bad_name' | 'closed',
  ) {
    super(message);
    this.name = 'LocalModelError';
  }
}

/** A stream of values pushed by one side and read by an async iterator on the other. */
class Channel<T> {
  private readonly items: T[] = [];
  private ended = false;
  private failure: { error: unknown } | undefined;
  private wake: (() => void) | undefined;

  push(item: T): void {
    if (this.ended) return;
    this.items.push(item);
    this.notify();
  }
  end(): void {
    this.ended = true;
    this.notify();
  }
  fail(error: unknown): void {
    if (this.ended) return;
    this.failure = { error };
    this.end();
  }
  async *read(): AsyncGenerator<T> {
    for (;;) {
      const item = this.items.shift();
      if (item !== undefined) {
        yield item;
        continue;
      }
      if (this.failure) throw this.failure.error;
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

interface Job {
  request: LocalGeneration;
  location: string;
  channel: Channel<LocalChunk>;
  /** Aborted by the caller's signal, or when the reader leaves. */
  abort: AbortController;
  /** The last place announced (0 = none). */
  place: number;
}

interface Loaded {
  location: string;
  model: LlamaModel;
  context: LlamaContext;
  /**
   * The context's sequences not in use. Each keeps what it last evaluated: the next reply on it evaluates only what
   * differs (a conversation's next turn, the same system prompt).
   */
  free: LlamaContextSequence[];
  chatWrapper: ChatWrapper;
}

/**
 * The chat service's one local model runtime (node-llama-cpp, the prebuilt CPU binary): loads a GGUF file on first
 * use, generates up to `sequences` replies at once on its own native threads, and lines up to `queueLength` more in
 * order, each told its place and every change of it. A request for another model file waits until the running
 * replies end, then the file is swapped.
 */
export class LocalModelEngine {
  readonly modelsDir: string;
  readonly sequences: number;
  readonly queueLength: number;
  readonly threads: number;
  readonly maxModelBytes: number;
  readonly contextTokens: number;
  private readonly logger: Logger;
  private llama: Promise<Llama> | undefined;
  private loaded: Loaded | undefined;
  private loading: Promise<void> | undefined;
  private readonly waiting: Job[] = [];
  private readonly running = new Set<Job>();
  private readonly runs = new Set<Promise<void>>();
  private closed = false;

  constructor(options: LocalModelEngineOptions) {
    this.modelsDir = options.modelsDir;
    this.sequences = options.sequences ?? DEFAULT_SEQUENCES;
    this.queueLength = options.queueLength ?? DEFAULT_QUEUE_LENGTH;
    this.threads = options.threads ?? defaultThreads();
    this.maxModelBytes = options.maxModelBytes ?? DEFAULT_MAX_MODEL_BYTES;
    this.contextTokens = options.contextTokens ?? DEFAULT_CONTEXT_TOKENS;
    this.logger = options.logger;
  }

  /**
   * Where a model lives: an absolute path as it is, else a plain file name in the models folder (never a path that
   * leads out of it).
   */
  locate(model: string): string {
    if (path.isAbsolute(model)) return model;
    if (!model || model !== path.basename(model) || model === '.' || model === '..')
      throw new LocalModelError(`'${model}' is not a model file name`, 'bad_name');
    return path.join(this.modelsDir, model);
  }

  /** What the engine is doing now (status pages, tests). */
  state(): { model?: string; running: number; waiting: number } {
    return {
      ...(this.loaded ? { model: this.loaded.location } : {}),
      running: this.running.size,
      waiting: this.waiting.length,
    };
  }

  /**
   * Streams one generation: `queued` while it waits its turn, then its text, then its token counts. Fails at once
   * when the queue is full, and when the model file is missing or too large. Stops when `signal` aborts (rejecting
   * with its reason) or when the reader stops reading.
   */
  async *generate(request: LocalGeneration): AsyncGenerator<LocalChunk> {
    if (this.closed) throw new LocalModelError('the local model is shut down', 'closed');
    const location = this.locate(request.model);
    request.signal.throwIfAborted();
    // The line holds `queueLength` requests beyond those that will start as soon as they can.
    if (this.waiting.length >= this.queueLength + this.startable(location))
      throw new LocalModelError(`the local model's queue is full (${this.queueLength} waiting)`, 'queue_full');
    const job: Job = { request, location, channel: new Channel(), abort: new AbortController(), place: 0 };
    const onAbort = () => this.cancel(job, request.signal.reason);
    request.signal.addEventListener('abort', onAbort, { once: true });
    this.waiting.push(job);
    this.dispatch();
    try {
      yield* job.channel.read();
    } finally {
      request.signal.removeEventListener('abort', onAbort);
      // The reader left early (or the generation ended): nothing more is generated for it.
      this.cancel(job, new Error('the reader stopped'));
    }
  }

  /**
   * Loads a model ahead of its first request (at start, so that the first person does not wait for it); resolves
   * when it is loaded or could not be (the reason is logged, and the next request tries again).
   */
  async warm(model: string): Promise<void> {
    const location = this.locate(model);
    if (this.closed || this.loaded?.location === location) return;
    if (!this.loading && this.running.size === 0) this.load(location);
    await this.loading;
  }

  /** Stops every generation, refuses new ones and unloads the model. */
  async close(): Promise<void> {
    this.closed = true;
    const error = new LocalModelError('the local model is shut down', 'closed');
    for (const job of [...this.waiting, ...this.running]) this.cancel(job, error);
    await Promise.allSettled([...this.runs]);
    await this.loading?.catch(() => undefined);
    await this.unload();
    const llama = await this.llama?.catch(() => undefined);
    this.llama = undefined;
    await llama?.dispose();
  }

  /** How many requests for `location` would start without waiting for another to end. */
  private startable(location: string): number {
    if (!this.loaded || this.loading) return this.sequences;
    return this.loaded.location === location ? this.loaded.free.length : 0;
  }

  private cancel(job: Job, reason: unknown): void {
    const index = this.waiting.indexOf(job);
    if (index >= 0) {
      this.waiting.splice(index, 1);
      job.channel.fail(reason);
      this.dispatch();
    }
    if (!job.abort.signal.aborted) job.abort.abort(reason);
  }

  /** Starts what can start, loads (or swaps) the model when needed, and tells the others their place. */
  private dispatch(): void {
    if (this.closed || this.loading) return this.announce();
    while (this.waiting.length > 0) {
      const head = this.waiting[0]!;
      if (this.loaded?.location !== head.location) {
        // Another file (or none yet): once nothing runs on the loaded one.
        if (this.running.size === 0) this.load(head.location);
        break;
      }
      if (this.loaded.free.length === 0) break;
      this.waiting.shift();
      // A request that was told its place hears that its turn came.
      if (head.place > 0) head.channel.push({ type: 'queued', position: 0 });
      head.place = 0;
      const run = this.run(head, this.loaded, this.loaded.free.pop()!);
      this.runs.add(run);
      void run.finally(() => this.runs.delete(run));
    }
    this.announce();
  }

  /**
   * Each waiting request's place: how many must start before it can, a free sequence counting for one. While the
   * model loads (or another file's replies end) no sequence is free: the wait is said too, so that it is not taken
   * for a provider that does not answer.
   */
  private announce(): void {
    const ready = !this.loading && this.loaded !== undefined && this.waiting[0]?.location === this.loaded.location;
    const free = ready ? this.loaded!.free.length : 0;
    this.waiting.forEach((job, index) => {
      const place = Math.max(0, index + 1 - free);
      if (place > 0 && place !== job.place) job.channel.push({ type: 'queued', position: place });
      job.place = place;
    });
  }

  private load(location: string): void {
    this.loading = (async () => {
      await this.unload();
      this.loaded = await this.open(location);
    })()
      .catch((err: unknown) => {
        this.logger.warn({ err, model: location }, 'local model not loaded');
        // Every request for this file fails now (a later one tries again: the file may have arrived).
        for (const job of this.waiting.filter((j) => j.location === location)) this.cancel(job, err);
      })
      .finally(() => {
        this.loading = undefined;
        this.dispatch();
      });
  }

  private async open(location: string): Promise<Loaded> {
    const size = await stat(location).then(
      (info) => (info.isFile() ? info.size : undefined),
      () => undefined,
    );
    const name = path.basename(location);
    if (size === undefined) throw new LocalModelError(`the local model file ${name} is not there`, 'not_found');
    if (size > this.maxModelBytes)
      throw new LocalModelError(
        `the local model file ${name} is larger than the limit (${size} > ${this.maxModelBytes} bytes)`,
        'too_large',
      );
    const bindings = await loadBindings();
    const llama = await (this.llama ??= this.start(bindings));
    const started = performance.now();
    const model = await llama.loadModel({ modelPath: location, gpuLayers: 0 });
    try {
      const context = await model.createContext({
        sequences: this.sequences,
        contextSize: Math.min(this.contextTokens, model.trainContextSize),
        threads: this.threads,
      });
      // The model's own chat template when it has one (a specialised wrapper, or its Jinja template); a plain one not.
      const chatWrapper = bindings.resolveChatWrapper(model) ?? new bindings.GeneralChatWrapper();
      this.logger.info(
        { model: name, bytes: size, ms: Math.round(performance.now() - started), chatWrapper: chatWrapper.wrapperName },
        'local model loaded',
      );
      const free = Array.from({ length: this.sequences }, () => context.getSequence());
      return { location, model, context, free, chatWrapper };
    } catch (err) {
      await model.dispose();
      throw err;
    }
  }

  /**
   * The runtime: the prebuilt CPU binary only. It never builds llama.cpp or downloads anything: without a working
   * prebuilt binary the load fails (and the chain moves on).
   */
  private start(bindings: Bindings): Promise<Llama> {
    const promise = bindings.getLlama({
      gpu: false,
      build: 'never',
      usePrebuiltBinaries: true,
      skipDownload: true,
      progressLogs: false,
      maxThreads: this.threads,
      logLevel: bindings.LlamaLogLevel.warn,
      logger: (level, message) => {
        const text = message.trim();
        if (!text) return;
        if (level === bindings.LlamaLogLevel.error || level === bindings.LlamaLogLevel.fatal)
          this.logger.error({ llama: level }, text);
        else this.logger.warn({ llama: level }, text);
      },
    });
    // A failed start is tried again by the next load.
    promise.catch(() => {
      if (this.llama === promise) this.llama = undefined;
    });
    return promise;
  }

  private async unload(): Promise<void> {
    const loaded = this.loaded;
    this.loaded = undefined;
    if (!loaded) return;
    await loaded.context.dispose().catch(() => undefined);
    await loaded.model.dispose().catch(() => undefined);
  }

  private async run(job: Job, loaded: Loaded, sequence: LlamaContextSequence): Promise<void> {
    this.running.add(job);
    const { request, channel } = job;
    let chat: LlamaChat | undefined;
    const meter = sequence.tokenMeter.getState();
    try {
      const bindings = await loadBindings();
      chat = new bindings.LlamaChat({ contextSequence: sequence, chatWrapper: loaded.chatWrapper });
      const history: ChatHistoryItem[] = [
        ...(request.system ? [{ type: 'system' as const, text: request.system }] : []),
        ...request.messages.map((message): ChatHistoryItem =>
          message.role === 'user'
            ? { type: 'user', text: message.content }
            : { type: 'model', response: [message.content] },
        ),
        { type: 'model', response: [] },
      ];
      const result = await chat.generateResponse(history, {
        signal: job.abort.signal,
        // Unset, a reply may fill its context, no more (a model that never ends its turn stops there).
        maxTokens: request.maxTokens ?? sequence.contextSize,
        temperature: request.temperature ?? DEFAULT_TEMPERATURE,
        ...(request.topP !== undefined ? { topP: request.topP } : {}),
        ...(request.seed !== undefined ? { seed: request.seed } : {}),
        ...(request.stopSequences?.length ? { customStopTriggers: request.stopSequences } : {}),
        onTextChunk: (text) => {
          if (text) channel.push({ type: 'text', text });
        },
      });
      // What this reply evaluated: its prompt less what the sequence still held, and what it generated.
      const used = sequence.tokenMeter.diff(meter);
      channel.push({
        type: 'usage',
        inputTokens: used.usedInputTokens,
        outputTokens: used.usedOutputTokens,
        finishReason: result.metadata.stopReason === 'maxTokens' ? 'length' : 'stop',
      });
      channel.end();
    } catch (err) {
      channel.fail(job.abort.signal.aborted ? job.abort.signal.reason : err);
    } finally {
      chat?.dispose({ disposeSequence: false });
      if (!sequence.disposed) loaded.free.push(sequence);
      this.running.delete(job);
      this.dispatch();
    }
  }
}
