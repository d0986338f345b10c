import type { PcmAudio, SpeechProvider, SpeechRequest, SpeechVoice } from '../speech/speechProvider';
import type { TranscribeRequest, Transcriber, TranscriberResult } from '../transcription/transcriber';
import { CloudProviderError, joinUrl, postToProvider, readJson } from './cloudHttp';
import { DEFAULT_LOCALES, localeVoices } from './cloudVoices';
import { decodeWav, rawPcm } from './pcm';

export interface GoogleSpeechSettings {
  apiKey: string;
  baseUrl: string;
}

const ENGINE = 'google';
const PCM_RATE = 24_000;

/** Google Cloud Text-to-Speech voices Kasa offers, one per language. */
const VOICES = [
  { locale: 'en-US', language: 'en', engineVoice: 'en-US-Standard-C', name: 'US English C', gender: 'female' },
  { locale: 'en-GB', language: 'en', engineVoice: 'en-GB-Standard-B', name: 'UK English B', gender: 'male' },
  { locale: 'sw-KE', language: 'sw', engineVoice: 'sw-KE-Standard-A', name: 'Swahili A', gender: 'female' },
  { locale: 'af-ZA', language: 'af', engineVoice: 'af-ZA-Standard-A', name: 'Afrikaans A', gender: 'female' },
  { locale: 'am-ET', language: 'am', engineVoice: 'am-ET-Standard-A', name: 'Amharic A', gender: 'female' },
  { locale: 'fr-FR', language: 'fr', engineVoice: 'fr-FR-Standard-A', name: 'French A', gender: 'female' },
  { locale: 'es-ES', language: 'es', engineVoice: 'es-ES-Standard-A', name: 'Spanish A', gender: 'female' },
  { locale: 'de-DE', language: 'de', engineVoice: 'de-DE-Standard-A', name: 'German A', gender: 'female' },
  { locale: 'pt-BR', language: 'pt', engineVoice: 'pt-BR-Standard-A', name: 'Portuguese A', gender: 'female' },
  { locale: 'ar-XA', language: 'ar', engineVoice: 'ar-XA-Standard-A', name: 'Arabic A', gender: 'female' },
  { locale: 'cmn-CN', language: 'zh', engineVoice: 'cmn-CN-Standard-A', name: 'Mandarin A', gender: 'female' },
  { locale: 'hi-IN', language: 'hi', engineVoice: 'hi-IN-Standard-A', name: 'Hindi A', gender: 'female' },
  { locale: 'ja-JP', language: 'ja', engineVoice: 'ja-JP-Standard-A', name: 'Japanese A', gender: 'female' },
] as const;

/** Google Cloud Text-to-Speech: POST /v1/text:synthesize, LINEAR16 audio as base64 `audioContent` (a WAV). */
export class GoogleSpeech implements SpeechProvider {
  readonly name = ENGINE;
  readonly available = true;
  readonly remote = true;
  readonly sampleRate = PCM_RATE;
  private readonly voiceList = localeVoices(ENGINE, [...VOICES]);

  constructor(private readonly settings: GoogleSpeechSettings) {}

  voices(): SpeechVoice[] {
    return this.voiceList;
  }

  async synthesize({ text, voice, signal }: SpeechRequest): Promise<PcmAudio> {
    const res = await postToProvider(
      ENGINE,
      joinUrl(this.settings.baseUrl, '/v1/text:synthesize'),
      {
        headers: { 'x-goog-api-key': this.settings.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({
          input: { text },
          voice: { languageCode: voice.locale, name: voice.engineVoice },
          audioConfig: { audioEncoding: 'LINEAR16', sampleRateHertz: PCM_RATE },
        }),
      },
      signal,
    );
    const body = (await readJson(ENGINE, res)) as { audioContent?: unknown };
    if (typeof body?.audioContent !== 'string' || !body.audioContent)
      throw new CloudProviderError(ENGINE, 'sent no audio');
    const bytes = Buffer.from(body.audioContent, 'base64');
    // LINEAR16 comes with a WAV header; read it rather than trusting the rate asked for.
    try {
      return bytes.toString('ascii', 0, 4) === 'RIFF' ? decodeWav(bytes) : rawPcm(bytes, PCM_RATE);
    } catch (err) {
      throw new CloudProviderError(ENGINE, (err as Error).message);
    }
  }
}

/** The encodings Google's recognizer is told for each upload type (WAV: it reads the header itself). */
const STT_ENCODINGS: Record<string, { encoding?: string; sampleRateHertz?: number }> = {
  'audio/wav': {},
  'audio/webm': { encoding: 'WEBM_OPUS', sampleRateHertz: 48_000 },
  'audio/ogg': { encoding: 'OGG_OPUS', sampleRateHertz: 48_000 },
};

/** Google Cloud Speech-to-Text: POST /v1/speech:recognize with the audio inline (base64, up to 60 s). */
export class GoogleTranscriber implements Transcriber {
  readonly name = ENGINE;
  readonly detectsLanguage = false;
  readonly languages: ReadonlySet<string> = new Set(Object.keys(DEFAULT_LOCALES));

  constructor(private readonly settings: GoogleSpeechSettings) {}

  accepts(contentType: string): boolean {
    return contentType in STT_ENCODINGS;
  }

  async transcribe({ audio, language, signal }: TranscribeRequest): Promise<TranscriberResult> {
    const res = await postToProvider(
      ENGINE,
      joinUrl(this.settings.baseUrl, '/v1/speech:recognize'),
      {
        headers: { 'x-goog-api-key': this.settings.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({
          config: {
            languageCode: DEFAULT_LOCALES[language ?? 'en'] ?? 'en-US',
            enableAutomaticPunctuation: true,
            ...STT_ENCODINGS[audio.contentType],
          },
          audio: { content: audio.bytes.toString('base64') },
        }),
      },
      signal,
    );
    const body = (await readJson(ENGINE, res)) as {
      results?: { alternatives?: { transcript?: string; confidence?: number }[] }[];
    };
    const best = (body?.results ?? []).map((r) => r.alternatives?.[0]).filter((a) => !!a);
    const text = best
      .map((a) => a.transcript ?? '')
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    const confidences = best.map((a) => a.confidence).filter((c): c is number => typeof c === 'number');
    return {
      text,
      ...(confidences.length ? { confidence: confidences.reduce((a, b) => a + b, 0) / confidences.length } : {}),
    };
  }
}
