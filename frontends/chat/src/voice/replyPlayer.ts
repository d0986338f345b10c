import { speakableText } from './speakableText';
import { synthesize } from './voiceApi';
import { loadSpeed, saveSpeed } from './voicePreferences';
import { VoiceError } from './voiceFailures';

/** Where a reply's audio is: not asked for, being made or buffered, playing, paused, failed, or not in the plan. */
export type PlaybackState = 'idle' | 'loading' | 'playing' | 'paused' | 'error' | 'upgrade';

export interface PlayerSnapshot {
  /** The reply whose audio is loaded in the player (null before the first). */
  activeId: string | null;
  state: PlaybackState;
  /** What went wrong, or a hint (autoplay blocked), for the active reply. */
  message: string | null;
  speed: number;
}

export interface ReplyToPlay {
  id: string;
  text: string;
  language: string;
}

/**
 * The one audio player of the chat: a reply's audio is asked for when it is first played (or spoken in voice mode)
 * and kept per message, so playing it again costs nothing. Playing another reply stops the one playing. Components
 * follow it with `useSyncExternalStore(subscribe, getSnapshot)`.
 */
export class ReplyPlayer {
  private element: HTMLAudioElement | null = null;
  private readonly audioUrls = new Map<string, Promise<string>>();
  private readonly listeners = new Set<() => void>();
  private snapshot: PlayerSnapshot = { activeId: null, state: 'idle', message: null, speed: loadSpeed() };
  /** Bumped on every play request, so that audio arriving for an older request never starts. */
  private request = 0;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): PlayerSnapshot => this.snapshot;

  private set(patch: Partial<PlayerSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    for (const listener of this.listeners) listener();
  }

  /** The page's <audio> element, made on first use; hidden, since each reply shows its own controls. */
  private audio(): HTMLAudioElement {
    if (this.element) return this.element;
    const audio = document.createElement('audio');
    audio.preload = 'auto';
    audio.hidden = true;
    audio.dataset.testid = 'reply-audio';
    const mine = () => this.snapshot.activeId !== null;
    audio.addEventListener('playing', () => mine() && this.set({ state: 'playing', message: null }));
    audio.addEventListener('waiting', () => mine() && this.set({ state: 'loading' }));
    audio.addEventListener('pause', () => {
      if (mine() && this.snapshot.state !== 'loading' && !audio.ended) this.set({ state: 'paused' });
    });
    audio.addEventListener('ended', () => mine() && this.set({ state: 'idle', message: null }));
    audio.addEventListener('error', () => {
      if (!mine() || !audio.getAttribute('src')) return;
      const id = this.snapshot.activeId;
      if (id) this.audioUrls.delete(id); // an expired address: the next Play asks for new audio
      this.set({ state: 'error', message: 'The audio could not be played. Press Play to try again.' });
    });
    document.body.append(audio);
    this.element = audio;
    return audio;
  }

  private audioUrl(reply: ReplyToPlay): Promise<string> {
    let url = this.audioUrls.get(reply.id);
    if (!url) {
      const text = speakableText(reply.text);
      url = text
        ? synthesize(text, reply.language).then((result) => result.audioUrl)
        : Promise.reject(new VoiceError('This reply has no words to read aloud.'));
      url.catch(() => this.audioUrls.delete(reply.id));
      this.audioUrls.set(reply.id, url);
    }
    return url;
  }

  /** Plays a reply from where it was (from the start when it is another one or had ended). */
  async play(reply: ReplyToPlay): Promise<void> {
    const audio = this.audio();
    const request = ++this.request;
    const same = this.snapshot.activeId === reply.id && audio.getAttribute('src');
    if (!same) {
      audio.pause();
      audio.removeAttribute('src');
      this.set({ activeId: reply.id, state: 'loading', message: null });
    } else if (this.snapshot.state === 'error') {
      this.set({ state: 'loading', message: null });
    }
    let url: string;
    try {
      url = await this.audioUrl(reply);
    } catch (error) {
      if (request !== this.request) return;
      const upgrade = error instanceof VoiceError && error.kind === 'upgrade';
      this.set({
        state: upgrade ? 'upgrade' : 'error',
        message: error instanceof Error ? error.message : 'The reply could not be read aloud. Try again.',
      });
      return;
    }
    if (request !== this.request) return;
    if (audio.getAttribute('src') !== url) audio.src = url;
    if (audio.ended) audio.currentTime = 0;
    audio.defaultPlaybackRate = this.snapshot.speed;
    audio.playbackRate = this.snapshot.speed;
    try {
      await audio.play();
    } catch (error) {
      if (request !== this.request) return;
      // Browsers block sound until the person has interacted with the page.
      const blocked = error instanceof DOMException && error.name === 'NotAllowedError';
      this.set({
        state: blocked ? 'paused' : 'error',
        message: blocked
          ? 'The browser held the sound back. Press Play to listen.'
          : 'The audio could not be played. Press Play to try again.',
      });
    }
  }

  pause(): void {
    this.request++;
    this.element?.pause();
    if (this.snapshot.state === 'loading') this.set({ state: 'paused' });
  }

  /** Play/pause for one reply's button. */
  toggle(reply: ReplyToPlay): void {
    const { activeId, state } = this.snapshot;
    if (activeId === reply.id && (state === 'playing' || state === 'loading')) this.pause();
    else void this.play(reply);
  }

  setSpeed(speed: number): void {
    saveSpeed(speed);
    if (this.element) {
      this.element.playbackRate = speed;
      this.element.defaultPlaybackRate = speed;
    }
    this.set({ speed });
  }

  /** Leaving the chat: silence, and forget which reply was playing. */
  stop(): void {
    this.request++;
    if (this.element) {
      this.element.pause();
      this.element.removeAttribute('src');
    }
    this.set({ activeId: null, state: 'idle', message: null });
  }
}

export const replyPlayer = new ReplyPlayer();
