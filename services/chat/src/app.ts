import { BODY_LIMITS, type ChatCapabilities } from '@kasa/contracts';
import { createServiceApp, type ConcurrencySlots, type RuntimeAppDeps } from '@kasa/service-kit';
import { Router, type Express } from 'express';
import { createInternalProvidersRouter, createProviderAdminRouter } from './admin/providerAdminRouter';
import { createAttachmentRouter } from './attachments/attachmentRouter';
import type { ProviderAdministration } from './chatComponents';
import type { AttachmentService } from './attachments/attachmentService';
import { requireIdentity } from './identity/identity';
import { createMessageRouter } from './messages/messageRouter';
import type { MessageService } from './messages/messageService';
import type { CompletionService } from './openai/completionService';
import type { EmbeddingService } from './openai/embeddingService';
import { createOpenAIRouter } from './openai/openaiRouter';
import { createResponsesRouter } from './openai/responsesRouter';
import type { ResponseStore } from './openai/responseStore';
import { createPersonaRouter } from './personas/personaRouter';
import type { PersonaStore } from './personas/personaStore';
import type { ProviderChain } from './providers/providerChain';
import type { Replies } from './replies/createReplies';
import { createSessionRouter } from './sessions/sessionRouter';
import type { SessionService } from './sessions/sessionService';
import { createShareRouter } from './shares/shareRouter';
import type { ShareService } from './shares/shareService';

export interface ChatAppDeps extends RuntimeAppDeps {
  personas: PersonaStore;
  sessions: SessionService;
  shares: ShareService;
  messages: MessageService;
  chain: ProviderChain;
  completions: CompletionService;
  embeddings: EmbeddingService;
  /** The responses of POST /v1/responses kept for `previous_response_id`, GET and DELETE. */
  responses: ResponseStore;
  attachments: AttachmentService;
  /** Uploads one person may have being read at once. */
  uploadSlots: ConcurrencySlots;
  /** Replies being written and the per-person concurrent-replies limit, shared by /api/chat and /v1. */
  replies: Replies;
  /** SSE heartbeat comment interval; 15 s in production. */
  heartbeatMs: number;
  /** The operators' AI provider settings (`/api/admin/providers*`). */
  providerAdmin: ProviderAdministration;
  /** More operator routes (the local model's download), mounted after the provider settings' operator check. */
  adminRoutes?: Router[];
  /** Where a local Ollama is looked for (tests). */
  ollamaUrl?: string;
}

/** The chat service's HTTP app; it never listens by itself (see index.ts). */
export function createApp(deps: ChatAppDeps): Express {
  const providers = Router();
  // Which providers are configured, in order, and whether their circuit is open: for the status page and operators.
  providers.get('/api/chat/providers', requireIdentity(), (_req, res) => {
    res.json({ providers: deps.chain.describe() });
  });
  // Public: what the pricing page and the upgrade prompts may promise on this server now.
  const capabilities = Router();
  capabilities.get('/api/chat/capabilities', (_req, res) => {
    const aiConnected = deps.chain.list().length > 0;
    res.set('Cache-Control', 'public, max-age=30').json({
      aiConnected,
      images: deps.chain.seesImages(),
      documents: aiConnected ? 'ai' : 'quotes',
      tools: deps.chain.callsTools(),
      structuredOutput: deps.chain.givesStructuredOutput(),
    } satisfies ChatCapabilities);
  });
  return createServiceApp({
    ...deps,
    // The same limits as the gateway's routes (BODY_LIMITS in @kasa/contracts): a message is at most 16,000
    // characters, and 64 KB leaves room for the JSON around it; the OpenAI-compatible routes take a whole
    // conversation (OPENAI_REQUEST_LIMITS), up to 1 MB.
    bodyLimit: BODY_LIMITS.chat,
    bodyLimits: { '/v1': BODY_LIMITS.openAI },
    routes: [
      capabilities,
      createPersonaRouter(deps.personas),
      // Before the session router, whose identity check covers /api/chat: a shared conversation needs no account.
      createShareRouter(deps.shares),
      // Its upload reads the raw body (any type) up to BODY_LIMITS.attachments; the JSON parser skips non-JSON bodies.
      createAttachmentRouter(deps.attachments, deps.uploadSlots),
      // The message route comes first: its path also starts with /api/chat/sessions/:id.
      createMessageRouter(deps.messages, deps.sessions, { heartbeatMs: deps.heartbeatMs, logger: deps.logger }),
      createSessionRouter(deps.sessions),
      providers,
      createProviderAdminRouter({
        ...deps.providerAdmin,
        chain: deps.chain,
        ...(deps.ollamaUrl ? { ollamaUrl: deps.ollamaUrl } : {}),
      }),
      ...(deps.adminRoutes ?? []),
      createInternalProvidersRouter(deps.providerAdmin.settings),
      createOpenAIRouter(deps.completions, {
        heartbeatMs: deps.heartbeatMs,
        logger: deps.logger,
        slots: deps.replies.slots,
        embeddings: deps.embeddings,
      }),
      createResponsesRouter(deps.completions, {
        store: deps.responses,
        slots: deps.replies.slots,
        heartbeatMs: deps.heartbeatMs,
        logger: deps.logger,
      }),
    ],
  });
}
