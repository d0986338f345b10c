import type { PcmAudio, SpeechProvider, SpeechRequest, SpeechVoice } from '../speech/speechProvider';
import {
  FILE_EXTENSIONS,
  type TranscribeRequest,
  type Transcriber,
  type TranscriberResult,
} from '../transcription/transcriber';
import { CloudProviderError, joinUrl, postToProvider, readAudio, readJson } from './cloudHttp';
import { localeVoices } from './cloudVoices';
import { decodeWav } from './pcm';

export interface SpitchSettings {
  apiKey: string;
  baseUrl: string;
}

const ENGINE = 'spitch';

/**
 * Spitch's voices for the Nigerian and Ethiopian languages it specializes in. Its English voices are not offered:
 * English goes to the general clouds, which Kasa prefers for it.
 */
const VOICES = [
  { locale: 'yo-NG', language: 'yo', engineVoice: 'sade', name: 'Sade', gender: 'female' },
  { locale: 'yo-NG', language: 'yo', engineVoice: 'segun', name: 'Segun', gender: 'male' },
  { locale: 'ha-NG', language: 'ha', engineVoice: 'amina', name: 'Amina', gender: 'female' },
  { locale: 'ha-NG', language: 'ha', engineVoice: 'aliyu', name: 'Aliyu', gender: 'male' },
  { locale: 'ig-NG', language: 'ig', engineVoice: 'ngozi', name: 'Ngozi', gender: 'female' },
  { locale: 'ig-NG', language: 'ig', engineVoice: 'obinna', name: 'Obinna', gender: 'male' },
  { locale: 'am-ET', language: 'am', engineVoice: 'hana', name: 'Hana', gender: 'female' },
] as const;

const ASR_LANGUAGES = ['yo', 'ha', 'ig', 'am'];

/** Spitch text to speech: POST /v1/speech {text, language, voice, format: wav}. */
export class SpitchSpeech implements SpeechProvider {
  readonly name = ENGINE;
  readonly available = true;
  readonly remote = true;
  readonly sampleRate = 24_000;
  private readonly voiceList = localeVoices(ENGINE, [...VOICES]);

  constructor(private readonly settings: SpitchSettings) {}

  voices(): SpeechVoice[] {
    return this.voiceList;
  }

  async synthesize({ text, voice, signal }: SpeechRequest): Promise<PcmAudio> {
    const res = await postToProvider(
      ENGINE,
      joinUrl(this.settings.baseUrl, '/v1/speech'),
      {
        headers: { authorization: `Bearer ${this.settings.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ text, language: voice.languages[0], voice: voice.engineVoice, format: 'wav' }),
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

/** Spitch speech to text: POST /v1/transcriptions (multipart: `content` and `language`). */
export class SpitchTranscriber implements Transcriber {
  readonly name = ENGINE;
  readonly detectsLanguage = false;
  readonly languages: ReadonlySet<string> = new Set(ASR_LANGUAGES);

  constructor(private readonly settings: SpitchSettings) {}

  accepts(contentType: string): boolean {
    return contentType in FILE_EXTENSIONS;
  }

  async transcribe({ audio, language, signal }: TranscribeRequest): Promise<TranscriberResult> {
    const form = new FormData();
    form.append(
      'content',
      new Blob([new Uint8Array(audio.bytes)], { type: audio.contentType }),
      `audio.${FILE_EXTENSIONS[audio.contentType] ?? 'bin'}`,
    );
    form.append('language', language ?? 'yo');
    const res = await postToProvider(
      ENGINE,
      joinUrl(this.settings.baseUrl, '/v1/transcriptions'),
      { headers: { authorization: `Bearer ${this.settings.apiKey}` }, body: form },
      signal,
    );
    const body = (await readJson(ENGINE, res)) as { text?: unknown };
    if (typeof body?.text !== 'string') throw new CloudProviderError(ENGINE, 'sent no transcript');
    return { text: body.text.trim() };
  }
}
