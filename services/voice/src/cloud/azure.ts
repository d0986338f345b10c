import type { PcmAudio, SpeechProvider, SpeechRequest, SpeechVoice } from '../speech/speechProvider';
import type { TranscribeRequest, Transcriber, TranscriberResult } from '../transcription/transcriber';
import { CloudProviderError, joinUrl, postToProvider, readAudio, readJson } from './cloudHttp';
import { DEFAULT_LOCALES, localeVoices } from './cloudVoices';
import { rawPcm } from './pcm';

export interface AzureSpeechSettings {
  key: string;
  /** https://{region}.tts.speech.microsoft.com unless overridden. */
  ttsBaseUrl: string;
  /** https://{region}.stt.speech.microsoft.com unless overridden. */
  sttBaseUrl: string;
}

const ENGINE = 'azure';
const PCM_RATE = 24_000;

/** Azure's neural voices Kasa offers: one or two per language, the African locales among them. */
const VOICES = [
  { locale: 'en-US', language: 'en', engineVoice: 'en-US-JennyNeural', name: 'Jenny (US)', gender: 'female' },
  { locale: 'en-US', language: 'en', engineVoice: 'en-US-GuyNeural', name: 'Guy (US)', gender: 'male' },
  { locale: 'en-NG', language: 'en', engineVoice: 'en-NG-EzinneNeural', name: 'Ezinne (Nigeria)', gender: 'female' },
  { locale: 'en-KE', language: 'en', engineVoice: 'en-KE-AsiliaNeural', name: 'Asilia (Kenya)', gender: 'female' },
  { locale: 'sw-KE', language: 'sw', engineVoice: 'sw-KE-ZuriNeural', name: 'Zuri (Kenya)', gender: 'female' },
  { locale: 'sw-KE', language: 'sw', engineVoice: 'sw-KE-RafikiNeural', name: 'Rafiki (Kenya)', gender: 'male' },
  { locale: 'zu-ZA', language: 'zu', engineVoice: 'zu-ZA-ThandoNeural', name: 'Thando', gender: 'female' },
  { locale: 'am-ET', language: 'am', engineVoice: 'am-ET-MekdesNeural', name: 'Mekdes', gender: 'female' },
  { locale: 'so-SO', language: 'so', engineVoice: 'so-SO-UbaxNeural', name: 'Ubax', gender: 'female' },
  { locale: 'af-ZA', language: 'af', engineVoice: 'af-ZA-AdriNeural', name: 'Adri', gender: 'female' },
  { locale: 'fr-FR', language: 'fr', engineVoice: 'fr-FR-DeniseNeural', name: 'Denise', gender: 'female' },
  { locale: 'es-ES', language: 'es', engineVoice: 'es-ES-ElviraNeural', name: 'Elvira', gender: 'female' },
  { locale: 'de-DE', language: 'de', engineVoice: 'de-DE-KatjaNeural', name: 'Katja', gender: 'female' },
  { locale: 'pt-BR', language: 'pt', engineVoice: 'pt-BR-FranciscaNeural', name: 'Francisca', gender: 'female' },
  { locale: 'ar-EG', language: 'ar', engineVoice: 'ar-EG-SalmaNeural', name: 'Salma', gender: 'female' },
  { locale: 'zh-CN', language: 'zh', engineVoice: 'zh-CN-XiaoxiaoNeural', name: 'Xiaoxiao', gender: 'female' },
  { locale: 'hi-IN', language: 'hi', engineVoice: 'hi-IN-SwaraNeural', name: 'Swara', gender: 'female' },
  { locale: 'ja-JP', language: 'ja', engineVoice: 'ja-JP-NanamiNeural', name: 'Nanami', gender: 'female' },
] as const;

const escapeXml = (text: string): string =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c);

/** Azure AI Speech text to speech: POST {region}.tts.speech.microsoft.com/cognitiveservices/v1 with SSML. */
export class AzureSpeech implements SpeechProvider {
  readonly name = ENGINE;
  readonly available = true;
  readonly remote = true;
  readonly sampleRate = PCM_RATE;
  private readonly voiceList = localeVoices(ENGINE, [...VOICES]);

  constructor(private readonly settings: AzureSpeechSettings) {}

  voices(): SpeechVoice[] {
    return this.voiceList;
  }

  async synthesize({ text, voice, signal }: SpeechRequest): Promise<PcmAudio> {
    const ssml =
      `<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="${voice.locale}">` +
      `<voice name="${escapeXml(voice.engineVoice)}">${escapeXml(text)}</voice></speak>`;
    const res = await postToProvider(
      ENGINE,
      joinUrl(this.settings.ttsBaseUrl, '/cognitiveservices/v1'),
      {
        headers: {
          'ocp-apim-subscription-key': this.settings.key,
          'content-type': 'application/ssml+xml',
          'x-microsoft-outputformat': 'raw-24khz-16bit-mono-pcm',
          'user-agent': 'kasa-voice',
        },
        body: ssml,
      },
      signal,
    );
    return rawPcm(await readAudio(ENGINE, res), PCM_RATE);
  }
}

/** The audio types Azure's short-audio recognition takes, with the Content-Type it wants for each. */
const STT_TYPES: Record<string, string> = {
  'audio/wav': 'audio/wav; codecs=audio/pcm',
  'audio/ogg': 'audio/ogg; codecs=opus',
};

/** Azure speech to text for short audio (up to 60 s): POST .../speech/recognition/conversation/cognitiveservices/v1. */
export class AzureTranscriber implements Transcriber {
  readonly name = ENGINE;
  readonly detectsLanguage = false;
  readonly languages: ReadonlySet<string> = new Set(Object.keys(DEFAULT_LOCALES));

  constructor(private readonly settings: AzureSpeechSettings) {}

  accepts(contentType: string): boolean {
    return contentType in STT_TYPES;
  }

  async transcribe({ audio, language, signal }: TranscribeRequest): Promise<TranscriberResult> {
    const locale = DEFAULT_LOCALES[language ?? 'en'] ?? 'en-US';
    const url = joinUrl(
      this.settings.sttBaseUrl,
      `/speech/recognition/conversation/cognitiveservices/v1?language=${locale}&format=detailed`,
    );
    const res = await postToProvider(
      ENGINE,
      url,
      {
        headers: {
          'ocp-apim-subscription-key': this.settings.key,
          'content-type': STT_TYPES[audio.contentType]!,
          accept: 'application/json',
        },
        body: new Uint8Array(audio.bytes),
      },
      signal,
    );
    const body = (await readJson(ENGINE, res)) as {
      RecognitionStatus?: string;
      DisplayText?: string;
      NBest?: { Confidence?: number; Display?: string }[];
    };
    if (body?.RecognitionStatus === 'NoMatch' || body?.RecognitionStatus === 'InitialSilenceTimeout')
      return { text: '' };
    if (body?.RecognitionStatus !== 'Success') throw new CloudProviderError(ENGINE, 'did not recognize the audio');
    const best = body.NBest?.[0];
    return {
      text: (best?.Display ?? body.DisplayText ?? '').trim(),
      ...(typeof best?.Confidence === 'number' ? { confidence: best.Confidence } : {}),
    };
  }
}
