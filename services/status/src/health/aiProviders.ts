import type { ServiceStatus } from '@kasa/contracts';

/** The entry's name in the status snapshot. */
export const AI_PROVIDERS_ENTRY = 'ai-providers';
/** What the entry's provider field says when chat has no AI provider but its offline knowledge base. */
export const NO_AI_PROVIDER = 'no AI provider configured: answering from the offline knowledge base';

const OFFLINE = 'ai:offline';

/**
 * One line for chat's AI providers, from the `ai:<name>` parts of chat's heartbeat: operational while a configured
 * provider's circuit is closed; degraded when none is configured (chat answers only from its offline knowledge
 * base, which operators need to know), or when every configured one is failing (offline still answers); unknown
 * while chat reports nothing. Undefined when chat has never reported its providers.
 */
export function aiProvidersSummary(parts: readonly ServiceStatus[]): ServiceStatus | undefined {
  const providers = parts.filter((p) => p.name.startsWith('ai:'));
  if (providers.length === 0) return undefined;
  const configured = providers.filter((p) => p.name !== OFFLINE);
  const base = providers[0]!;
  const entry = (status: string, provider: string): ServiceStatus => ({
    name: AI_PROVIDERS_ENTRY,
    status,
    provider,
    uptime: base.uptime,
    lastResponse: base.lastResponse,
    requests: 0,
    errors: 0,
  });
  if (providers.every((p) => p.status === 'unknown'))
    return entry('unknown', configured.map((p) => p.provider).join(', ') || NO_AI_PROVIDER);
  if (configured.length === 0) return entry('degraded', NO_AI_PROVIDER);
  const names = configured.map((p) => p.provider).join(', ');
  if (configured.some((p) => p.status === 'operational')) return entry('operational', names);
  return entry('degraded', names);
}
