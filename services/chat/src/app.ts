import { createServiceApp, type RuntimeAppDeps } from '@kasa/service-kit';
import { Router, type Express } from 'express';
import { requireIdentity } from './identity/identity';
import { createMessageRouter } from './messages/messageRouter';
import type { MessageService } from './messages/messageService';
import type { CompletionService } from './openai/completionService';
import { createOpenAIRouter } from './openai/openaiRouter';
import { createPersonaRouter } from './personas/personaRouter';
import type { PersonaStore } from './personas/personaStore';
import type { ProviderChain } from './providers/providerChain';
import { createSessionRouter } from './sessions/sessionRouter';
import type { SessionService } from './sessions/sessionService';

export interface ChatAppDeps extends RuntimeAppDeps {
  personas: PersonaStore;
  sessions: SessionService;
  messages: MessageService;
  chain: ProviderChain;
  completions: CompletionService;
  /** SSE heartbeat comment interval; 15 s in production. */
  heartbeatMs: number;
}

/** The chat service's HTTP app; it never listens by itself (see index.ts). */
export function createApp(deps: ChatAppDeps): Express {
  const providers = Router();
  // Which providers are configured, in order, and whether their circuit is open: for the status page and operators.
  providers.get('/api/chat/providers', requireIdentity(), (_req, res) => {
    res.json({ providers: deps.chain.describe() });
  });
  return createServiceApp({
    ...deps,
    // A message is at most 16,000 characters; 64 KB leaves room for the JSON around it.
    bodyLimit: '64kb',
    routes: [
      createPersonaRouter(deps.personas),
      // The message route comes first: its path also starts with /api/chat/sessions/:id.
      createMessageRouter(deps.messages, { heartbeatMs: deps.heartbeatMs, logger: deps.logger }),
      createSessionRouter(deps.sessions),
      providers,
      createOpenAIRouter(deps.completions, { heartbeatMs: deps.heartbeatMs, logger: deps.logger }),
    ],
  });
}
