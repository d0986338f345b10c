// How the portal shows the state of Kasa's services (spec section 4: operational, degraded, down; anything else
// is unknown), and the header badge that follows the platform's overall state.

export type DisplayState = 'operational' | 'degraded' | 'down' | 'unknown';

export function displayState(status: string | null | undefined): DisplayState {
  return status === 'operational' || status === 'degraded' || status === 'down' ? status : 'unknown';
}

export const STATE_LABELS: Record<DisplayState, string> = {
  operational: 'Operational',
  degraded: 'Degraded',
  down: 'Down',
  unknown: 'Unknown',
};

/** Each state has a shape as well as a colour, so it never rests on colour alone. */
export const STATE_MARKS: Record<DisplayState, string> = {
  operational: '●',
  degraded: '▲',
  down: '■',
  unknown: '?',
};

export const STATE_COLOURS: Record<DisplayState, string> = {
  operational: 'var(--kasa-success)',
  degraded: 'var(--kasa-warning)',
  down: 'var(--kasa-danger)',
  unknown: 'var(--kasa-muted)',
};

/**
 * The header badge: 'All Systems Operational' only when the status service says so; a degraded platform reads
 * 'Degraded performance', a platform that is down 'Service disruption'; no answer (yet) says that.
 */
export function overallBadge(status: string | null | undefined, failed = false): { text: string; state: DisplayState } {
  if (failed) return { text: 'Status unavailable', state: 'unknown' };
  if (status === undefined) return { text: 'Checking status…', state: 'unknown' };
  const state = displayState(status);
  const text: Record<DisplayState, string> = {
    operational: 'All Systems Operational',
    degraded: 'Degraded performance',
    down: 'Service disruption',
    unknown: 'Status unknown',
  };
  return { text: text[state], state };
}

/** The status service's names for the parts of Kasa, in words. */
const SERVICE_NAMES: Record<string, string> = {
  auth: 'Accounts & keys',
  chat: 'Chat & personas',
  voice: 'Voice & languages',
  status: 'Status & analytics',
  gateway: 'API gateway',
  'ai-providers': 'AI providers',
  'ai:offline': 'Offline knowledge base',
  transcription: 'Speech to text',
  translation: 'Translation',
};

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** `ai-providers` → AI providers, `ai:openai` → AI provider: openai, `speech:espeak-ng` → Speech: espeak-ng. */
export function serviceName(name: string): string {
  const known = SERVICE_NAMES[name];
  if (known) return known;
  if (name.startsWith('ai:')) return `AI provider: ${name.slice(3)}`;
  if (name.startsWith('speech:')) return `Speech: ${name.slice(7)}`;
  return capitalised(name);
}

/** `99.95 %` with at most two decimals, `–` when not a number. */
export function formatPercent(value: number | null | undefined): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '–';
  return `${Number(value.toFixed(2))}%`;
}

/** A response time in ms, as people read it: `820 ms`, `1.2 s`. */
export function formatDuration(ms: number | null | undefined): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return '–';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Number((ms / 1000).toFixed(1))} s`;
}

/** 1234567 → `1,234,567`. */
export const formatCount = (value: number | null | undefined): string =>
  typeof value === 'number' && Number.isFinite(value) ? value.toLocaleString('en-US') : '–';

/** An ISO time as a short local date and time, or `never`. */
export function formatTime(iso: string | null | undefined, never = 'never'): string {
  if (!iso) return never;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}
