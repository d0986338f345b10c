import { ServiceUnavailableError, type Logger } from '@kasa/service-kit';
import { resamplePcm } from '../cloud/pcm';
import type { ProviderGuard } from '../providers/providerGuard';
import { SpeechEngineError, type PcmAudio, type SpeechProvider, type SpeechVoice } from './speechProvider';

export interface SpeechChainOptions {
  /** The longest the offline engine may take for one chunk. */
  timeoutMs: number;
  /** The longest a cloud engine may take for one chunk before the next engine is tried. */
  cloudTimeoutMs?: number;
  /** The sample rate every engine's audio is converted to (the encoder's). */
  sampleRate: number;
  /** Breakers for the cloud engines; without it they are only timed. */
  guard?: ProviderGuard;
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
  ): Promise<PcmAudio & { engine: string }> {
    const order = [
      ...this.providers.filter((p) => p.available && p.name === voice.engine),
      ...this.providers.filter((p) => p.available && p.name !== voice.engine),
    ];
    let failures = 0;
    for (const provider of order) {
      const engineVoice =
        provider.name === voice.engine ? voice : this.fallbackVoice(provider.voices(), language, voice.gender);
      if (!engineVoice) continue;
      try {
        const audio = await this.attempt(provider, { text, voice: engineVoice, language }, signal);
        return { ...resamplePcm(audio, this.options.sampleRate), engine: provider.name };
      } catch (err) {
        if (signal.aborted) throw err;
        failures++;
        this.options.logger.warn({ engine: provider.name, err: (err as Error).message }, 'speech engine failed');
      }
    }
    if (failures === 0) throw new SpeechEngineError('speech', 'no engine is available');
    throw new ServiceUnavailableError(
      'Speech synthesis failed: every engine with a voice for this language failed. Try again shortly.',
    );
  }

  private attempt(
    provider: SpeechProvider,
    request: { text: string; voice: SpeechVoice; language: string },
    signal: AbortSignal,
  ): Promise<PcmAudio> {
    const { guard, cloudTimeoutMs, timeoutMs } = this.options;
    if (provider.remote && guard) {
      return guard.run(provider.name, cloudTimeoutMs ?? timeoutMs, signal, (attempt) =>
        provider.synthesize({ ...request, signal: attempt }),
      );
    }
    const attempt = AbortSignal.any([
      signal,
      AbortSignal.timeout(provider.remote ? (cloudTimeoutMs ?? timeoutMs) : timeoutMs),
    ]);
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
