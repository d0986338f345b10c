import type { PcmAudio, SpeechProvider, SpeechRequest, SpeechVoice } from '../speech/speechProvider';
import type { TranscribeRequest, Transcriber, TranscriberResult } from '../transcription/transcriber';
import { CloudProviderError, joinUrl, postToProvider, readAudio, readJson } from './cloudHttp';
import { localeVoices } from './cloudVoices';
import { decodeWav } from './pcm';

export interface KhayaSettings {
  apiKey: string;
  baseUrl: string;
}

const ENGINE = 'khaya';

/** GhanaNLP Khaya's speakers (its TTS reads Twi, Ewe and Kikuyu). */
const VOICES = [
  { locale: 'tw-GH', language: 'tw', engineVoice: 'twi_speaker_4', name: 'Twi speaker 4', gender: 'female' },
  { locale: 'tw-GH', language: 'tw', engineVoice: 'twi_speaker_5', name: 'Twi speaker 5', gender: 'male' },
  { locale: 'ee-GH', language: 'ee', engineVoice: 'ewe_speaker_3', name: 'Ewe speaker 3', gender: 'female' },
  { locale: 'ki-KE', language: 'ki', engineVoice: 'kikuyu_speaker_1', name: 'Kikuyu speaker 1', gender: 'female' },
] as const;

/** The languages Khaya's speech recognition (ASR v1) takes: Twi, Ga, Ewe, Dagbani, Yoruba, Hausa, Kikuyu. */
const ASR_LANGUAGES = ['tw', 'gaa', 'ee', 'dag', 'yo', 'ha', 'ki'];

const headers = (apiKey: string) => ({ 'ocp-apim-subscription-key': apiKey, 'cache-control': 'no-cache' });

/** GhanaNLP Khaya text to speech: POST /tts/v1/synthesize {text, language, speaker_id} → WAV. */
export class KhayaSpeech implements SpeechProvider {
  readonly name = ENGINE;
  readonly available = true;
  readonly remote = true;
  readonly sampleRate = 16_000;
  private readonly voiceList = localeVoices(ENGINE, [...VOICES]);

  constructor(private readonly settings: KhayaSettings) {}

  voices(): SpeechVoice[] {
    return this.voiceList;
  }

  async synthesize({ text, voice, signal }: SpeechRequest): Promise<PcmAudio> {
    const res = await postToProvider(
      ENGINE,
      joinUrl(this.settings.baseUrl, '/tts/v1/synthesize'),
      {
        headers: { ...headers(this.settings.apiKey), 'content-type': 'application/json' },
        body: JSON.stringify({ text, language: voice.languages[0], speaker_id: voice.engineVoice }),
      },
      signal,
    );
    try {
      return decodeWav(await readAudio(ENGINE, res));
    } catch (err) {
      if (err instanceof CloudProviderError) throw err;
      throw new CloudProviderError(ENGINE, (err as Error).message);
    }
  }
}

/** GhanaNLP Khaya speech recognition: POST /asr/v1/transcribe?language=tw with the audio as the body. */
export class KhayaTranscriber implements Transcriber {
  readonly name = ENGINE;
  readonly detectsLanguage = false;
  readonly languages: ReadonlySet<string> = new Set(ASR_LANGUAGES);

  constructor(private readonly settings: KhayaSettings) {}

  accepts(contentType: string): boolean {
    return contentType === 'audio/wav' || contentType === 'audio/mpeg' || contentType === 'audio/ogg';
  }

  async transcribe({ audio, language, signal }: TranscribeRequest): Promise<TranscriberResult> {
    const res = await postToProvider(
      ENGINE,
      joinUrl(this.settings.baseUrl, `/asr/v1/transcribe?language=${encodeURIComponent(language ?? 'tw')}`),
      {
        headers: { ...headers(this.settings.apiKey), 'content-type': audio.contentType },
        body: new Uint8Array(audio.bytes),
      },
      signal,
    );
    // The answer is the transcript as a JSON string; an object with `text` is read too.
    const body = await readJson(ENGINE, res);
    const text =
      typeof body === 'string'
        ? body
        : typeof (body as { text?: unknown })?.text === 'string'
          ? (body as { text: string }).text
          : undefined;
    if (text === undefined) throw new CloudProviderError(ENGINE, 'sent no transcript');
    return { text: text.trim() };
  }
}
