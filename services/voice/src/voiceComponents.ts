import type { ProviderSettings } from '@kasa/ai-providers';
import { CallGuard, type EventBus, type Logger } from '@kasa/service-kit';
import type { Connection } from 'mongoose';
import type { VoiceConfig } from './config';
import { GeoDatabase } from './geo/geoDatabase';
import { browserTranscribers, cloudProviders, routableCloudSpeech } from './cloud/cloudProviders';
import { languageSpeech } from './languages/speechEngines';
import { catalogueCode, codeForLanguageName, LanguageCatalogue } from './languages/catalogue';
import { TranscriptionService } from './transcription/transcriptionService';
import {
  browserTranslationProviders,
  providersFromSettings,
  TranslationService,
  type TranslationProvider,
} from './translation/translationService';
import type { Transcriber } from './transcription/transcriber';
import { LanguageDetector } from '@kasa/language-detect';
import { AudioEncoders } from './speech/audioEncoder';
import { AudioStore } from './speech/audioStore';
import type { EspeakProvider } from './speech/espeakProvider';
import { findFfmpeg, findSpeechEngine, type FfmpegProgram } from './speech/engines';
import { ProcessLimits } from './speech/processLimits';
import { ProcessPool } from './speech/processPool';
import { createVoiceSlots, type VoiceSlots } from './slots/voiceSlots';
import { SpeechChain } from './speech/speechChain';
import { SpeechService } from './speech/speechService';
import type { CloudSettings } from './cloud/cloudProviders';

export type VoiceSettings = Pick<
  VoiceConfig,
  | 'VOICE_ESPEAK_BIN'
  | 'VOICE_FFMPEG_BIN'
  | 'VOICE_PACKAGED_ENGINES'
  | 'VOICE_AUDIO_FORMAT'
  | 'VOICE_SYNTHESIS_TIMEOUT_MS'
  | 'VOICE_SYNTHESIS_MAX_CONCURRENT'
  | 'VOICE_TRANSCRIPTION_MAX_CONCURRENT'
  | 'VOICE_TRANSLATION_MAX_CONCURRENT'
  | 'VOICE_PROCESS_POOL_SIZE'
  | 'VOICE_PROCESS_QUEUE_MAX'
  | 'VOICE_PROCESS_MEMORY_MB'
  | 'VOICE_AUDIO_TTL_HOURS'
  | 'VOICE_CHAT_LANGUAGES'
  | 'VOICE_CLOUD_TIMEOUT_MS'
  | 'VOICE_BREAKER_ERROR_PERCENT'
  | 'VOICE_BREAKER_MIN_REQUESTS'
  | 'VOICE_BREAKER_RESET_MS'
  | 'VOICE_TRANSCRIBE_MAX_BYTES'
  | 'VOICE_TRANSLATE_TIMEOUT_MS'
  | 'translationProviders'
  | keyof CloudSettings
>;

export interface VoiceComponents {
  detector: LanguageDetector;
  catalogue: LanguageCatalogue;
  chain: SpeechChain;
  /** The offline speech engine: the system's espeak-ng or its WebAssembly build (possibly unavailable). */
  espeak: EspeakProvider;
  /** The ffmpeg that encodes audio and makes videos (the system's or the static build from npm), if any runs. */
  ffmpeg: FfmpegProgram | undefined;
  encoders: AudioEncoders;
  store: AudioStore;
  speech: SpeechService;
  audioTtlMs: number;
  /** The offline GeoIP database behind GET /api/geo. */
  geo: GeoDatabase;
  transcription: TranscriptionService;
  translation: TranslationService;
  maxAudioBytes: number;
  /** The bounded pool every heavy child process goes through (speech per chunk, video encoding). */
  pool: ProcessPool;
  /** The memory limit of those processes. */
  limits: ProcessLimits;
  /** Per-person concurrency slots of the costly routes (synthesis, transcription, translation). */
  slots: VoiceSlots;
  /**
   * Puts the AI providers operators added in the browser (chat's list, a new `version` of it) after those of the
   * variables, for translation and, where their API transcribes, speech to text; the catalogue and the status follow.
   */
  useBrowserProviders(providers: ProviderSettings[], version: number): void;
  /** Stops the encoder and the speech engine kept ready ahead of requests, and the providers' breakers. */
  close(): void;
}

/**
 * Everything the voice service's routes use, found and built once at start: the language detector, the speech
 * engines that are installed (and their voices), the encoder, the GeoIP database, and the catalogue whose capabilities follow from them.
 * Only the AI providers operators add in the browser change later (useBrowserProviders).
 */
export async function createVoiceComponents(deps: {
  settings: VoiceSettings;
  db: Connection;
  bus: Pick<EventBus, 'publishWithin'>;
  logger: Logger;
  /** Translation providers to use instead of the configured ones (tests). */
  translationProviders?: TranslationProvider[];
}): Promise<VoiceComponents> {
  const { settings, logger } = deps;
  const usePackaged = settings.VOICE_PACKAGED_ENGINES;
  const limits = await ProcessLimits.find({ memoryMb: settings.VOICE_PROCESS_MEMORY_MB, logger });
  const pool = new ProcessPool({
    size: settings.VOICE_PROCESS_POOL_SIZE,
    maxQueued: settings.VOICE_PROCESS_QUEUE_MAX,
    logger,
  });
  const [detector, espeak, ffmpeg, geo] = await Promise.all([
    LanguageDetector.create(),
    findSpeechEngine({
      bin: settings.VOICE_ESPEAK_BIN,
      usePackaged,
      mapLanguage: catalogueCode,
      logger,
      run: { pool, timeoutMs: settings.VOICE_SYNTHESIS_TIMEOUT_MS },
      limits,
    }),
    findFfmpeg({ bin: settings.VOICE_FFMPEG_BIN, usePackaged, logger }),
    GeoDatabase.load(logger),
  ]);
  const breaker = {
    errorThresholdPercentage: settings.VOICE_BREAKER_ERROR_PERCENT,
    volumeThreshold: settings.VOICE_BREAKER_MIN_REQUESTS,
    resetTimeoutMs: settings.VOICE_BREAKER_RESET_MS,
    logger,
  };
  const speechGuard = new CallGuard({ ...breaker, kind: 'speech' });
  const listenGuard = new CallGuard({ ...breaker, kind: 'transcription' });
  const translateGuard = new CallGuard({ ...breaker, kind: 'translation' });
  const cloud = cloudProviders(settings, { code: catalogueCode, codeForName: codeForLanguageName });
  // Cloud engines first, in routing order; the offline engine last, so that it speaks what no cloud voice does.
  const chain = new SpeechChain([...cloud.speech, espeak], {
    timeoutMs: settings.VOICE_SYNTHESIS_TIMEOUT_MS,
    cloudTimeoutMs: settings.VOICE_CLOUD_TIMEOUT_MS,
    sampleRate: espeak.sampleRate,
    guard: speechGuard,
    logger,
  });
  // The providers of the variables, then those operators add in the browser (useBrowserProviders); the catalogue
  // reads the lists in use.
  const configured = {
    translators: deps.translationProviders ?? providersFromSettings(settings.translationProviders),
    transcribers: cloud.transcribers,
  };
  const inUse: { translators: readonly TranslationProvider[]; transcribers: readonly Transcriber[] } = {
    ...configured,
  };
  const chatLanguages = settings.VOICE_CHAT_LANGUAGES === '*' ? '*' : settings.VOICE_CHAT_LANGUAGES.split(',');
  const encoders = await AudioEncoders.create({
    ffmpeg,
    format: settings.VOICE_AUDIO_FORMAT,
    sampleRate: espeak.sampleRate,
    usePackaged,
    limits,
    logger,
  });
  const catalogue = new LanguageCatalogue({
    canDetect: (code) => detector.codeFor(code) === code,
    canSpeak: (code) => chain.canSpeak(code),
    canListen: (code) => inUse.transcribers.some((t) => t.languages.has(code)),
    // The AI providers translate the languages they chat in (the chat capability's claim).
    canTranslate: (code) => inUse.translators.length > 0 && (chatLanguages === '*' || chatLanguages.includes(code)),
    chatLanguages,
    speechOf: languageSpeech({
      routable: [...routableCloudSpeech(settings, { code: catalogueCode, codeForName: codeForLanguageName }), espeak],
      configured: new Set([...cloud.speech, espeak].filter((engine) => engine.available).map((engine) => engine.name)),
      speaker: (code) => chain.pickVoice(code)?.engine,
    }),
  });
  const transcription = new TranscriptionService({
    transcribers: configured.transcribers,
    guard: listenGuard,
    timeoutMs: settings.VOICE_CLOUD_TIMEOUT_MS,
    catalogue,
    detector,
    logger,
  });
  const translation = new TranslationService({
    providers: configured.translators,
    guard: translateGuard,
    timeoutMs: settings.VOICE_TRANSLATE_TIMEOUT_MS,
    catalogue,
    detector,
    logger,
  });
  const store = new AudioStore(deps.db);
  const audioTtlMs = settings.VOICE_AUDIO_TTL_HOURS * 3_600_000;
  const speech = new SpeechService({ chain, encoders, store, detector, catalogue, bus: deps.bus, logger, audioTtlMs });

  // What each browser provider in use was made from, to start a changed one's breaker closed (as chat does).
  let used = { translators: new Map<string, string>(), transcribers: new Map<string, string>() };
  const useBrowserProviders = (providers: ProviderSettings[], version: number) => {
    const translators = browserTranslationProviders(
      providers,
      new Set(configured.translators.map((p) => p.name)),
      (name, why) =>
        logger.info({ provider: name, why }, 'an AI provider added in the browser does not translate here'),
    );
    const transcribers = browserTranscribers(
      providers,
      settings,
      { code: catalogueCode, codeForName: codeForLanguageName },
      new Set(configured.transcribers.map((t) => t.name)),
    );
    const madeFrom = new Map(providers.map((p) => [p.name, settingsFingerprint(p)]));
    const now = {
      translators: new Map(translators.map((p) => [p.name, madeFrom.get(p.name)!])),
      transcribers: new Map(transcribers.map((t) => [t.name, madeFrom.get(t.name)!])),
    };
    inUse.translators = [...configured.translators, ...translators];
    inUse.transcribers = [...configured.transcribers, ...transcribers];
    translation.replace(inUse.translators, changedNames(used.translators, now.translators));
    transcription.replace(inUse.transcribers, changedNames(used.transcribers, now.transcribers));
    used = now;
    catalogue.refreshCapabilities();
    logger.info(
      {
        version,
        translation: inUse.translators.map((p) => p.name),
        transcription: inUse.transcribers.map((t) => t.name),
      },
      'AI providers of the browser in use',
    );
  };
  return {
    detector,
    catalogue,
    chain,
    espeak,
    ffmpeg,
    encoders,
    store,
    speech,
    audioTtlMs,
    geo,
    transcription,
    translation,
    maxAudioBytes: settings.VOICE_TRANSCRIBE_MAX_BYTES,
    pool,
    limits,
    slots: createVoiceSlots(deps.db, settings),
    useBrowserProviders,
    close: () => {
      encoders.close();
      espeak.close();
      for (const guard of [speechGuard, listenGuard, translateGuard]) guard.shutdown();
    },
  };
}

/** What a provider's calls depend on (kept in memory only, to tell a changed provider from an unchanged one). */
const settingsFingerprint = (p: ProviderSettings): string =>
  JSON.stringify([p.kind, p.apiKey ?? '', p.baseURL ?? '', p.model, p.extra]);

/** The names that were in use and left, or whose settings changed. */
const changedNames = (before: Map<string, string>, after: Map<string, string>): string[] =>
  [...before].filter(([name, made]) => after.get(name) !== made).map(([name]) => name);
