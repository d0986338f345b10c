import type { ProviderKind, ProviderSettings } from '@kasa/ai-providers';
import type { VoiceConfig } from '../config';
import type { SpeechProvider } from '../speech/speechProvider';
import type { Transcriber } from '../transcription/transcriber';
import { AzureSpeech, AzureTranscriber } from './azure';
import { ELEVENLABS_LANGUAGES, OPENAI_LANGUAGES } from './cloudVoices';
import { ElevenLabsSpeech } from './elevenlabs';
import { GoogleSpeech, GoogleTranscriber } from './google';
import { KhayaSpeech, KhayaTranscriber } from './khaya';
import { OpenAiSpeech, OpenAiTranscriber } from './openai';
import { SpitchSpeech, SpitchTranscriber } from './spitch';

export type CloudSettings = Pick<
  VoiceConfig,
  | 'OPENAI_API_KEY'
  | 'OPENAI_BASE_URL'
  | 'OPENAI_TTS_MODEL'
  | 'OPENAI_TRANSCRIBE_MODEL'
  | 'ELEVENLABS_API_KEY'
  | 'ELEVENLABS_BASE_URL'
  | 'ELEVENLABS_MODEL'
  | 'AZURE_SPEECH_KEY'
  | 'AZURE_SPEECH_REGION'
  | 'AZURE_SPEECH_TTS_BASE_URL'
  | 'AZURE_SPEECH_STT_BASE_URL'
  | 'GOOGLE_TTS_API_KEY'
  | 'GOOGLE_TTS_BASE_URL'
  | 'GOOGLE_STT_API_KEY'
  | 'GOOGLE_STT_BASE_URL'
  | 'KHAYA_API_KEY'
  | 'KHAYA_BASE_URL'
  | 'SPITCH_API_KEY'
  | 'SPITCH_BASE_URL'
>;

/**
 * The cloud providers whose keys are set, in routing order: the African-language specialists first (Khaya for Twi,
 * Ewe and Ga; Spitch for Yoruba, Hausa and Igbo), then the clouds with native voices per locale (Azure, Google), then
 * the multilingual ones (ElevenLabs, OpenAI). A specialist has voices only for its own languages, so "the first
 * provider with a voice for the language" sends each language to the one that speaks it best; eSpeak NG comes last.
 */
export function cloudProviders(
  settings: CloudSettings,
  catalogue: { code(tag: string): string | undefined; codeForName(name: string): string | undefined },
): { speech: SpeechProvider[]; transcribers: Transcriber[] } {
  const listed = (codes: string[]) => [...new Set(codes.map((c) => catalogue.code(c)).filter((c): c is string => !!c))];
  const speech: SpeechProvider[] = [];
  const transcribers: Transcriber[] = [];
  // Spitch first: the Nigerian-language specialist leads for Yoruba and Hausa, which Khaya also hears; Khaya
  // leads for the Ghanaian languages, which Spitch does not have.
  if (settings.SPITCH_API_KEY) {
    const spitch = { apiKey: settings.SPITCH_API_KEY, baseUrl: settings.SPITCH_BASE_URL };
    speech.push(new SpitchSpeech(spitch));
    transcribers.push(new SpitchTranscriber(spitch));
  }
  if (settings.KHAYA_API_KEY) {
    const khaya = { apiKey: settings.KHAYA_API_KEY, baseUrl: settings.KHAYA_BASE_URL };
    speech.push(new KhayaSpeech(khaya));
    transcribers.push(new KhayaTranscriber(khaya));
  }
  if (settings.AZURE_SPEECH_KEY) {
    const region = settings.AZURE_SPEECH_REGION ?? '';
    const azure = {
      key: settings.AZURE_SPEECH_KEY,
      ttsBaseUrl: settings.AZURE_SPEECH_TTS_BASE_URL ?? `https://${region}.tts.speech.microsoft.com`,
      sttBaseUrl: settings.AZURE_SPEECH_STT_BASE_URL ?? `https://${region}.stt.speech.microsoft.com`,
    };
    speech.push(new AzureSpeech(azure));
    transcribers.push(new AzureTranscriber(azure));
  }
  if (settings.GOOGLE_TTS_API_KEY) {
    speech.push(new GoogleSpeech({ apiKey: settings.GOOGLE_TTS_API_KEY, baseUrl: settings.GOOGLE_TTS_BASE_URL }));
  }
  const googleSttKey = settings.GOOGLE_STT_API_KEY ?? settings.GOOGLE_TTS_API_KEY;
  if (googleSttKey) {
    transcribers.push(new GoogleTranscriber({ apiKey: googleSttKey, baseUrl: settings.GOOGLE_STT_BASE_URL }));
  }
  if (settings.ELEVENLABS_API_KEY) {
    speech.push(
      new ElevenLabsSpeech({
        apiKey: settings.ELEVENLABS_API_KEY,
        baseUrl: settings.ELEVENLABS_BASE_URL,
        model: settings.ELEVENLABS_MODEL,
        languages: listed(ELEVENLABS_LANGUAGES),
      }),
    );
  }
  if (settings.OPENAI_API_KEY) {
    const openai = {
      apiKey: settings.OPENAI_API_KEY,
      baseUrl: settings.OPENAI_BASE_URL,
      ttsModel: settings.OPENAI_TTS_MODEL,
      transcribeModel: settings.OPENAI_TRANSCRIBE_MODEL,
      languages: listed(OPENAI_LANGUAGES),
    };
    speech.push(new OpenAiSpeech(openai));
    transcribers.push(new OpenAiTranscriber(openai, catalogue.codeForName));
  }
  return { speech, transcribers };
}

/**
 * The kinds of AI provider whose API also transcribes, as OpenAI's `/audio/transcriptions` does: their default
 * address (the AI SDK's, used when a provider added in the browser names none) and the model that listens.
 */
const TRANSCRIBING_KINDS: Partial<
  Record<ProviderKind, { baseUrl: string; model: (settings: Pick<CloudSettings, 'OPENAI_TRANSCRIBE_MODEL'>) => string }>
> = {
  // whisper-1 by default (it names the language it heard); OPENAI_TRANSCRIBE_MODEL may choose gpt-4o-mini-transcribe.
  openai: { baseUrl: 'https://api.openai.com/v1', model: (settings) => settings.OPENAI_TRANSCRIBE_MODEL },
  // Groq serves Whisper at its OpenAI-compatible address; the turbo model hears the same languages, faster.
  groq: { baseUrl: 'https://api.groq.com/openai/v1', model: () => 'whisper-large-v3-turbo' },
};

/**
 * Transcribers made from AI providers operators added in the browser (chat's list, in its order): one for each
 * provider with a key whose kind transcribes (TRANSCRIBING_KINDS), named after the provider. Names in `taken` (the
 * transcribers of the variables) are left out: the variables' provider of that name is already there.
 */
export function browserTranscribers(
  providers: readonly ProviderSettings[],
  settings: Pick<CloudSettings, 'OPENAI_TRANSCRIBE_MODEL'>,
  catalogue: { code(tag: string): string | undefined; codeForName(name: string): string | undefined },
  taken: ReadonlySet<string>,
): Transcriber[] {
  const languages = [...new Set(OPENAI_LANGUAGES.map((c) => catalogue.code(c)).filter((c): c is string => !!c))];
  return providers.flatMap((provider) => {
    const kind = TRANSCRIBING_KINDS[provider.kind];
    if (!kind || !provider.apiKey || taken.has(provider.name)) return [];
    const transcriber = new OpenAiTranscriber(
      {
        name: provider.name,
        apiKey: provider.apiKey,
        baseUrl: provider.baseURL ?? kind.baseUrl,
        transcribeModel: kind.model(settings),
        languages,
      },
      catalogue.codeForName,
    );
    return [transcriber];
  });
}

/** A placeholder for a key that is not set: the engines below are listed for their voices, never called. */
const LISTED_ONLY = 'listed-only';

/**
 * Every cloud speech engine Kasa can route to, set up on this server or not, in routing order: the language catalogue
 * uses their voices to say which engine would speak a language and whether that engine is configured here.
 */
export function routableCloudSpeech(
  settings: CloudSettings,
  catalogue: { code(tag: string): string | undefined; codeForName(name: string): string | undefined },
): SpeechProvider[] {
  const everyKey = {
    ...settings,
    SPITCH_API_KEY: LISTED_ONLY,
    KHAYA_API_KEY: LISTED_ONLY,
    AZURE_SPEECH_KEY: LISTED_ONLY,
    GOOGLE_TTS_API_KEY: LISTED_ONLY,
    ELEVENLABS_API_KEY: LISTED_ONLY,
    OPENAI_API_KEY: LISTED_ONLY,
  };
  return cloudProviders(everyKey, catalogue).speech;
}
