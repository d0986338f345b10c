import type { TranscribeResponse } from '@kasa/contracts';
import type { LanguageDetector } from '@kasa/language-detect';
import { InputError, ServiceUnavailableError, type CallGuard, type Logger } from '@kasa/service-kit';
import type { LanguageCatalogue } from '../languages/catalogue';
import type { Transcriber, TranscriptSegment, UploadedAudio } from './transcriber';

/** A transcription with what the provider also said about the audio (the OpenAI-compatible route's verbose answer). */
export type DetailedTranscription = TranscribeResponse & { duration?: number; segments?: TranscriptSegment[] };

export interface TranscriptionStatus {
  status: 'operational' | 'unavailable';
  providers: { name: string; circuit: 'closed' | 'open' | 'half-open' }[];
  message?: string;
}

/**
 * Speech to text through the configured cloud providers, in routing order (the African-language specialists first):
 * each call timed and guarded by a breaker, falling back to the next provider that takes the language and the audio
 * type. The language the user chose always wins over the one a provider heard.
 */
export class TranscriptionService {
  private transcribers: readonly Transcriber[];

  constructor(
    private readonly deps: {
      transcribers: Transcriber[];
      guard: CallGuard;
      timeoutMs: number;
      catalogue: LanguageCatalogue;
      detector: LanguageDetector;
      logger: Logger;
    },
  ) {
    this.transcribers = deps.transcribers;
  }

  get available(): boolean {
    return this.transcribers.length > 0;
  }

  canListen(language: string): boolean {
    return this.transcribers.some((t) => t.languages.has(language));
  }

  /**
   * Puts a new list of transcribers in place (an operator changed the AI providers of the browser): transcriptions
   * already running finish with those they started with. `changed`: names whose settings changed or that left, whose
   * breakers start again closed.
   */
  replace(transcribers: readonly Transcriber[], changed: Iterable<string> = []): void {
    this.transcribers = transcribers;
    for (const name of changed) this.deps.guard.forget(name);
  }

  status(): TranscriptionStatus {
    const providers = this.transcribers.map((t) => ({ name: t.name, circuit: this.deps.guard.circuit(t.name) }));
    return this.available
      ? { status: 'operational', providers }
      : {
          status: 'unavailable',
          providers,
          message: 'Transcription needs a configured speech-to-text provider (see the voice service README).',
        };
  }

  async transcribe(
    audio: UploadedAudio,
    languageTag: string | undefined,
    signal: AbortSignal,
  ): Promise<TranscribeResponse> {
    const { text, language, confidence, provider } = await this.transcribeInDetail(audio, languageTag, signal);
    return { text, language, ...(confidence !== undefined ? { confidence } : {}), provider };
  }

  /** As `transcribe`, with the audio's duration and the timed segments when the provider gives them. */
  async transcribeInDetail(
    audio: UploadedAudio,
    languageTag: string | undefined,
    signal: AbortSignal,
  ): Promise<DetailedTranscription> {
    // The list as it is now: a change made while this transcription runs applies to the next one.
    const transcribers = this.transcribers;
    if (transcribers.length === 0) {
      throw new ServiceUnavailableError(
        'Transcription needs a configured speech-to-text provider (OpenAI, Khaya, Spitch, Google or Azure, or an OpenAI or Groq provider an operator adds in the browser); none is configured on this server.',
      );
    }
    const language = languageTag ? this.languageOf(languageTag) : undefined;
    const candidates = transcribers.filter(
      (t) => t.accepts(audio.contentType) && (language ? t.languages.has(language) : t.detectsLanguage),
    );
    if (candidates.length === 0) {
      const name = language ? this.deps.catalogue.nameOf(language) : undefined;
      throw new InputError(
        language
          ? `Kasa cannot transcribe ${name} (${language}) ${audio.contentType} audio yet; GET /api/languages?capability=listen lists the languages it hears`
          : 'Name the language spoken (`language`): no configured provider can detect it',
        { ...(language ? { language } : {}), contentType: audio.contentType },
        language ? 'language_not_heard' : 'language_required',
      );
    }
    let lastError: unknown;
    for (const transcriber of candidates) {
      try {
        const result = await this.deps.guard.run(
          transcriber.name,
          { what: transcriber.name, timeoutMs: this.deps.timeoutMs, signal },
          ({ signal: attempt }) =>
            transcriber.transcribe({ audio, ...(language ? { language } : {}), signal: attempt }),
        );
        const heard =
          language ?? result.language ?? (result.text ? this.deps.detector.detect(result.text).language : 'und');
        return {
          text: result.text,
          language: heard,
          ...(result.confidence !== undefined ? { confidence: Math.max(0, Math.min(1, result.confidence)) } : {}),
          provider: transcriber.name,
          ...(result.duration !== undefined ? { duration: result.duration } : {}),
          ...(result.segments ? { segments: result.segments } : {}),
        };
      } catch (err) {
        if (signal.aborted) throw err;
        lastError = err;
        this.deps.logger.warn(
          { provider: transcriber.name, err: (err as Error).message },
          'transcription provider failed; trying the next one',
        );
      }
    }
    this.deps.logger.error({ err: (lastError as Error)?.message }, 'every transcription provider failed');
    throw new ServiceUnavailableError(
      'Transcription is unavailable right now: every speech-to-text provider failed. Try again shortly.',
    );
  }

  private languageOf(tag: string): string {
    const language = this.deps.catalogue.get(tag);
    if (!language) throw new InputError(`Unknown language '${tag}'`, { language: tag }, 'unknown_language');
    return language.code;
  }
}
