import type { ProviderSettings } from '@kasa/ai-providers';
import type { AiProviderDiscovery, AiProviderTestResult } from '@kasa/contracts';
import type { ChatProvider } from '../chatProvider';

/** How long a connection test may take in all. */
export const TEST_TIMEOUT_MS = 15_000;
const TEST_PROMPT = 'Reply with the single word OK.';

/** A provider's error as operators may read it: never the key, one line, not too long. */
function describeError(err: unknown, apiKey: string | undefined): string {
  let message = err instanceof Error ? err.message : String(err);
  if (err instanceof Error && err.name === 'TimeoutError') message = `no answer within ${TEST_TIMEOUT_MS / 1000} s`;
  if (apiKey) message = message.split(apiKey).join('…');
  message = message.replace(/\s+/g, ' ').trim();
  return message.length > 500 ? `${message.slice(0, 497)}...` : message || 'the provider gave no reason';
}

/**
 * One short request to a provider ("Reply with the single word OK."), outside the chain: no breaker, no failover,
 * nothing stored. What the console's "Test connection" shows, before or after saving.
 */
export async function testProvider(
  settings: ProviderSettings,
  build: (settings: ProviderSettings) => ChatProvider,
): Promise<AiProviderTestResult> {
  const started = performance.now();
  const model = settings.model;
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const provider = build(settings);
    let sample = '';
    for await (const chunk of provider.stream({
      personaId: 'kasa',
      model,
      system: 'You are a connection test. Answer as briefly as you can.',
      messages: [{ role: 'user', content: TEST_PROMPT }],
      settings: { maxOutputTokens: 16 },
      signal: AbortSignal.timeout(TEST_TIMEOUT_MS),
    })) {
      if (chunk.type === 'text') sample += chunk.text;
      if (sample.length >= 200) break;
    }
    if (!sample.trim())
      return { ok: false, model, latencyMs: elapsed(), error: 'the provider returned an empty reply' };
    return { ok: true, model, latencyMs: elapsed(), sample: sample.trim().slice(0, 200) };
  } catch (err) {
    return { ok: false, model, latencyMs: elapsed(), error: describeError(err, settings.apiKey) };
  }
}

/** Where Ollama listens on this machine by default. */
export const OLLAMA_URL = 'http://127.0.0.1:11434';

/** Whether a local Ollama answers on its default port, and which models it has (1 s at most). */
export async function discoverOllama(baseURL = OLLAMA_URL): Promise<AiProviderDiscovery['ollama']> {
  const apiURL = `${baseURL}/api`;
  try {
    const res = await fetch(`${apiURL}/tags`, { signal: AbortSignal.timeout(1_000) });
    if (!res.ok) return { found: false, baseURL: apiURL, models: [] };
    const body = (await res.json()) as { models?: { name?: unknown }[] };
    const models = (body.models ?? []).flatMap((m) => (typeof m.name === 'string' ? [m.name.slice(0, 200)] : []));
    return { found: true, baseURL: apiURL, models: models.slice(0, 100) };
  } catch {
    return { found: false, baseURL: apiURL, models: [] };
  }
}
