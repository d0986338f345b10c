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

/**
 * OpenAI's text-to-speech models that `POST /v1/audio/speech` accepts (and Kasa's own name): every one is read by
 * Kasa's speech chain (the configured cloud voices, then eSpeak NG offline).
 */
export const OPENAI_SPEECH_MODELS = ['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts', 'kasa-speech'] as const;

/**
 * OpenAI's voice names. Each maps to a voice of the chain for the text's language: the cloud voice of that name
 * where OpenAI's voices are configured, else the language's voice of the same kind (female or male) where the engine
 * has one, else the language's default voice.
 */
export const OPENAI_VOICE_NAMES = [
  'alloy',
  'ash',
  'ballad',
  'cedar',
  'coral',
  'echo',
  'fable',
  'marin',
  'nova',
  'onyx',
  'sage',
  'shimmer',
  'verse',
] as const;

/** The `response_format`s OpenAI's speech API has; which of them a server makes depends on its encoder (ffmpeg). */
export const OPENAI_SPEECH_FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const;
export type OpenAISpeechFormat = (typeof OPENAI_SPEECH_FORMATS)[number];

/** The longest text `POST /v1/audio/speech` reads in one request, as OpenAI's API (characters). */
export const OPENAI_SPEECH_MAX_CHARS = 4_096;

/** OpenAI's `code` for a request field with a value Kasa does not take (as on /v1/chat/completions). */
const UNSUPPORTED_VALUE = 'unsupported_value';
const UNKNOWN_PARAMETER = 'unknown_parameter';

const listed = (values: readonly string[]) =>
  `${values.slice(0, -1).join(', ')}${values.length > 1 ? ' or ' : ''}${values.at(-1) ?? ''}`;

const SPEECH_FIELDS = new Set([
  'model',
  'input',
  'voice',
  'instructions',
  'response_format',
  'speed',
  'stream_format',
  'language',
]);

/**
 * The body of `POST /v1/audio/speech`, as OpenAI's clients send it, plus Kasa's optional `language` (left out: the
 * text's language is detected). A field OpenAI does not have, or a value Kasa does not take, is a 400 naming it.
 */
export const OpenAISpeechRequest = z
  .looseObject({
    model: z
      .string()
      .trim()
      .min(1, 'model is required')
      .max(100)
      .openapi({ example: 'tts-1', description: `One of ${listed(OPENAI_SPEECH_MODELS)}` }),
    input: z
      .string({ error: 'input is required' })
      .trim()
      .min(1, 'input must not be empty')
      .max(OPENAI_SPEECH_MAX_CHARS, `input must be at most ${OPENAI_SPEECH_MAX_CHARS} characters`),
    /** An OpenAI voice name, a Kasa voice id (GET /api/voice/voices), or `{id}` with either. */
    voice: z.union(
      [
        z.string().trim().min(1).max(64),
        z.object({ id: z.string().trim().min(1).max(64) }).transform((voice) => voice.id),
      ],
      { error: 'voice must be a voice name such as alloy, or a Kasa voice id from GET /api/voice/voices' },
    ),
    /** How to speak (gpt-4o-mini-tts); accepted, and ignored by engines that take no instructions. */
    instructions: z.string().max(OPENAI_SPEECH_MAX_CHARS).optional(),
    response_format: z
      .enum(OPENAI_SPEECH_FORMATS, { error: `response_format must be one of ${listed(OPENAI_SPEECH_FORMATS)}` })
      .default('mp3'),
    speed: z
      .number({ error: 'speed must be a number from 0.25 to 4.0' })
      .min(0.25, 'speed must be at least 0.25')
      .max(4, 'speed must be at most 4.0')
      .default(1),
    /** Only `audio` (the audio itself, as it is made); Server-Sent Events are not offered. */
    stream_format: z.string().optional(),
    /** Kasa's: the text's language (a tag such as en, sw or fr-CI), or `auto` (the default) to detect it. */
    language: z.union([z.literal('auto'), LanguageTag]).default('auto'),
  })
  .superRefine((body, ctx) => {
    const refuse = (name: string, message: string, code = UNSUPPORTED_VALUE) =>
      ctx.addIssue({ code: 'custom', path: [name], message, params: { code } });
    for (const name of Object.keys(body)) {
      if (!SPEECH_FIELDS.has(name)) refuse(name, `Unrecognized request argument supplied: ${name}`, UNKNOWN_PARAMETER);
    }
    if (!(OPENAI_SPEECH_MODELS as readonly string[]).includes(body.model))
      refuse('model', `model must be one of ${listed(OPENAI_SPEECH_MODELS)} (all are read by Kasa's voices)`);
    if (body.stream_format !== undefined && body.stream_format !== 'audio')
      refuse('stream_format', 'stream_format must be audio: the audio streams as it is made (no Server-Sent Events)');
  })
  .openapi('OpenAISpeechRequest', { additionalProperties: false });
export type OpenAISpeechRequest = z.output<typeof OpenAISpeechRequest>;

/** OpenAI's speech-to-text models that `POST /v1/audio/transcriptions` accepts: all go to Kasa's transcribers. */
export const OPENAI_TRANSCRIPTION_MODELS = [
  'whisper-1',
  'gpt-4o-transcribe',
  'gpt-4o-mini-transcribe',
  'kasa-transcribe',
] as const;

/** The answers `POST /v1/audio/transcriptions` gives (OpenAI's srt and vtt need timed segments Kasa may not have). */
export const OPENAI_TRANSCRIPTION_FORMATS = ['json', 'text', 'verbose_json'] as const;

/** Form fields arrive as text: a number field is read from it. */
const formNumber = (message: string) =>
  z.preprocess(
    (value) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : value),
    z.number({ error: message }).min(0, message).max(1, message),
  );

/** A form field sent once or repeated (`include[]`): a list either way. */
const formList = z.preprocess((value) => (Array.isArray(value) ? value : [value]), z.array(z.string().max(40)).max(4));

const TRANSCRIPTION_FIELDS = new Set([
  'model',
  'language',
  'prompt',
  'response_format',
  'temperature',
  'stream',
  'timestamp_granularities',
  'include',
  'chunking_strategy',
]);

/**
 * The fields beside the file in `POST /v1/audio/transcriptions` (multipart), as OpenAI's clients send them. `prompt`,
 * `temperature` and `chunking_strategy: auto` are accepted (no transcriber takes them); segment timestamps are given
 * in verbose_json where the transcriber has them; a value Kasa cannot honour is a 400 naming its field.
 */
export const OpenAITranscriptionFields = z
  .looseObject({
    model: z.string({ error: 'model is required' }).trim().min(1, 'model is required').max(100),
    language: LanguageTag.optional(),
    prompt: z.string().max(1_000).optional(),
    response_format: z.string().default('json'),
    temperature: formNumber('temperature must be a number from 0 to 1').optional(),
    stream: z.string().optional(),
    timestamp_granularities: formList.optional(),
    include: formList.optional(),
    chunking_strategy: z.string().optional(),
  })
  .superRefine((fields, ctx) => {
    const refuse = (name: string, message: string, code = UNSUPPORTED_VALUE) =>
      ctx.addIssue({ code: 'custom', path: [name], message, params: { code } });
    for (const name of Object.keys(fields)) {
      if (!TRANSCRIPTION_FIELDS.has(name))
        refuse(name, `Unrecognized request argument supplied: ${name}`, UNKNOWN_PARAMETER);
    }
    if (!(OPENAI_TRANSCRIPTION_MODELS as readonly string[]).includes(fields.model))
      refuse('model', `model must be one of ${listed(OPENAI_TRANSCRIPTION_MODELS)} (all go to Kasa's transcribers)`);
    if (!(OPENAI_TRANSCRIPTION_FORMATS as readonly string[]).includes(fields.response_format))
      refuse('response_format', `response_format must be one of ${listed(OPENAI_TRANSCRIPTION_FORMATS)}`);
    if (fields.stream !== undefined && fields.stream !== 'false')
      refuse('stream', 'stream is not supported: the transcript is answered whole');
    if (fields.timestamp_granularities?.some((g) => g !== 'segment'))
      refuse(
        'timestamp_granularities',
        'only segment timestamps are given (in verbose_json, where the transcriber has them)',
      );
    if (fields.include?.length) refuse('include', 'include is not supported (no logprobs)');
    if (fields.chunking_strategy !== undefined && fields.chunking_strategy !== 'auto')
      refuse('chunking_strategy', 'chunking_strategy may only be auto');
  });
export type OpenAITranscriptionFields = z.output<typeof OpenAITranscriptionFields>;

/** The multipart form of `POST /v1/audio/transcriptions`, as documented. */
export const OpenAITranscriptionRequest = z
  .object({
    file: z.string().openapi({
      format: 'binary',
      description:
        'The recording: webm, ogg (opus), wav, mp3 (mpeg, mpga) or mp4 (m4a) audio, at most 10 MB; its type is ' +
        'read from the part, else the file name, and checked against the bytes',
    }),
    model: z.enum(OPENAI_TRANSCRIPTION_MODELS),
    language: LanguageTag.optional(),
    prompt: z.string().max(1_000).optional(),
    response_format: z.enum(OPENAI_TRANSCRIPTION_FORMATS).optional(),
    temperature: z.number().min(0).max(1).optional(),
  })
  .openapi('OpenAITranscriptionRequest');

/** `response_format: json` (the default). */
export const OpenAITranscription = z.object({ text: z.string() }).openapi('OpenAITranscription');
export type OpenAITranscription = z.infer<typeof OpenAITranscription>;

/** One timed piece of a transcript, as the transcriber gave it (OpenAI's Whisper gives them). */
export const OpenAITranscriptionSegment = z
  .object({
    id: z.number().int(),
    seek: z.number().optional(),
    /** Seconds from the start of the recording. */
    start: z.number(),
    end: z.number(),
    text: z.string(),
    tokens: z.array(z.number()).optional(),
    temperature: z.number().optional(),
    avg_logprob: z.number().optional(),
    compression_ratio: z.number().optional(),
    no_speech_prob: z.number().optional(),
  })
  .openapi('OpenAITranscriptionSegment');
export type OpenAITranscriptionSegment = z.infer<typeof OpenAITranscriptionSegment>;

/** `response_format: verbose_json`. */
export const OpenAITranscriptionVerbose = z
  .object({
    task: z.literal('transcribe'),
    /** The language's English name in lower case, as OpenAI gives it (`english`, `swahili`). */
    language: z.string(),
    /** Seconds of audio: as the transcriber says, else read from the file (WAV, Ogg, MP3); 0 when neither says. */
    duration: z.number().nonnegative(),
    text: z.string(),
    /** The transcriber's timed segments; empty when it gives none. */
    segments: z.array(OpenAITranscriptionSegment),
  })
  .openapi('OpenAITranscriptionVerbose');
export type OpenAITranscriptionVerbose = z.infer<typeof OpenAITranscriptionVerbose>;
