import type { ServiceState } from '@kasa/contracts';
import { z } from 'zod';

/** A part of a service on the status page; `unknown` when it cannot be told. */
export interface ComponentState {
  name: string;
  provider: string;
  state: ServiceState | 'unknown';
}

// Read leniently: the voice service's status grows over time, and a field it lacks is "unknown", never an error.
const Engine = z.object({ name: z.string().min(1).max(64), available: z.boolean().optional() }).loose();
const Part = z
  .object({
    status: z.string().max(32).optional(),
    available: z.boolean().optional(),
    provider: z.string().min(1).max(64).optional(),
    providers: z
      .array(z.object({ name: z.string().min(1).max(64) }).loose())
      .max(50)
      .optional(),
  })
  .loose();
const VoiceStatusBody = z
  .object({
    engines: z.array(z.unknown()).max(50).optional(),
    transcription: z.unknown().optional(),
    translation: z.unknown().optional(),
  })
  .loose();

const STATE_WORDS: Record<string, ServiceState> = {
  ok: 'operational',
  operational: 'operational',
  healthy: 'operational',
  available: 'operational',
  degraded: 'degraded',
  'degraded-offline': 'degraded',
  down: 'down',
  unavailable: 'down',
  error: 'down',
};

/** A part reported as `{status, providers}` (translation, transcription); unknown where a field is missing. */
function partState(name: string, value: unknown): ComponentState {
  const parsed = Part.safeParse(value);
  if (value === undefined || !parsed.success) return { name, provider: 'unknown', state: 'unknown' };
  const part = parsed.data;
  const fromWord = part.status ? STATE_WORDS[part.status.toLowerCase()] : undefined;
  const fromFlag = part.available === undefined ? undefined : part.available ? 'operational' : 'down';
  return {
    name,
    provider: part.provider ?? part.providers?.[0]?.name ?? (part.providers ? 'offline' : 'unknown'),
    state: fromWord ?? fromFlag ?? 'unknown',
  };
}

/**
 * The speech engines (`speech:<engine>`), `transcription` and `translation` from the body of voice's
 * GET /api/voice/status: an engine is operational when `available`, down when not; transcription and translation by
 * their `status` word (`operational`, `degraded-offline` → degraded, `unavailable` → down) or `available` flag, the
 * provider being the first of their `providers` (none configured: `offline`). Missing or unreadable fields are
 * `unknown`.
 */
export function voiceComponents(body: unknown): ComponentState[] {
  const parsed = VoiceStatusBody.safeParse(body);
  if (!parsed.success) return [partState('transcription', undefined), partState('translation', undefined)];
  const engines: ComponentState[] = [];
  for (const entry of parsed.data.engines ?? []) {
    const engine = Engine.safeParse(entry);
    if (!engine.success) continue;
    const { name, available } = engine.data;
    engines.push({
      name: `speech:${name}`,
      provider: name,
      state: available === undefined ? 'unknown' : available ? 'operational' : 'down',
    });
  }
  return [
    ...engines,
    partState('transcription', parsed.data.transcription),
    partState('translation', parsed.data.translation),
  ];
}

/** Asks voice's GET /api/voice/status; undefined when it does not answer in time or not with JSON. */
export async function fetchVoiceStatus(voiceUrl: string, timeoutMs: number): Promise<unknown> {
  try {
    const res = await fetch(new URL('/api/voice/status', voiceUrl), { signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) return undefined;
    return await res.json();
  } catch {
    return undefined;
  }
}
