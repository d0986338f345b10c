import { allows } from '@kasa/contracts/src/plans';
import type { SubscriptionTier } from '@kasa/contracts';

// What the chat remembers about voice (browser local storage): whether replies are spoken, and how fast.

const VOICE_MODE_KEY = 'kasa_chat_voice_mode';
const SPEED_KEY = 'kasa_chat_voice_speed';

/** The playback speeds offered on every reply. */
export const PLAYBACK_SPEEDS: readonly number[] = [0.75, 1, 1.25, 1.5, 2];

/** Voice (speaking, listening, spoken replies): the plans table decides (Pro and Enterprise, spec section 6). */
export function planHasVoice(tier: SubscriptionTier | string | null | undefined): boolean {
  return allows(tier, 'voice');
}

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
}

export const loadVoiceMode = (): boolean => read(VOICE_MODE_KEY) === 'on';
export const saveVoiceMode = (on: boolean): void => write(VOICE_MODE_KEY, on ? 'on' : 'off');

/** The saved playback speed, or 1 when none (or something else) is saved. */
export function loadSpeed(): number {
  const saved = Number(read(SPEED_KEY));
  return PLAYBACK_SPEEDS.includes(saved) ? saved : 1;
}
export const saveSpeed = (speed: number): void => write(SPEED_KEY, String(speed));

/** The player module loads with the first reply that is played, not with the page. */
let player: Promise<typeof import('./replyPlayer')> | undefined;
export const loadReplyPlayer = () => (player ??= import(/* webpackChunkName: "voice" */ './replyPlayer'));
/** The player if it has been loaded (nothing to stop otherwise). */
export const loadedReplyPlayer = () => player;
