/** Shared helpers of the chat service's integration tests (not a test file itself). */
import type { EventType, KasaEvent } from '@kasa/contracts';
import { LanguageDetector } from '@kasa/language-detect';
import {
  EventBus,
  ServiceMetrics,
  connectDatabase,
  createLogger,
  createMongoProcessedEventStore,
  isDatabaseReady,
  type OperatorCheck,
} from '@kasa/service-kit';
import type { Express } from 'express';
import { Redis } from 'ioredis';
import type { Connection } from 'mongoose';
import { randomUUID } from 'node:crypto';
import { createApp } from '../src/app';
import { createChatComponents, initChatDatabase, type ChatComponents } from '../src/chatComponents';
import { readConfig } from '../src/config';
import { createReplies, type Replies } from '../src/replies/createReplies';
import { KnowledgeBase } from '../src/providers/offline/knowledgeBase';

export const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export const logger = createLogger({ service: 'chat-test', version: 'test', level: 'silent' });
export const unique = (): string => randomUUID().slice(0, 8);

let detector: Promise<LanguageDetector> | undefined;
/** One language detector for the whole test file, as the service has one per process. */
const sharedDetector = () => (detector ??= LanguageDetector.create());
const knowledge = KnowledgeBase.load();

export async function eventually<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The identity headers the gateway would forward for a user. */
export function userHeaders(tier: 'free' | 'pro' | 'enterprise' = 'free', userId = `user-${unique()}`) {
  return { 'x-kasa-user-id': userId, 'x-kasa-username': `ama_${userId.slice(-6)}`, 'x-kasa-tier': tier };
}

/** Parses an SSE body into its events (comments are returned as `{ comment }`). */
export function parseSse(body: string): { event?: string; data?: unknown; comment?: string }[] {
  return body
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) => {
      const out: { event?: string; data?: unknown; comment?: string } = {};
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) out.comment = line.slice(1).trim();
        else if (line.startsWith('event: ')) out.event = line.slice(7);
        else if (line.startsWith('data: ')) out.data = JSON.parse(line.slice(6));
      }
      return out;
    });
}

/** A database and a bus for one test file, plus an observer that collects the events the service publishes. */
export class TestEnvironment {
  db!: Connection;
  bus!: EventBus;
  private observer!: EventBus;
  private observerDb!: Connection;
  readonly received: KasaEvent[] = [];
  private readonly chains: ChatComponents['chain'][] = [];
  private readonly embeddingServices: ChatComponents['embeddings'][] = [];
  private readonly processors: ChatComponents['attachmentProcessor'][] = [];
  private readonly redisClients: Redis[] = [];
  private readonly replies: Replies[] = [];
  /** Keys of this run in the shared Redis: other runs on the machine never see them. */
  readonly redisPrefix = `kasa:chat-test:${unique()}:`;

  constructor(private readonly name: string) {}

  async start(): Promise<void> {
    const url = process.env.MONGO_URL!;
    this.db = await connectDatabase({ url, dbName: `kasa_chat_${this.name}_${process.pid}`, logger, maxAttempts: 3 });
    this.observerDb = await connectDatabase({
      url,
      dbName: `kasa_chat_${this.name}_obs_${process.pid}`,
      logger,
      maxAttempts: 3,
    });
    this.bus = new EventBus({ url: AMQP_URL, source: 'kasa/chat', logger });
    this.observer = new EventBus({
      url: AMQP_URL,
      source: 'kasa/chat-test',
      logger,
      consumerName: `chat-test-${unique()}`,
      processedEvents: createMongoProcessedEventStore(this.observerDb),
    });
    for (const type of ['chat.session.created', 'chat.message.created', 'chat.providers.changed'] as const) {
      this.observer.subscribeBroadcast(type, async (event) => {
        this.received.push(event as KasaEvent);
      });
    }
    await Promise.all([this.bus.start(), this.observer.start()]);
    await initChatDatabase(this.db);
  }

  async stop(): Promise<void> {
    for (const chain of this.chains) chain.shutdown();
    for (const embeddings of this.embeddingServices) embeddings.shutdown();
    await Promise.all(this.processors.map((processor) => processor.close()));
    await Promise.all(this.replies.map((r) => r.streams.close()));
    await Promise.all(this.redisClients.map((r) => r.quit().catch(() => r.disconnect())));
    await Promise.all([this.bus?.close(), this.observer?.close()]);
    await this.db?.dropDatabase();
    await this.observerDb?.dropDatabase();
    await Promise.all([this.db?.close(), this.observerDb?.close()]);
  }

  eventOf(type: EventType, match: (data: Record<string, unknown>) => boolean, timeoutMs = 5_000): Promise<KasaEvent> {
    return eventually(
      () => this.received.find((e) => e.type === type && match(e.data as Record<string, unknown>)),
      timeoutMs,
    );
  }

  /**
   * Replies shared through the real Redis, as a replica started with REDIS_URL has them; every replica made with
   * this environment's prefix sees the others' replies and limit.
   */
  async redisReplies(maxConcurrentReplies = 10): Promise<Replies> {
    const redis = new Redis(REDIS_URL, { enableAutoPipelining: true });
    this.redisClients.push(redis);
    const replies = await createReplies({
      db: this.db,
      redis,
      maxConcurrentReplies,
      logger,
      redisPrefix: this.redisPrefix,
    });
    this.replies.push(replies);
    return replies;
  }

  /**
   * A fresh chat app (fresh chain and breakers) configured by `env` exactly as the service reads process.env.
   * `replies` puts replicas together (shared streams, one limit); by default each app keeps its replies in memory.
   */
  async app(
    env: Record<string, string> = {},
    replies?: Replies,
    /** Who is an operator (the service asks auth; these tests answer for it) and where Ollama is looked for. */
    options: { operators?: OperatorCheck; ollamaUrl?: string } = {},
  ): Promise<{ app: Express; chat: ChatComponents }> {
    const config = readConfig({
      CHAT_OFFLINE_WORD_DELAY_MS: '0',
      CHAT_PROVIDER_FIRST_TOKEN_TIMEOUT_MS: '1000',
      CHAT_PROVIDER_IDLE_TIMEOUT_MS: '1000',
      ...env,
    });
    const metrics = new ServiceMetrics('chat-test');
    const chat = createChatComponents({
      db: this.db,
      bus: this.bus,
      logger,
      metrics,
      settings: config,
      knowledge,
      languageDetector: await sharedDetector(),
      replies,
      ...(options.operators ? { operators: options.operators } : {}),
    });
    this.chains.push(chat.chain);
    this.embeddingServices.push(chat.embeddings);
    this.processors.push(chat.attachmentProcessor);
    await chat.personas.seed();
    const app = createApp({
      logger,
      metrics,
      readiness: { database: () => isDatabaseReady(this.db), broker: () => this.bus.isConnected() },
      isShuttingDown: () => false,
      ...chat,
      heartbeatMs: Number(env.CHAT_SSE_HEARTBEAT_MS ?? 15_000),
      ...(options.ollamaUrl ? { ollamaUrl: options.ollamaUrl } : {}),
    });
    return { app, chat };
  }
}

export { FakeOpenAI, imagePartsOf, type FakeMode, type FakeRequest } from '../../../tests/support/fakeOpenAI';
