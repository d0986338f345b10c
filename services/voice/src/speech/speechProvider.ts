/** A voice one engine offers. `id` is what clients send; `engineVoice` is what the engine itself is given. */
export interface SpeechVoice {
  id: string;
  name: string;
  /** Catalogue codes of the languages the voice reads, its own first. */
  languages: string[];
  locale: string;
  gender?: 'male' | 'female';
  engine: string;
  engineVoice: string;
}

/** Raw audio: signed 16-bit little-endian PCM, mono. */
export interface PcmAudio {
  pcm: Buffer;
  sampleRate: number;
}

export interface SpeechRequest {
  text: string;
  voice: SpeechVoice;
  /** The text's language (a catalogue code): a multilingual voice reads many, the engine may need to be told. */
  language: string;
  signal: AbortSignal;
  /**
   * Not what a listener is waiting for this moment (a long text's later chunks, a video's speech): a local engine
   * runs it at a lower CPU priority, so that everyone's first audio goes first when the cores are busy.
   */
  background?: boolean;
}

/**
 * One text-to-speech engine. The offline engine (eSpeak NG) is the default and always last; cloud engines (see
 * src/cloud) come first in the chain (see SpeechChain), which falls back to the next engine that has a voice for the
 * language.
 */
export interface SpeechProvider {
  readonly name: string;
  /** Whether the engine can be used (its program was found, its credentials are set...). */
  readonly available: boolean;
  readonly version?: string;
  /** The sample rate of the PCM this engine returns (the chain converts it to the encoder's). */
  readonly sampleRate: number;
  /**
   * A cloud engine: its calls are bounded by its own timeout and guarded by a circuit breaker. A local engine (not
   * remote) must bound its own time per chunk (EspeakProvider: a time limit per process in the process pool).
   */
  readonly remote?: boolean;
  voices(): SpeechVoice[];
  /** Synthesizes one chunk of text; rejects when the signal aborts (timeout, client gone) or the engine fails. */
  synthesize(request: SpeechRequest): Promise<PcmAudio>;
}

export class SpeechEngineError extends Error {
  constructor(
    readonly engine: string,
    message: string,
  ) {
    super(`${engine}: ${message}`);
    this.name = 'SpeechEngineError';
  }
}
