import type { EventBus, Logger } from '@kasa/service-kit';
import type { Connection } from 'mongoose';
import type { VoiceConfig } from './config';
import { GeoDatabase } from './geo/geoDatabase';
import { catalogueCode, LanguageCatalogue } from './languages/catalogue';
import { LanguageDetector } from '@kasa/language-detect';
import { AudioEncoders } from './speech/audioEncoder';
import { AudioStore } from './speech/audioStore';
import { EspeakProvider } from './speech/espeakProvider';
import { SpeechChain } from './speech/speechChain';
import { SpeechService } from './speech/speechService';

export type VoiceSettings = Pick<
  VoiceConfig,
  | 'VOICE_ESPEAK_BIN'
  | 'VOICE_FFMPEG_BIN'
  | 'VOICE_AUDIO_FORMAT'
  | 'VOICE_SYNTHESIS_TIMEOUT_MS'
  | 'VOICE_AUDIO_TTL_HOURS'
  | 'VOICE_CHAT_LANGUAGES'
>;

export interface VoiceComponents {
  detector: LanguageDetector;
  catalogue: LanguageCatalogue;
  chain: SpeechChain;
  encoders: AudioEncoders;
  store: AudioStore;
  speech: SpeechService;
  audioTtlMs: number;
  /** The offline GeoIP database behind GET /api/geo. */
  geo: GeoDatabase;
  /** Stops the encoder kept ready ahead of requests. */
  close(): void;
}

/**
 * Everything the voice service's routes use, found and built once at start: the language detector, the speech
 * engines that are installed (and their voices), the encoder, the GeoIP database, and the catalogue whose capabilities follow from them.
 */
export async function createVoiceComponents(deps: {
  settings: VoiceSettings;
  db: Connection;
  bus: Pick<EventBus, 'publish'>;
  logger: Logger;
}): Promise<VoiceComponents> {
  const { settings, logger } = deps;
  const [detector, espeak, geo] = await Promise.all([
    LanguageDetector.create(),
    EspeakProvider.probe(settings.VOICE_ESPEAK_BIN, catalogueCode),
    GeoDatabase.load(logger),
  ]);
  if (!espeak.available)
    logger.warn({ bin: settings.VOICE_ESPEAK_BIN }, 'espeak-ng not found: speech synthesis is off');
  const chain = new SpeechChain([espeak], { timeoutMs: settings.VOICE_SYNTHESIS_TIMEOUT_MS, logger });
  const encoders = await AudioEncoders.create({
    ffmpegBin: settings.VOICE_FFMPEG_BIN,
    format: settings.VOICE_AUDIO_FORMAT,
    sampleRate: espeak.sampleRate,
    logger,
  });
  const catalogue = new LanguageCatalogue({
    canDetect: (code) => detector.codeFor(code) === code,
    canSpeak: (code) => chain.canSpeak(code),
    chatLanguages: settings.VOICE_CHAT_LANGUAGES === '*' ? '*' : settings.VOICE_CHAT_LANGUAGES.split(','),
  });
  const store = new AudioStore(deps.db);
  const audioTtlMs = settings.VOICE_AUDIO_TTL_HOURS * 3_600_000;
  const speech = new SpeechService({ chain, encoders, store, detector, catalogue, bus: deps.bus, logger, audioTtlMs });
  return { detector, catalogue, chain, encoders, store, speech, audioTtlMs, geo, close: () => encoders.close() };
}
