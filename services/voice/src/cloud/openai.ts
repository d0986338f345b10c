import type { PcmAudio, SpeechProvider, SpeechRequest, SpeechVoice } from '../speech/speechProvider';
import {
  FILE_EXTENSIONS,
  type TranscribeRequest,
  type Transcriber,
  type TranscriberResult,
  type TranscriptSegment,
} from '../transcription/transcriber';
import { CloudProviderError, joinUrl, postToProvider, readAudio, readJson } from './cloudHttp';
import { multilingualVoices } from './cloudVoices';
import { rawPcm } from './pcm';

export interface OpenAiSettings {
  apiKey: string;
  /** Including the version path, as OPENAI_BASE_URL is everywhere in Kasa: https://api.openai.com/v1. */
  baseUrl: string;
  ttsModel: string;
  transcribeModel: string;
  /** Catalogue codes of the languages OpenAI's models handle. */
  languages: string[];
}

const ENGINE = 'openai';
/** `response_format: pcm` is 24 kHz, 16-bit, mono, little-endian. */
const PCM_RATE = 24_000;

/** OpenAI text to speech: POST /v1/audio/speech. Every voice reads every language the model knows. */
export class OpenAiSpeech implements SpeechProvider {
  readonly name = ENGINE;
  readonly available = true;
  readonly remote = true;
  readonly sampleRate = PCM_RATE;
  private readonly voiceList: SpeechVoice[];

  constructor(private readonly settings: OpenAiSettings) {
    this.voiceList = multilingualVoices(
      ENGINE,
      [
        { id: 'alloy', name: 'Alloy', engineVoice: 'alloy' },
        { id: 'nova', name: 'Nova', gender: 'female', engineVoice: 'nova' },
        { id: 'shimmer', name: 'Shimmer', gender: 'female', engineVoice: 'shimmer' },
        { id: 'echo', name: 'Echo', gender: 'male', engineVoice: 'echo' },
        { id: 'onyx', name: 'Onyx', gender: 'male', engineVoice: 'onyx' },
        { id: 'fable', name: 'Fable', engineVoice: 'fable' },
      ],
      settings.languages,
    );
  }

  voices(): SpeechVoice[] {
    return this.voiceList;
  }

  async synthesize({ text, voice, signal }: SpeechRequest): Promise<PcmAudio> {
    const res = await postToProvider(
      ENGINE,
      joinUrl(this.settings.baseUrl, '/audio/speech'),
      {
        headers: { authorization: `Bearer ${this.settings.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          model: this.settings.ttsModel,
          voice: voice.engineVoice,
          input: text,
          response_format: 'pcm',
        }),
      },
      signal,
    );
    return rawPcm(await readAudio(ENGINE, res), PCM_RATE);
  }
}

/** What OpenAiTranscriber needs: OpenAI's own API, or another that speaks its transcriptions (Groq). */
export type OpenAiTranscriberSettings = Pick<OpenAiSettings, 'apiKey' | 'baseUrl' | 'transcribeModel' | 'languages'> & {
  /** The name attempts, breakers and the status report use (default `openai`): a provider added in the browser's. */
  name?: string;
};

/**
 * OpenAI speech to text: POST /v1/audio/transcriptions (multipart), with language detection when none is given. The
 * same API serves Groq's Whisper models (at its OpenAI-compatible address).
 */
export class OpenAiTranscriber implements Transcriber {
  readonly name: string;
  readonly detectsLanguage = true;
  readonly languages: ReadonlySet<string>;

  constructor(
    private readonly settings: OpenAiTranscriberSettings,
    /** The catalogue code of an English language name ("swahili" → sw), as whisper's verbose answer names it. */
    private readonly codeForName: (name: string) => string | undefined,
  ) {
    this.name = settings.name ?? ENGINE;
    this.languages = new Set(settings.languages);
  }

  accepts(contentType: string): boolean {
    return contentType in FILE_EXTENSIONS;
  }

  async transcribe({ audio, language, signal }: TranscribeRequest): Promise<TranscriberResult> {
    const form = new FormData();
    const extension = FILE_EXTENSIONS[audio.contentType] ?? 'bin';
    form.append('file', new Blob([new Uint8Array(audio.bytes)], { type: audio.contentType }), `audio.${extension}`);
    form.append('model', this.settings.transcribeModel);
    // whisper-1 names the language it heard only in its verbose answer; the newer models answer plain json.
    const verbose = this.settings.transcribeModel.startsWith('whisper');
    form.append('response_format', verbose ? 'verbose_json' : 'json');
    if (language) form.append('language', language);
    const res = await postToProvider(
      this.name,
      joinUrl(this.settings.baseUrl, '/audio/transcriptions'),
      { headers: { authorization: `Bearer ${this.settings.apiKey}` }, body: form },
      signal,
    );
    const body = (await readJson(this.name, res)) as {
      text?: unknown;
      language?: unknown;
      duration?: unknown;
      segments?: unknown;
    };
    if (typeof body?.text !== 'string') throw new CloudProviderError(this.name, 'sent no transcript');
    const heard = typeof body.language === 'string' ? this.codeForName(body.language) : undefined;
    const segments = Array.isArray(body.segments) ? body.segments.flatMap(segmentOf) : [];
    return {
      text: body.text.trim(),
      ...(heard ? { language: heard } : {}),
      ...(typeof body.duration === 'number' && body.duration >= 0 ? { duration: body.duration } : {}),
      ...(segments.length ? { segments } : {}),
    };
  }
}

const SEGMENT_NUMBERS = ['seek', 'temperature', 'avg_logprob', 'compression_ratio', 'no_speech_prob'] as const;

/** A segment of the verbose answer, with only the fields of OpenAI's shape (nothing else the provider sent). */
function segmentOf(raw: unknown): TranscriptSegment[] {
  const s = raw as Record<string, unknown> | null;
  if (!s || typeof s.text !== 'string' || typeof s.start !== 'number' || typeof s.end !== 'number') return [];
  const segment: TranscriptSegment = {
    id: typeof s.id === 'number' ? s.id : 0,
    start: s.start,
    end: s.end,
    text: s.text,
  };
  for (const name of SEGMENT_NUMBERS) if (typeof s[name] === 'number') segment[name] = s[name];
  if (Array.isArray(s.tokens) && s.tokens.every((t) => typeof t === 'number')) segment.tokens = s.tokens;
  return [segment];
}
