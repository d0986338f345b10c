import { speakableText } from './speakableText';
import { SpokenQueue } from './spokenQueue';
import { synthesizeStream } from './voiceApi';
import { VoiceError } from './voiceFailures';

/** The format appended to the MediaSource: what the voice service streams by default. */
const AUDIO_TYPE = 'audio/mpeg';
/**
 * Characters per request after the first sentence: big enough that a long reply takes few requests, small enough
 * that each starts quickly. The service reads at most 5,000 characters per request.
 */
const PIECE_LIMIT = 600;

/** Performance marks of the first sentence being complete and of its first audio playing (read by the tests). */
export const READ_ALOUD_MARKS = {
  firstSentence: 'kasa:read-aloud:first-sentence',
  firstAudio: 'kasa:read-aloud:first-audio',
} as const;

/** The browser can play MP3 appended piece by piece (MediaSource); without it a reply is read once it is complete. */
export function liveSpeechSupported(): boolean {
  return typeof MediaSource !== 'undefined' && MediaSource.isTypeSupported(AUDIO_TYPE);
}

/** The service answered in another format than MP3 (the WAV it falls back to without an encoder). */
export class UnsupportedAudioFormat extends Error {}

/**
 * A reply read aloud as it is written: each complete sentence is synthesized as soon as it is there, in order, and
 * its MP3 appended to one MediaSource as it streams in. The <audio> element plays that one source, so the sentences
 * follow each other without gaps and pause, speed and position apply to the whole reply. The audio is also kept, so
 * that once complete the reply plays again from a stored copy (`recording()`) without synthesizing it again.
 */
export class LiveSpeech {
  /** The address to give the <audio> element. */
  readonly url: string;
  readonly done: Promise<void>;
  private readonly source = new MediaSource();
  private readonly queue = new SpokenQueue();
  private readonly abort = new AbortController();
  private readonly chunks: Uint8Array[] = [];
  /** Wakes the loop when text arrives or the reply is complete. */
  private wake: () => void = () => {};
  private firstPieceMarked = false;
  /** The whole reply was read into the source (not cancelled, nothing failed). */
  complete = false;

  constructor(private readonly language: string) {
    this.url = URL.createObjectURL(this.source);
    this.done = this.run();
    // The caller follows `done`; an unobserved rejection here must not reach the console as unhandled.
    this.done.catch(() => undefined);
  }

  /** The reply so far (each call replaces the last). */
  update(text: string): void {
    this.queue.update(text);
    this.wake();
  }

  /** The reply is complete: what is left is read, then the audio ends. */
  finish(text?: string): void {
    this.queue.finish(text);
    this.wake();
  }

  /** Stops synthesizing; what was already appended stays playable until the element lets it go. */
  cancel(): void {
    this.abort.abort();
    this.wake();
  }

  /** The whole reply's audio, once `done` has resolved and `complete` is true. */
  recording(): Blob {
    return new Blob(this.chunks as BlobPart[], { type: AUDIO_TYPE });
  }

  private async run(): Promise<void> {
    const signal = this.abort.signal;
    await new Promise<void>((resolve) => {
      this.source.addEventListener('sourceopen', () => resolve(), { once: true });
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
    if (signal.aborted) return;
    const buffer = this.source.addSourceBuffer(AUDIO_TYPE);
    // Each piece's audio goes after the last, whatever timestamps it carries.
    buffer.mode = 'sequence';
    try {
      for (;;) {
        const piece = await this.nextPiece(signal);
        if (piece === null) break;
        const response = await synthesizeStream(piece, this.language, signal);
        const type = response.headers.get('Content-Type') ?? '';
        if (!type.startsWith(AUDIO_TYPE)) {
          void response.body?.cancel();
          throw new UnsupportedAudioFormat(`The voice service answered ${type || 'without a type'}.`);
        }
        if (!response.body) throw new VoiceError('The audio could not be read. Press Play to try again.');
        const reader = response.body.getReader();
        for (let read = await reader.read(); !read.done; read = await reader.read()) {
          if (signal.aborted) {
            void reader.cancel();
            break;
          }
          this.chunks.push(read.value);
          await appendTo(buffer, read.value);
        }
      }
      if (!signal.aborted && this.source.readyState === 'open') {
        await settled(buffer);
        this.source.endOfStream();
        this.complete = true;
      }
    } catch (error) {
      if (this.source.readyState === 'open') {
        await settled(buffer).catch(() => undefined);
        // What was appended still plays to its end; the caller says what went wrong.
        if (this.source.readyState === 'open') this.source.endOfStream();
      }
      if (!signal.aborted) throw error;
    }
  }

  /** The next words to synthesize as spoken text; null once the reply is finished and read, or cancelled. */
  private async nextPiece(signal: AbortSignal): Promise<string | null> {
    for (;;) {
      if (signal.aborted) return null;
      const first = !this.firstPieceMarked;
      const raw = this.queue.take({ limit: PIECE_LIMIT, firstOnly: first });
      const spoken = raw ? speakableText(raw) : '';
      if (spoken) {
        if (first) {
          this.firstPieceMarked = true;
          performance.mark(READ_ALOUD_MARKS.firstSentence);
        }
        return spoken;
      }
      if (raw) continue; // only code or markup: nothing to say, look further
      if (this.queue.done) return null;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}

/** Resolves once the buffer is not busy with an earlier append. */
function settled(buffer: SourceBuffer): Promise<void> {
  if (!buffer.updating) return Promise.resolve();
  return new Promise((resolve, reject) => {
    buffer.addEventListener('updateend', () => resolve(), { once: true });
    buffer.addEventListener('error', () => reject(new VoiceError('The audio could not be played.')), { once: true });
  });
}

async function appendTo(buffer: SourceBuffer, bytes: Uint8Array): Promise<void> {
  await settled(buffer);
  buffer.appendBuffer(bytes as BufferSource);
  await settled(buffer);
}
