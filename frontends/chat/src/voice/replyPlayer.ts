import { LiveSpeech, liveSpeechSupported, READ_ALOUD_MARKS, UnsupportedAudioFormat } from './liveSpeech';
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

/** A reply being read aloud while it is written: give it the text as it grows, then the whole reply. */
export interface LiveReply {
  update(text: string): void;
  finish(text: string): void;
  /** The reply was stopped or failed: stop reading it. */
  cancel(): void;
}

/**
 * The one audio player of the chat: a reply's audio is asked for when it is first played (or spoken in voice mode)
 * and kept per message, so playing it again costs nothing. A reply is read sentence by sentence as the audio is made
 * (see LiveSpeech), in voice mode even while it is still being written. Playing another reply stops the one playing.
 * Components follow it with `useSyncExternalStore(subscribe, getSnapshot)`.
 */
export class ReplyPlayer {
  private element: HTMLAudioElement | null = null;
  private readonly audioUrls = new Map<string, Promise<string>>();
  private readonly listeners = new Set<() => void>();
  private snapshot: PlayerSnapshot = { activeId: null, state: 'idle', message: null, speed: loadSpeed() };
  /** Bumped on every play request, so that audio arriving for an older request never starts. */
  private request = 0;
  /** The reply being read as its audio is made, if any. */
  private live: { id: string; speech: LiveSpeech } | null = null;
  /** The service does not stream MP3 (or the browser cannot append it): replies are read once complete. */
  private liveUnavailable = !liveSpeechSupported();
  private firstAudioPending = false;

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
    audio.addEventListener('playing', () => {
      if (this.firstAudioPending) {
        this.firstAudioPending = false;
        performance.mark(READ_ALOUD_MARKS.firstAudio);
      }
      if (mine()) this.set({ state: 'playing', message: null });
    });
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
    const same = this.snapshot.activeId === reply.id && audio.getAttribute('src');
    if (same && this.snapshot.state !== 'error') {
      // Paused or ended: the same audio goes on (a reply read as it was made keeps its source until replaced).
      const request = ++this.request;
      if (audio.ended) audio.currentTime = 0;
      await this.start(audio, request);
      return;
    }
    if (!this.audioUrls.has(reply.id) && !this.liveUnavailable) {
      this.speakLive(reply.id, reply.language)?.finish(reply.text);
      return;
    }
    const request = ++this.request;
    this.endLive();
    if (!same) {
      audio.pause();
      audio.removeAttribute('src');
      this.set({ activeId: reply.id, state: 'loading', message: null });
    } else {
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
    await this.start(audio, request);
  }

  /**
   * Reads a reply aloud while it is written (voice mode): each sentence is spoken as soon as it is complete. Null
   * when this browser or server cannot stream the audio; the reply is then played once complete.
   */
  speakLive(id: string, language: string): LiveReply | null {
    if (this.liveUnavailable) return null;
    const audio = this.audio();
    const request = ++this.request;
    this.endLive();
    audio.pause();
    const speech = new LiveSpeech(language);
    const live = { id, speech };
    this.live = live;
    this.audioUrls.set(id, Promise.resolve(speech.url));
    let finalText: string | undefined;
    speech.done.then(
      () => {
        // A stored copy plays the reply again once the stream's source has been let go.
        if (speech.complete && this.audioUrls.has(id)) {
          this.audioUrls.set(id, Promise.resolve(URL.createObjectURL(speech.recording())));
        }
      },
      (error: unknown) => {
        if (this.live !== live) return;
        this.audioUrls.delete(id);
        this.live = null;
        if (error instanceof UnsupportedAudioFormat) {
          // This server's audio cannot be appended: from now on replies are read once complete.
          this.liveUnavailable = true;
          if (finalText !== undefined) void this.play({ id, text: finalText, language });
          else this.set({ state: 'loading', message: null });
          return;
        }
        this.set({
          state: error instanceof VoiceError && error.kind === 'upgrade' ? 'upgrade' : 'error',
          message: error instanceof Error ? error.message : 'The reply could not be read aloud. Try again.',
        });
      },
    );
    audio.src = speech.url;
    this.set({ activeId: id, state: 'loading', message: null });
    this.firstAudioPending = true;
    void this.start(audio, request);
    return {
      update: (text) => speech.update(text),
      finish: (text) => {
        finalText = text;
        if (this.live === live) speech.finish(text);
        else if (this.liveUnavailable && this.snapshot.activeId === id) void this.play({ id, text, language });
      },
      cancel: () => {
        if (this.live === live) this.stop();
      },
    };
  }

  /** Lets go of the reply read as it was made (its stored copy, once complete, stays for replay). */
  private endLive(): void {
    const live = this.live;
    if (!live) return;
    this.live = null;
    live.speech.cancel();
    this.firstAudioPending = false;
    void this.audioUrls.get(live.id)?.then((url) => {
      if (url === live.speech.url) this.audioUrls.delete(live.id);
    });
    URL.revokeObjectURL(live.speech.url);
  }

  /** Starts the element at the chosen speed; says so when the browser holds the sound back. */
  private async start(audio: HTMLAudioElement, request: number): Promise<void> {
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
    this.endLive();
    if (this.element) {
      this.element.pause();
      this.element.removeAttribute('src');
    }
    this.set({ activeId: null, state: 'idle', message: null });
  }
}

export const replyPlayer = new ReplyPlayer();
