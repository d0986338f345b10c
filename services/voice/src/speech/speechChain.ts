import type { Logger } from '@kasa/service-kit';
import { SpeechEngineError, type PcmAudio, type SpeechProvider, type SpeechVoice } from './speechProvider';

/**
 * The speech engines in order of preference. A voice is looked up across all of them; each chunk of text goes to
 * the engine of the chosen voice, with a timeout, and if that engine fails, to the next available engine with a
 * voice for the same language (the listener hears another voice rather than nothing).
 */
export class SpeechChain {
  constructor(
    private readonly providers: SpeechProvider[],
    private readonly options: { timeoutMs: number; logger: Logger },
  ) {}

  get available(): boolean {
    return this.providers.some((p) => p.available);
  }

  describe(): { name: string; available: boolean; version?: string; voices: number }[] {
    return this.providers.map((p) => ({
      name: p.name,
      available: p.available,
      ...(p.version ? { version: p.version } : {}),
      voices: p.voices().length,
    }));
  }

  /** Every voice of the available engines, optionally only those that speak `language` (a catalogue code). */
  voices(language?: string): SpeechVoice[] {
    return this.providers
      .filter((p) => p.available)
      .flatMap((p) => p.voices())
      .filter((v) => !language || v.languages.includes(language));
  }

  canSpeak(language: string): boolean {
    return this.voices(language).length > 0;
  }

  /** The voice to use: the one asked for (by id, among the language's voices), else the language's first voice. */
  pickVoice(language: string, voiceId?: string): SpeechVoice | undefined {
    const voices = this.voices(language);
    if (!voiceId) return voices.find((v) => v.languages[0] === language) ?? voices[0];
    return voices.find((v) => v.id === voiceId.toLowerCase());
  }

  async synthesize(text: string, voice: SpeechVoice, signal: AbortSignal): Promise<PcmAudio & { engine: string }> {
    const order = [
      ...this.providers.filter((p) => p.available && p.name === voice.engine),
      ...this.providers.filter((p) => p.available && p.name !== voice.engine),
    ];
    let lastError: unknown = new SpeechEngineError('speech', 'no engine is available');
    for (const provider of order) {
      const engineVoice =
        provider.name === voice.engine ? voice : provider.voices().find((v) => v.languages[0] === voice.languages[0]);
      if (!engineVoice) continue;
      const attempt = AbortSignal.any([signal, AbortSignal.timeout(this.options.timeoutMs)]);
      try {
        const audio = await provider.synthesize({ text, voice: engineVoice, signal: attempt });
        return { ...audio, engine: provider.name };
      } catch (err) {
        if (signal.aborted) throw err;
        lastError = err;
        this.options.logger.warn({ engine: provider.name, err: (err as Error).message }, 'speech engine failed');
      }
    }
    throw lastError;
  }
}
