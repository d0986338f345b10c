// How the portal shows the state of Kasa's services (spec section 4: operational, degraded, down; anything else
// is unknown), and the header badge that follows the platform's overall state.
import type { PanelsMessageId, PanelsTranslate } from '../i18n/panels/usePanelsT';
import type { MessageId } from '../i18n/useT';

export type DisplayState = 'operational' | 'degraded' | 'down' | 'unknown';

export function displayState(status: string | null | undefined): DisplayState {
  return status === 'operational' || status === 'degraded' || status === 'down' ? status : 'unknown';
}

/** Each state's word (`Operational`...), by message id. */
export const STATE_LABELS: Record<DisplayState, PanelsMessageId> = {
  operational: 'state.operational',
  degraded: 'state.degraded',
  down: 'state.down',
  unknown: 'state.unknown',
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

const BADGES: Record<DisplayState, MessageId> = {
  operational: 'badge.operational',
  degraded: 'badge.degraded',
  down: 'badge.down',
  unknown: 'badge.unknown',
};

/**
 * The header badge (its message id and state): 'All Systems Operational' only when the status service says so; a
 * degraded platform reads 'Degraded performance', a platform that is down 'Service disruption'; no answer (yet)
 * says that.
 */
export function overallBadge(
  status: string | null | undefined,
  failed = false,
): { id: MessageId; state: DisplayState } {
  if (failed) return { id: 'badge.unavailable', state: 'unknown' };
  if (status === undefined) return { id: 'badge.checking', state: 'unknown' };
  const state = displayState(status);
  return { id: BADGES[state], state };
}

/** The status service's names for the parts of Kasa, in words (by message id). */
const SERVICE_NAMES: Record<string, PanelsMessageId> = {
  auth: 'service.auth',
  chat: 'service.chat',
  voice: 'service.voice',
  status: 'service.status',
  gateway: 'service.gateway',
  'ai-providers': 'service.aiProviders',
  'ai:offline': 'service.aiOffline',
  transcription: 'service.transcription',
  translation: 'service.translation',
};

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * `ai-providers` → AI providers, `ai:openai` → AI provider: openai, `speech:espeak-ng` → Speech: espeak-ng; a part
 * the portal does not know keeps the status service's name.
 */
export function serviceName(t: PanelsTranslate, name: string): string {
  const known = SERVICE_NAMES[name];
  if (known) return t(known);
  if (name.startsWith('ai:')) return t('service.aiProvider', { name: name.slice(3) });
  if (name.startsWith('speech:')) return t('service.speech', { name: name.slice(7) });
  return capitalised(name);
}
