import { ServiceUnavailableError, type CallGuard, type Logger } from '@kasa/service-kit';
import { resamplePcm } from '../cloud/pcm';
import { ProcessPoolBusyError, ProcessTimeLimitError } from './processPool';
import { SpeechEngineError, type PcmAudio, type SpeechProvider, type SpeechVoice } from './speechProvider';

export interface SpeechChainOptions {
  /**
   * The longest a cloud engine may take for one chunk when `cloudTimeoutMs` is not given. (The offline engine bounds
   * each of its processes itself, through the process pool, without counting the wait for a place.)
   */
  timeoutMs: number;
  /** The longest a cloud engine may take for one chunk before the next engine is tried. */
  cloudTimeoutMs?: number;
  /** The sample rate every engine's audio is converted to (the encoder's). */
  sampleRate: number;
  /** Breakers for the cloud engines; without it they are only timed. */
  guard?: CallGuard;
  logger: Logger;
}

/**
 * The speech engines in routing order (cloud engines first, see cloudProviders; eSpeak NG last). A language is
 * spoken by the first engine with a voice for it; each chunk of text goes to the engine of the chosen voice, with a
 * timeout (and, for cloud engines, a circuit breaker), and if that engine fails, to the next available engine with a
 * voice for the same language (the listener hears another voice rather than nothing).
 */
export class SpeechChain {
  constructor(
    private readonly providers: SpeechProvider[],
    private readonly options: SpeechChainOptions,
  ) {}

  get available(): boolean {
    return this.providers.some((p) => p.available);
  }

  get sampleRate(): number {
    return this.options.sampleRate;
  }

  describe(): { name: string; available: boolean; version?: string; voices: number }[] {
    return this.providers.map((p) => ({
      name: p.name,
      available: p.available,
      ...(p.version ? { version: p.version } : {}),
      voices: p.voices().length,
    }));
  }

  /** Every voice of the available engines in routing order, optionally only those that speak `language`. */
  voices(language?: string): SpeechVoice[] {
    return this.providers
      .filter((p) => p.available)
      .flatMap((p) => p.voices())
      .filter((v) => !language || v.languages.includes(language));
  }

  canSpeak(language: string): boolean {
    return this.voices(language).length > 0;
  }

  /**
   * The voice to use: the one asked for (by id, among the language's voices), else the first engine's voice for the
   * language (its own voice for the language before a multilingual one).
   */
  pickVoice(language: string, voiceId?: string): SpeechVoice | undefined {
    const voices = this.voices(language);
    if (voiceId) return voices.find((v) => v.id === voiceId.toLowerCase());
    const engine = voices[0]?.engine;
    const ofEngine = voices.filter((v) => v.engine === engine);
    return ofEngine.find((v) => v.languages[0] === language) ?? ofEngine[0];
  }

  async synthesize(
    text: string,
    voice: SpeechVoice,
    signal: AbortSignal,
    language: string = voice.languages[0]!,
    options: { background?: boolean } = {},
  ): Promise<PcmAudio & { engine: string }> {
    const order = [
      ...this.providers.filter((p) => p.available && p.name === voice.engine),
      ...this.providers.filter((p) => p.available && p.name !== voice.engine),
    ];
    let failures = 0;
    let overTime: ProcessTimeLimitError | undefined;
    for (const provider of order) {
      const engineVoice =
        provider.name === voice.engine ? voice : this.fallbackVoice(provider.voices(), language, voice.gender);
      if (!engineVoice) continue;
      try {
        const audio = await this.attempt(provider, { text, voice: engineVoice, language, ...options }, signal);
        return { ...resamplePcm(audio, this.options.sampleRate), engine: provider.name };
      } catch (err) {
        // The server is busy, not the engine broken: the caller hears so (503 with Retry-After), in the same voice.
        if (signal.aborted || err instanceof ProcessPoolBusyError) throw err;
        failures++;
        if (err instanceof ProcessTimeLimitError) overTime = err;
        this.options.logger.warn({ engine: provider.name, err: (err as Error).message }, 'speech engine failed');
      }
    }
    if (failures === 0) throw new SpeechEngineError('speech', 'no engine is available');
    if (overTime && failures === 1) {
      throw new ServiceUnavailableError(
        `Speech synthesis took too long: the engine was stopped after ${Math.round(overTime.limitMs / 1000)} s on ` +
          'one part of the text. Please try again shortly.',
      );
    }
    throw new ServiceUnavailableError(
      'Speech synthesis failed: every engine with a voice for this language failed. Try again shortly.',
    );
  }

  private attempt(
    provider: SpeechProvider,
    request: { text: string; voice: SpeechVoice; language: string; background?: boolean },
    signal: AbortSignal,
  ): Promise<PcmAudio> {
    const { guard, cloudTimeoutMs, timeoutMs } = this.options;
    if (provider.remote && guard) {
      return guard.run(
        provider.name,
        { what: provider.name, timeoutMs: cloudTimeoutMs ?? timeoutMs, signal },
        ({ signal: attempt }) => provider.synthesize({ ...request, signal: attempt }),
      );
    }
    // A local engine times each of its processes itself (see EspeakProvider): the wait for a place in the process
    // pool is not held against it.
    if (!provider.remote) return provider.synthesize({ ...request, signal });
    const attempt = AbortSignal.any([signal, AbortSignal.timeout(cloudTimeoutMs ?? timeoutMs)]);
    return provider.synthesize({ ...request, signal: attempt });
  }

  /** Another engine's voice for the language: its own voice for it first, the same gender where it can. */
  private fallbackVoice(voices: SpeechVoice[], language: string, gender?: string): SpeechVoice | undefined {
    const speaking = voices.filter((v) => v.languages.includes(language));
    const native = speaking.filter((v) => v.languages[0] === language);
    const pool = native.length ? native : speaking;
    return pool.find((v) => v.gender === gender) ?? pool[0];
  }
}
