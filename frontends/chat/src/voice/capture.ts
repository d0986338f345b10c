import { transcribe } from './voiceApi';
import { microphoneFailure, messageLanguage, VoiceError } from './voiceFailures';

/** What the push-to-talk control shows while it works. */
export type CaptureState = 'listening' | 'transcribing' | 'idle';

export interface CaptureEvents {
  onState(state: CaptureState): void;
  /** The words heard so far (the browser's own recognition only). */
  onInterim(text: string): void;
  /** The transcript, and the language to send it with. */
  onTranscript(text: string, language: string): void;
  onError(error: VoiceError): void;
}

export interface Capture {
  /** Stops listening and sends what was heard. */
  finish(): void;
  /** Stops listening and drops it. */
  cancel(): void;
}

interface RecognitionResultList {
  length: number;
  [index: number]: { isFinal: boolean; 0: { transcript: string } };
}
interface Recognition {
  lang: string;
  interimResults: boolean;
  continuous: boolean;
  onresult: ((event: { resultIndex: number; results: RecognitionResultList }) => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}
type RecognitionConstructor = new () => Recognition;

/**
 * Set after the browser's recognition failed for a reason the browser cannot fix (its speech service unreachable):
 * the next push-to-talk records and uses Kasa's transcription instead.
 */
let recognitionBroken = false;

function browserRecognition(): RecognitionConstructor | undefined {
  if (recognitionBroken) return undefined;
  const scope = window as unknown as {
    SpeechRecognition?: RecognitionConstructor;
    webkitSpeechRecognition?: RecognitionConstructor;
  };
  return scope.SpeechRecognition ?? scope.webkitSpeechRecognition;
}

/**
 * Starts listening in `language` (a BCP 47 tag or `auto`): with the browser's SpeechRecognition where there is one,
 * else by recording with MediaRecorder and sending the recording to POST /api/voice/transcribe.
 */
export function startCapture(language: string, events: CaptureEvents): Capture {
  const Recognition = browserRecognition();
  return Recognition ? recognize(Recognition, language, events) : record(language, events);
}

function recognize(Recognition: RecognitionConstructor, language: string, events: CaptureEvents): Capture {
  const recognition = new Recognition();
  recognition.lang = language === 'auto' ? navigator.language : language;
  recognition.interimResults = true;
  recognition.continuous = true;
  let finalText = '';
  let interim = '';
  let failed = false;
  let cancelled = false;
  recognition.onresult = (event) => {
    interim = '';
    for (let i = event.resultIndex; i < event.results.length; i++) {
      const result = event.results[i]!;
      if (result.isFinal) finalText += result[0].transcript;
      else interim += result[0].transcript;
    }
    events.onInterim(`${finalText}${interim}`.trim());
  };
  recognition.onerror = (event) => {
    if (event.error === 'aborted') return;
    failed = true;
    if (
      event.error === 'network' ||
      event.error === 'service-not-allowed' ||
      event.error === 'language-not-supported'
    ) {
      recognitionBroken = true;
      events.onError(
        new VoiceError(
          "This browser's speech recognition is unavailable. Press Push to talk again to record instead, or send an audio file.",
        ),
      );
      return;
    }
    events.onError(microphoneFailure(event.error));
  };
  recognition.onend = () => {
    events.onState('idle');
    const text = `${finalText}${interim}`.trim();
    if (failed || cancelled) return;
    if (!text) events.onError(microphoneFailure('no-speech'));
    else events.onTranscript(text, messageLanguage(language, null));
  };
  try {
    recognition.start();
    events.onState('listening');
  } catch {
    events.onError(microphoneFailure('unknown'));
  }
  return {
    finish: () => recognition.stop(),
    cancel: () => {
      cancelled = true;
      recognition.abort();
    },
  };
}

/** The recording formats Kasa's transcription reads, best first. */
const RECORDING_TYPES = ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus', 'audio/webm', 'audio/mp4'];

function record(language: string, events: CaptureEvents): Capture {
  let recorder: MediaRecorder | null = null;
  let stream: MediaStream | null = null;
  let finished = false;
  let cancelled = false;
  const chunks: Blob[] = [];
  const release = () => stream?.getTracks().forEach((track) => track.stop());

  const begin = async () => {
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined') {
      events.onError(new VoiceError('This browser cannot record audio. Send an audio file instead.'));
      return;
    }
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (error) {
      events.onState('idle');
      events.onError(microphoneFailure(error instanceof DOMException ? error.name : 'unknown'));
      return;
    }
    if (cancelled) return release();
    const mimeType = RECORDING_TYPES.find((type) => MediaRecorder.isTypeSupported(type));
    recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) chunks.push(event.data);
    };
    recorder.onstop = () => {
      release();
      if (cancelled) return events.onState('idle');
      const audio = new Blob(chunks, { type: recorder?.mimeType || mimeType || 'audio/webm' });
      if (audio.size === 0) {
        events.onState('idle');
        events.onError(microphoneFailure('no-speech'));
        return;
      }
      void transcribeAndSend(audio, language, events);
    };
    recorder.start();
    events.onState('listening');
    if (finished) recorder.stop(); // released before the microphone was ready
  };
  void begin();

  return {
    finish: () => {
      finished = true;
      if (recorder?.state === 'recording') recorder.stop();
    },
    cancel: () => {
      cancelled = true;
      if (recorder?.state === 'recording') recorder.stop();
      else release();
    },
  };
}

/** Sends recorded audio or an audio file to Kasa's transcription, then the transcript on as a voice message. */
export async function transcribeAndSend(audio: Blob, language: string, events: CaptureEvents): Promise<void> {
  events.onState('transcribing');
  try {
    const transcript = await transcribe(audio, language);
    const text = transcript.text.trim();
    events.onState('idle');
    if (!text) events.onError(new VoiceError('No speech was found in that audio. Try another recording.'));
    else events.onTranscript(text, messageLanguage(language, transcript.language));
  } catch (error) {
    events.onState('idle');
    events.onError(error instanceof VoiceError ? error : new VoiceError('Transcription failed. Please try again.'));
  }
}
