import type { LanguageDetector } from '@kasa/language-detect';
import type { ProviderSettings } from '@kasa/ai-providers';
import {
  AuthOperatorCheck,
  initModels,
  loadSecretBox,
  MongoConcurrencySlots,
  Outbox,
  type OperatorCheck,
  type ConcurrencySlots,
  type EventBus,
  type Logger,
  type ServiceMetrics,
} from '@kasa/service-kit';
import { PLANS } from '@kasa/contracts';
import type { Connection } from 'mongoose';
import { AttachmentProcessor, processingSettings } from './attachments/attachmentProcessor';
import { AttachmentService } from './attachments/attachmentService';
import { attachmentModel, attachmentUsageModel } from './attachments/attachmentModel';
import type { ChatConfig } from './config';
import { ConversationStore } from './conversations/conversationStore';
import { HistoryCache } from './conversations/historyCache';
import { WriteGate } from './conversations/writeGate';
import { GeoContext } from './geo/geoContext';
import { MessageService } from './messages/messageService';
import { CompletionService } from './openai/completionService';
import { EmbeddingService } from './openai/embeddingService';
import { ResponseStore } from './openai/responseStore';
import { PersonaStore } from './personas/personaStore';
import { PromptBuilder } from './prompts/promptBuilder';
import { AiSdkProvider } from './providers/aiSdkProvider';
import { attemptModel } from './providers/attemptModel';
import type { ChatProvider } from './providers/chatProvider';
import { KnowledgeBase } from './providers/offline/knowledgeBase';
import { OfflineProvider } from './providers/offline/offlineProvider';
import { ProviderChain } from './providers/providerChain';
import { ProviderMetrics } from './providers/providerMetrics';
import { RecentAttempts } from './providers/recentAttempts';
import { ChainSettings } from './providers/settings/chainSettings';
import { ProviderSettingsStore, providerSettingsModel } from './providers/settings/providerSettingsStore';
import type { Replies } from './replies/createReplies';
import { MemoryReplyStreams } from './replies/memoryReplyStreams';
import { ReplyRunner } from './replies/replyRunner';
import { MongoReplySlots } from './replies/replySlots';
import { SessionService } from './sessions/sessionService';
import { shareModel } from './shares/shareModel';
import { ShareService } from './shares/shareService';
import { TurnPolicy } from './turns/turnPolicy';

/** Sessions whose history one replica keeps (see HistoryCache); twice the prompt's budget in characters each. */
const HISTORY_CACHE_SESSIONS = 2_000;
const newHistoryCache = (settings: ChatComponentSettings) =>
  new HistoryCache(HISTORY_CACHE_SESSIONS, Math.max(2 * 4 * settings.CHAT_HISTORY_TOKEN_BUDGET, 4_000));

/** Database writes of one process at once; more wait in the process (see WriteGate). */
export const DB_WRITE_CONCURRENCY = 8;

/** The settings the components read; a subset of ChatConfig so that tests can pass just these. */
export type ChatComponentSettings = Pick<
  ChatConfig,
  | 'providers'
  | 'CHAT_PROVIDER_FIRST_TOKEN_TIMEOUT_MS'
  | 'CHAT_PROVIDER_IDLE_TIMEOUT_MS'
  | 'CHAT_PROVIDER_TOTAL_TIMEOUT_MS'
  | 'CHAT_BREAKER_ERROR_PERCENT'
  | 'CHAT_BREAKER_MIN_REQUESTS'
  | 'CHAT_BREAKER_RESET_MS'
  | 'CHAT_BREAKER_WINDOW_MS'
  | 'CHAT_HISTORY_TOKEN_BUDGET'
  | 'CHAT_OFFLINE_WORD_DELAY_MS'
  | 'VOICE_SERVICE_URL'
  | 'CHAT_GEO_TIMEOUT_MS'
> &
  Partial<
    Pick<
      ChatConfig,
      | 'CHAT_MAX_CONCURRENT_REPLIES'
      | 'CHAT_MAX_CONCURRENT_UPLOADS'
      | 'attachmentProcessing'
      | 'AUTH_SERVICE_URL'
      | 'CHAT_SECRETS_KEY'
      | 'CHAT_KEYS_DIR'
      | 'NODE_ENV'
    >
  >;

/** The operators' AI provider settings and what keeps the chain in step with them. */
export interface ProviderAdministration {
  store: ProviderSettingsStore;
  settings: ChainSettings;
  recent: RecentAttempts;
  /** Builds a provider's client from its settings, as the chain's are built. */
  build: (settings: ProviderSettings) => ChatProvider;
  /** The outbox of `chat.providers.changed` (the service republishes it: runtime.republish). */
  outbox: Outbox;
  /** Asks auth whether a person is an operator. */
  operators: OperatorCheck;
}

export interface ChatComponents {
  personas: PersonaStore;
  sessions: SessionService;
  shares: ShareService;
  messages: MessageService;
  chain: ProviderChain;
  completions: CompletionService;
  /** POST /v1/embeddings, through the providers of the chain that have embeddings. */
  embeddings: EmbeddingService;
  /** The responses of POST /v1/responses kept for `previous_response_id`, GET and DELETE. */
  responses: ResponseStore;
  replies: Replies;
  attachments: AttachmentService;
  /** Uploads one person may have being read at once (the kit's slots, in the chat database). */
  uploadSlots: ConcurrencySlots;
  /** The worker threads that read attachments; whoever made the components closes it (`close()`) when done. */
  attachmentProcessor: AttachmentProcessor;
  providerAdmin: ProviderAdministration;
}

/** An upload's slot outlives any upload: a body within its limit plus the pool's wait and time limit. */
const UPLOAD_SLOT_TTL_MS = 2 * 60_000;

/**
 * Builds the chat service's parts over one database connection and bus. `extraProviders` lets a test put a provider
 * of its own in the chain; in production the chain is exactly what CHAT_PROVIDERS configures, plus offline.
 */
export function createChatComponents(options: {
  db: Connection;
  bus: Pick<EventBus, 'publishWithin'>;
  logger: Logger;
  /** Where the per-provider series go (the service's /metrics); omitted in tests that do not look at them. */
  metrics?: ServiceMetrics;
  settings: ChatComponentSettings;
  knowledge?: KnowledgeBase;
  extraProviders?: ChatProvider[];
  /** Detects the reply language of messages sent with `language: auto` (LanguageDetector.create()). */
  languageDetector?: LanguageDetector;
  /** Replies being written and the concurrent-replies limit (createReplies); default: memory and the database. */
  replies?: Replies;
  /** The process's queue of database writes, shared with `replies` (default: a new one). */
  writes?: WriteGate;
  /** The pool that reads attachments (default: a new one with `settings.attachmentProcessing`). */
  attachmentProcessor?: AttachmentProcessor;
  /** Builds `local` providers (a GGUF model run in this process); without it a `local` provider is left out. */
  localModels?: (settings: ProviderSettings) => ChatProvider;
  /** Whether a person is an operator (default: ask the auth service at AUTH_SERVICE_URL). */
  operators?: OperatorCheck;
}): ChatComponents {
  const { db, bus, logger, settings } = options;
  const writes = options.writes ?? new WriteGate(DB_WRITE_CONCURRENCY);
  const replies = options.replies ?? {
    streams: new MemoryReplyStreams(),
    slots: new MongoReplySlots(db, settings.CHAT_MAX_CONCURRENT_REPLIES ?? 10, writes),
  };
  const personas = new PersonaStore(db);
  // Without a shared Redis this is the only replica: it sees every turn, so it can keep sessions' history itself.
  const historyCache = replies.streams instanceof MemoryReplyStreams ? newHistoryCache(settings) : undefined;
  const store = new ConversationStore({ db, logger, writes, ...(historyCache ? { historyCache } : {}) });
  const attachmentProcessor =
    options.attachmentProcessor ?? new AttachmentProcessor(processingSettings(settings.attachmentProcessing), logger);
  const attachments = new AttachmentService(db, logger, attachmentProcessor);
  const shares = new ShareService({ shares: shareModel(db), store, personas });
  const sessions = new SessionService({ store, personas, bus, logger, live: replies.streams, shares, attachments });
  const offline = new OfflineProvider(options.knowledge ?? KnowledgeBase.load(), settings.CHAT_OFFLINE_WORD_DELAY_MS);
  const providerMetrics = options.metrics ? new ProviderMetrics(options.metrics.registry) : undefined;
  const recent = new RecentAttempts();
  const build = (provider: ProviderSettings): ChatProvider => {
    if (provider.kind !== 'local') return new AiSdkProvider(provider);
    if (!options.localModels) throw new Error('local models are not available in this process');
    return options.localModels(provider);
  };
  const environment = settings.providers.flatMap((provider) => {
    try {
      return [{ settings: provider, client: build(provider) }];
    } catch (err) {
      logger.error({ provider: provider.name, err: (err as Error).message }, 'an AI provider could not be set up');
      return [];
    }
  });
  const chain = new ProviderChain(
    [...environment.map((p) => p.client), ...(options.extraProviders ?? [])],
    offline,
    {
      firstTokenMs: settings.CHAT_PROVIDER_FIRST_TOKEN_TIMEOUT_MS,
      idleMs: settings.CHAT_PROVIDER_IDLE_TIMEOUT_MS,
      totalMs: settings.CHAT_PROVIDER_TOTAL_TIMEOUT_MS,
    },
    {
      errorThresholdPercentage: settings.CHAT_BREAKER_ERROR_PERCENT,
      volumeThreshold: settings.CHAT_BREAKER_MIN_REQUESTS,
      resetTimeoutMs: settings.CHAT_BREAKER_RESET_MS,
      windowMs: settings.CHAT_BREAKER_WINDOW_MS,
    },
    logger,
    (attempt) => {
      providerMetrics?.observe(attempt);
      recent.observe(attempt);
    },
  );
  const box = loadSecretBox({
    key: settings.CHAT_SECRETS_KEY,
    keysDir: settings.CHAT_KEYS_DIR ?? '',
    production: settings.NODE_ENV === 'production',
  });
  const outbox = new Outbox({ model: providerSettingsModel(db), field: 'changeEvent', bus, logger });
  const providerStore = new ProviderSettingsStore({
    db,
    box,
    outbox,
    logger,
    environmentNames: environment.map((p) => p.settings.name),
  });
  const chainSettings = new ChainSettings({
    store: providerStore,
    environment: environment.map((p) => p.settings),
    chain,
    build,
    logger,
  });
  const providerAdmin: ProviderAdministration = {
    store: providerStore,
    settings: chainSettings,
    recent,
    build,
    outbox,
    operators: options.operators ?? new AuthOperatorCheck(settings.AUTH_SERVICE_URL ?? 'http://127.0.0.1:4001'),
  };
  const attempts = attemptModel(db);
  const prompts = new PromptBuilder({
    historyTokenBudget: settings.CHAT_HISTORY_TOKEN_BUDGET,
    ...(options.languageDetector ? { detector: options.languageDetector } : {}),
    geo: new GeoContext({
      voiceServiceUrl: settings.VOICE_SERVICE_URL,
      timeoutMs: settings.CHAT_GEO_TIMEOUT_MS,
      logger,
    }),
  });
  const policy = new TurnPolicy({ slots: replies.slots, logger });
  const runner = new ReplyRunner({ store, streams: replies.streams, chain, prompts, attempts, bus, logger, writes });
  const messages = new MessageService({
    store,
    policy,
    prompts,
    replies: runner,
    personas,
    bus,
    logger,
    writes,
    attachments,
  });
  const completions = new CompletionService({ personas, chain, prompts, attempts, logger });
  const embeddings = new EmbeddingService({ settings: chainSettings, logger });
  const responses = new ResponseStore({ db, logger, writes });
  const uploadSlots = new MongoConcurrencySlots(db, {
    scope: 'attachments',
    limit: settings.CHAT_MAX_CONCURRENT_UPLOADS ?? PLANS.pro.limits.concurrentUploads,
    ttlMs: UPLOAD_SLOT_TTL_MS,
  });
  return {
    personas,
    sessions,
    shares,
    messages,
    chain,
    completions,
    embeddings,
    responses,
    replies,
    attachments,
    uploadSlots,
    attachmentProcessor,
    providerAdmin,
  };
}

/** Creates the collections' indexes (idempotent; every replica may run it on start). */
export async function initChatDatabase(db: Connection): Promise<void> {
  await Promise.all([
    ConversationStore.init(db),
    ResponseStore.init(db),
    initModels(attemptModel(db), shareModel(db), attachmentModel(db), attachmentUsageModel(db)),
  ]);
}
