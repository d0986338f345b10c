import type { ServiceStatus } from '@kasa/contracts';

/** One line of the sidebar's health list: what the person uses, not how Kasa is built. */
export interface HealthItem {
  id: 'voice' | 'video' | 'translation' | 'geo' | 'ai';
  label: string;
  /** A status service state: operational, degraded, down or unknown. */
  status: string;
}

const SEVERITY: Record<string, number> = { operational: 0, degraded: 1, unknown: 2, down: 3 };
const worst = (...states: string[]) =>
  states.reduce((a, b) => ((SEVERITY[b] ?? 2) > (SEVERITY[a] ?? 2) ? b : a), 'operational');

/**
 * The chat sidebar's list (spec section 2: Voice Service, Video Service, Translation, Maps & Geo, plus the AI
 * providers), from the status service's snapshot (GET /api/developer/services/status). Voice, video and maps run
 * in the voice service: each is as well as it is; voice is degraded too when no speech engine is available, and
 * translation follows its own part (degraded without an AI provider). The AI providers line is the snapshot's
 * `ai-providers` entry (degraded when none is configured); without it, unknown.
 */
export function healthItems(services: readonly ServiceStatus[]): HealthItem[] {
  const find = (name: string) => services.find((s) => s.name === name)?.status;
  const voiceService = find('voice') ?? 'unknown';
  const engines = services.filter((s) => s.name.startsWith('speech:'));
  const speech =
    engines.length === 0 ? voiceService : engines.some((e) => e.status === 'operational') ? 'operational' : 'degraded';
  const translation = find('translation') ?? 'unknown';
  const chat = find('chat') ?? 'unknown';
  const ai = find('ai-providers') ?? (chat === 'down' ? 'down' : 'unknown');
  return [
    { id: 'voice', label: 'Voice Service', status: worst(voiceService, speech) },
    { id: 'video', label: 'Video Service', status: voiceService },
    { id: 'translation', label: 'Translation', status: voiceService === 'down' ? 'down' : translation },
    { id: 'geo', label: 'Maps & Geo', status: voiceService },
    { id: 'ai', label: 'AI providers', status: chat === 'down' ? 'down' : ai },
  ];
}
