// How the console shows the platform's health and usage: each state in words and with its own icon, the status
// service's names for Kasa's parts in words, and the months the usage can be asked for.
import type { Translate, MessageId } from '../i18n/useT';

export type DisplayState = 'operational' | 'degraded' | 'down' | 'unknown';

export function displayState(status: string | null | undefined): DisplayState {
  return status === 'operational' || status === 'degraded' || status === 'down' ? status : 'unknown';
}

export const STATE_LABELS: Readonly<Record<DisplayState, MessageId>> = {
  operational: 'health.state.operational',
  degraded: 'health.state.degraded',
  down: 'health.state.down',
  unknown: 'health.state.unknown',
};

/** Each state has a colour and an icon of its own, and its word beside them: never colour alone. */
export const STATE_COLOURS: Readonly<Record<DisplayState, string>> = {
  operational: 'var(--kasa-success)',
  degraded: 'var(--kasa-warning)',
  down: 'var(--kasa-danger)',
  unknown: 'var(--kasa-muted)',
};

const NAMES: Readonly<Record<string, MessageId>> = {
  gateway: 'health.service.gateway',
  auth: 'health.service.auth',
  chat: 'health.service.chat',
  voice: 'health.service.voice',
  status: 'health.service.status',
  'ai-providers': 'health.part.aiProviders',
  'ai:offline': 'health.part.aiOffline',
  transcription: 'health.part.transcription',
  translation: 'health.part.translation',
};

/**
 * A service or part in words: `chat` → Chat & personas, `ai:openai` → AI provider: openai, `speech:espeak-ng` →
 * Speech: espeak-ng; a name the console does not know stays as the status service says it.
 */
export function serviceName(t: Translate, name: string): string {
  const known = NAMES[name];
  if (known) return t(known);
  if (name.startsWith('ai:')) return t('health.part.aiProvider', { name: name.slice(3) });
  if (name.startsWith('speech:')) return t('health.part.speech', { name: name.slice(7) });
  return name;
}

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The UTC month of a time, `YYYY-MM`. */
export const monthOf = (at: Date): string => at.toISOString().slice(0, 7);

/** The `count` UTC months ending with the month of `now`, newest first. */
export function recentMonths(now: Date, count: number): string[] {
  return Array.from({ length: count }, (_, i) =>
    monthOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1))),
  );
}

/** The month the address asks for (`?month=2026-03`), if it is one and not in the future; else the current one. */
export function monthFromSearch(search: URLSearchParams, now: Date): string {
  const asked = search.get('month') ?? '';
  const current = monthOf(now);
  return MONTH.test(asked) && asked <= current ? asked : current;
}

/** An account id, which the People section opens; `team:<id>` and anything else is not one. */
export const isAccountId = (id: string): boolean => /^[0-9a-f]{24}$/i.test(id);
