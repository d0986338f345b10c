// The real-time detector alone: the package's index also pulls in the offline one and a second ONNX Runtime build.
import { MicVAD } from '@ricky0123/vad-web/dist/real-time-vad';
import { transcribe } from './voiceApi';
import { messageLanguage, microphoneFailure, VoiceError } from './voiceFailures';
import { wavFromSamples } from './wavEncoding';

/** Where webpack loads this remote's chunks from (set at run time: the remote can be served at any path). */
declare const __webpack_public_path__: string;

/** Where the build puts the detector's model, its audio worklet and ONNX Runtime's WebAssembly (webpack.config.js). */
const VAD_ASSETS = new URL('vad/', __webpack_public_path__).href;
/** The detector hands out speech at 16 kHz. */
const VAD_SAMPLE_RATE = 16_000;

/** How much silence ends the person's turn. */
const END_OF_TURN_SILENCE_MS = 560;

/** Performance mark of the end of the person's speech (the turn's start, for the voice-mode turn latency). */
export const SPEECH_END_MARK = 'kasa:hands-free:speech-end';

export interface HandsFreeEvents {
  /** The person started speaking: over Kasa, it is a barge-in. */
  onSpeechStart(): void;
  /** What was heard was too short to be speech (a cough, a click). */
  onMisfire(): void;
  /** The person stopped speaking; their words are being transcribed. */
  onTranscribing(): void;
  /** What they said, to send as a voice message, with its language. */
  onTranscript(text: string, language: string): void;
  /** Nothing was heard in that speech, or it could not be transcribed: listening goes on. */
  onError(error: VoiceError): void;
}

export interface HandsFree {
  /** Stops listening and lets the microphone go. */
  stop(): Promise<void>;
}

/**
 * Hands-free voice: a voice activity detector (Silero VAD, whose model ships inside @ricky0123/vad-web, run by ONNX
 * Runtime Web in WebAssembly) listens on the microphone. The end of a stretch of speech is the end of the person's
 * turn: the speech goes to POST /api/voice/transcribe as a WAV and the transcript is sent. Speech that starts while
 * Kasa talks is reported at once, so that the caller can stop the reply (barge-in). The browser's echo cancellation
 * keeps Kasa's own voice out of the microphone.
 */
export async function startHandsFree(language: string, events: HandsFreeEvents): Promise<HandsFree> {
  let stopped = false;
  let vad: MicVAD;
  try {
    vad = await MicVAD.new({
      model: 'v5',
      baseAssetPath: VAD_ASSETS,
      onnxWASMBasePath: VAD_ASSETS,
      // A short pause is not the end of a turn; half a second of silence is.
      redemptionMs: END_OF_TURN_SILENCE_MS,
      minSpeechMs: 250,
      preSpeechPadMs: 300,
      startOnLoad: false,
      onSpeechStart: () => {
        if (!stopped) events.onSpeechStart();
      },
      onVADMisfire: () => {
        if (!stopped) events.onMisfire();
      },
      onSpeechEnd: (audio: Float32Array) => {
        if (stopped) return;
        // The person stopped speaking when the silence that ended the turn began, not when it was judged long enough.
        performance.mark(SPEECH_END_MARK, { startTime: Math.max(0, performance.now() - END_OF_TURN_SILENCE_MS) });
        void sendSpeech(audio);
      },
    });
  } catch (error) {
    const name = error instanceof DOMException ? error.name : '';
    if (name) throw microphoneFailure(name);
    throw new VoiceError('Hands-free voice could not start in this browser. Use push to talk instead.');
  }

  async function sendSpeech(audio: Float32Array) {
    events.onTranscribing();
    try {
      const transcript = await transcribe(wavFromSamples(audio, VAD_SAMPLE_RATE), language);
      if (stopped) return;
      const text = transcript.text.trim();
      if (text) events.onTranscript(text, messageLanguage(language, transcript.language));
      else events.onError(new VoiceError('Nothing was heard. Say it again.'));
    } catch (error) {
      if (!stopped) {
        events.onError(error instanceof VoiceError ? error : new VoiceError('Transcription failed. Say it again.'));
      }
    }
  }

  await vad.start();
  return {
    async stop() {
      stopped = true;
      await vad.destroy();
    },
  };
}
