import { z } from './zod';

/** A BCP 47 language tag such as `en`, `en-GB`, `tw` or `gaa` (letters and digits, at most 35 characters). */
export const LanguageTag = z
  .string()
  .trim()
  .max(35)
  .regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{1,8})*$/, 'must be a language tag such as en, en-GB, tw or gaa');

export const SynthesizeRequest = z
  .object({
    text: z.string().trim().min(1, 'text is required').max(5_000, 'text must be at most 5000 characters'),
    /** A voice id from GET /api/voice/voices; the language's default voice when left out. */
    voice: z.string().trim().min(1).max(64).optional(),
    /** The text's language, or `auto` to detect it. */
    language: z.union([z.literal('auto'), LanguageTag]).default('en'),
  })
  .openapi('SynthesizeRequest');
export type SynthesizeRequest = z.infer<typeof SynthesizeRequest>;

export const SynthesizeResponse = z
  .object({
    /** Where to fetch the audio (no token needed: the address itself is the secret; it expires). */
    audioUrl: z.string(),
    /** Seconds of audio. */
    duration: z.number().nonnegative(),
    id: z.string().optional(),
    contentType: z.string().optional(),
    language: z.string().optional(),
    voice: z.string().optional(),
    engine: z.string().optional(),
  })
  .openapi('SynthesizeResponse');
export type SynthesizeResponse = z.infer<typeof SynthesizeResponse>;

/** What Kasa can do in a language, as available on the running platform. */
export const LanguageCapabilities = z
  .object({
    detect: z.boolean(),
    chat: z.boolean(),
    speak: z.boolean(),
    listen: z.boolean(),
    translate: z.boolean(),
  })
  .openapi('LanguageCapabilities');
export type LanguageCapabilities = z.infer<typeof LanguageCapabilities>;

export const LanguageSpeechEngine = z
  .object({
    /** The engine's id, as voices and synthesis answers name it: `khaya`, `spitch`, `azure`, `espeak-ng`... */
    engine: z.string(),
    /** Its name for people: `Khaya (GhanaNLP)`, `eSpeak NG (offline)`... */
    name: z.string(),
    /** This server has it set up (a key, or the offline engine installed). */
    configured: z.boolean(),
  })
  .openapi('LanguageSpeechEngine');
export type LanguageSpeechEngine = z.infer<typeof LanguageSpeechEngine>;

/** Which engine reads a language aloud here, and which ones Kasa would send it to, best first. */
export const LanguageSpeech = z
  .object({
    /** The engine that speaks the language on this server (the first configured one below), or null: not read aloud. */
    engine: z.string().nullable(),
    /** Every engine with a voice for the language, in Kasa's routing order (specialists first, the offline one last). */
    engines: z.array(LanguageSpeechEngine),
  })
  .openapi('LanguageSpeech');
export type LanguageSpeech = z.infer<typeof LanguageSpeech>;

export const Language = z
  .object({
    /** The code to use everywhere in Kasa: ISO 639-1 where one exists, else ISO 639-3 (`gaa`). */
    code: z.string(),
    iso6391: z.string().nullable(),
    iso6393: z.string(),
    name: z.string(),
    nativeName: z.string(),
    capabilities: LanguageCapabilities,
    speech: LanguageSpeech,
  })
  .openapi('Language');
export type Language = z.infer<typeof Language>;

export const LanguageCapability = z.enum(['detect', 'chat', 'speak', 'listen', 'translate']);
export type LanguageCapability = z.infer<typeof LanguageCapability>;

export const LanguageListQuery = z.object({ capability: LanguageCapability.optional() }).strict();

export const LanguageList = z.object({ count: z.number().int(), languages: z.array(Language) }).openapi('LanguageList');
export type LanguageList = z.infer<typeof LanguageList>;

export const DetectLanguageRequest = z
  .object({
    text: z.string().trim().min(1, 'text is required').max(2_000, 'text must be at most 2000 characters'),
    hints: z
      .object({
        /** The language the user chose in Kasa. */
        userLanguage: LanguageTag.optional(),
        /** The browser's locale (navigator.language), e.g. `fr-CI`. */
        browserLocale: LanguageTag.optional(),
        /** The user's latest messages, oldest first. */
        recent: z.array(z.string().max(500, 'each recent message must be at most 500 characters')).max(10).optional(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .openapi('DetectLanguageRequest');
export type DetectLanguageRequest = z.infer<typeof DetectLanguageRequest>;

export const LanguageGuess = z.object({ language: z.string(), name: z.string(), confidence: z.number() });

export const DetectLanguageResponse = LanguageGuess.extend({
  /**
   * False means "not sure": the text is too short or too mixed for a calibrated answer (a greeting such as "Hello"
   * is written alike in many languages), and `language` is only the likeliest guess. Hints make it surer.
   */
  reliable: z.boolean(),
  alternatives: z.array(LanguageGuess),
}).openapi('DetectLanguageResponse');
export type DetectLanguageResponse = z.infer<typeof DetectLanguageResponse>;

export const Voice = z
  .object({
    id: z.string(),
    name: z.string(),
    /** The language code (as in the catalogue) and the locale the voice speaks. */
    language: z.string(),
    locale: z.string(),
    gender: z.enum(['male', 'female']).optional(),
    engine: z.string(),
  })
  .openapi('Voice');
export type Voice = z.infer<typeof Voice>;

export const VoiceListQuery = z.object({ language: LanguageTag.optional() }).strict();
export const VoiceList = z.object({ voices: z.array(Voice) }).openapi('VoiceList');
export type VoiceList = z.infer<typeof VoiceList>;

export const VoiceSample = z
  .object({ id: z.string(), language: z.string(), voice: z.string(), text: z.string() })
  .openapi('VoiceSample');
export const VoiceSampleList = z.object({ samples: z.array(VoiceSample) }).openapi('VoiceSampleList');
export type VoiceSample = z.infer<typeof VoiceSample>;
export type VoiceSampleList = z.infer<typeof VoiceSampleList>;

export const VoiceStatus = z
  .object({
    status: z.enum(['ok', 'degraded']),
    message: z.string().optional(),
    engines: z.array(
      z.object({ name: z.string(), available: z.boolean(), version: z.string().optional(), voices: z.number() }),
    ),
    encoder: z.object({ name: z.string(), available: z.boolean(), format: z.string() }),
    /** Speech to text: `operational` with a configured provider, else `unavailable` (there is no offline recognizer). */
    transcription: z
      .object({
        status: z.enum(['operational', 'unavailable']),
        providers: z.array(z.object({ name: z.string(), circuit: z.enum(['closed', 'open', 'half-open']) })),
        message: z.string().optional(),
      })
      .optional(),
    /**
     * Translation: `operational` with a configured AI provider; `degraded-offline` without one (only text already in
     * the target language is answered), which the status page shows as "Translation degraded".
     */
    translation: z
      .object({
        status: z.enum(['operational', 'degraded-offline']),
        providers: z.array(z.object({ name: z.string(), circuit: z.enum(['closed', 'open', 'half-open']) })),
        message: z.string().optional(),
      })
      .optional(),
  })
  .openapi('VoiceStatus');
export type VoiceStatus = z.infer<typeof VoiceStatus>;

/** The audio id in GET /api/voice/audio/{id}: 22 URL-safe characters (128 random bits). */
export const AudioIdParam = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'must be an audio id') });

/** The audio types POST /api/voice/transcribe takes (the upload's Content-Type, without parameters). */
export const TRANSCRIBE_AUDIO_TYPES = ['audio/webm', 'audio/ogg', 'audio/wav', 'audio/mpeg', 'audio/mp4'] as const;

/** The fields beside the audio (multipart), or the query of a raw audio upload. */
export const TranscribeFields = z
  .object({
    /** The language spoken; it always wins over the language a provider detects. Left out: detected. */
    language: LanguageTag.optional(),
  })
  .strict();

/** The multipart form of a transcription, as documented (the service also takes the audio as the raw body). */
export const TranscribeRequest = z
  .object({
    audio: z
      .string()
      .openapi({ format: 'binary', description: 'The recording: webm, ogg, wav, mpeg or mp4 audio, at most 10 MB' }),
    language: LanguageTag.optional(),
  })
  .openapi('TranscribeRequest');

export const TranscribeResponse = z
  .object({
    text: z.string(),
    /** The language code: the one asked for, else the one heard. */
    language: z.string(),
    /** 0–1, when the provider says. */
    confidence: z.number().min(0).max(1).optional(),
    provider: z.string(),
  })
  .openapi('TranscribeResponse');
export type TranscribeResponse = z.infer<typeof TranscribeResponse>;

export const TranslateRequest = z
  .object({
    text: z.string().trim().min(1, 'text is required').max(5_000, 'text must be at most 5000 characters'),
    /** The text's language; detected when left out. */
    from: LanguageTag.optional(),
    to: LanguageTag,
  })
  .strict()
  .openapi('TranslateRequest');
export type TranslateRequest = z.infer<typeof TranslateRequest>;

export const TranslateResponse = z
  .object({
    text: z.string(),
    from: z.string(),
    to: z.string(),
    /** The AI provider that translated, or `none` when the text was already in the target language. */
    provider: z.string(),
  })
  .openapi('TranslateResponse');
export type TranslateResponse = z.infer<typeof TranslateResponse>;
