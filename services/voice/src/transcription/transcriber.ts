/** Audio a client uploaded, already checked (type and size). */
export interface UploadedAudio {
  bytes: Buffer;
  /** One of TRANSCRIBE_AUDIO_TYPES, without parameters. */
  contentType: string;
}

export interface TranscribeRequest {
  audio: UploadedAudio;
  /** The language the user chose (a catalogue code); undefined asks the provider to detect it. */
  language?: string;
  signal: AbortSignal;
}

export interface TranscriberResult {
  text: string;
  /** The language the provider heard, when it says (a catalogue code). */
  language?: string;
  confidence?: number;
  /** Seconds of audio, when the provider says. */
  duration?: number;
  /** Timed pieces of the transcript, when the provider gives them (OpenAI's Whisper does). */
  segments?: TranscriptSegment[];
}

/** One timed piece of a transcript, with what the provider said about it (OpenAI's segment fields). */
export interface TranscriptSegment {
  id: number;
  /** Seconds from the start of the recording. */
  start: number;
  end: number;
  text: string;
  seek?: number;
  tokens?: number[];
  temperature?: number;
  avg_logprob?: number;
  compression_ratio?: number;
  no_speech_prob?: number;
}

/** One speech-to-text provider. Kasa has no offline recognizer: every transcriber is a cloud service. */
export interface Transcriber {
  readonly name: string;
  /** Catalogue codes of the languages it recognizes. */
  readonly languages: ReadonlySet<string>;
  /** Whether it can be asked without a language (it detects the language itself). */
  readonly detectsLanguage: boolean;
  /** Whether it takes this audio type as uploaded. */
  accepts(contentType: string): boolean;
  transcribe(request: TranscribeRequest): Promise<TranscriberResult>;
}

/** File names for multipart uploads: some providers tell the format by the extension. */
export const FILE_EXTENSIONS: Record<string, string> = {
  'audio/webm': 'webm',
  'audio/ogg': 'ogg',
  'audio/wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
};
