// What a failed voice call says to the person. Pure functions, so that they are tested without a browser.

/** A voice call failed; `upgrade` means the plan does not include voice (the notice then links to /pricing). */
export class VoiceError extends Error {
  override readonly name = 'VoiceError';

  constructor(
    message: string,
    readonly kind: 'upgrade' | 'unavailable' | 'permission' | 'failed' = 'failed',
  ) {
    super(message);
  }
}

export const UPGRADE_MESSAGE = 'Voice is part of the Pro plan.';

function serverMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || !('message' in body)) return undefined;
  const { message } = body as { message: unknown };
  return typeof message === 'string' && message.trim() ? message.trim() : undefined;
}

/** A non-OK answer of POST /api/voice/transcribe. */
export function transcribeFailure(status: number, body: unknown): VoiceError {
  const said = serverMessage(body);
  if (status === 403) return new VoiceError(UPGRADE_MESSAGE, 'upgrade');
  if (status === 401) return new VoiceError('Your sign-in has expired. Sign in again to use voice.');
  // No speech-to-text provider is configured, or none answered: the server's reason names providers, which means
  // nothing to the person, so say what it means for them.
  if (status === 503 || status === 404 || status === 501)
    return new VoiceError(
      'Transcription is unavailable on this server. Type your message instead, or try again later.',
      'unavailable',
    );
  if (status === 413) return new VoiceError('That recording is too long to transcribe. Send a shorter one.');
  if (status === 400 || status === 415)
    return new VoiceError(`${said ?? 'The audio could not be read'}. Try another recording or file.`);
  if (status === 429) return new VoiceError(said ?? 'Too many requests. Wait a moment and try again.');
  return new VoiceError(`Transcription failed${said ? `: ${said}` : ''}. Please try again.`);
}

/** A non-OK answer of POST /api/voice/synthesize (or of the voice list before it). */
export function synthesizeFailure(status: number, body: unknown): VoiceError {
  const said = serverMessage(body);
  if (status === 403) return new VoiceError(UPGRADE_MESSAGE, 'upgrade');
  if (status === 401) return new VoiceError('Your sign-in has expired. Sign in again to listen.');
  if (status === 503) return new VoiceError(said ?? 'Speech is unavailable on this server right now.', 'unavailable');
  if (status === 400 && said) return new VoiceError(said);
  return new VoiceError(`The reply could not be read aloud${said ? `: ${said}` : ''}. Try again.`);
}

/** A failure of the microphone (getUserMedia's DOMException, or SpeechRecognition's error code). */
export function microphoneFailure(name: string): VoiceError {
  switch (name) {
    case 'NotAllowedError':
    case 'SecurityError':
    case 'not-allowed':
    case 'service-not-allowed':
      return new VoiceError(
        "Microphone access was denied. Allow the microphone for this site in your browser's settings, then try again (or send an audio file).",
        'permission',
      );
    case 'NotFoundError':
    case 'OverconstrainedError':
    case 'audio-capture':
      return new VoiceError('No microphone was found. Connect one and try again, or send an audio file.');
    case 'NotReadableError':
      return new VoiceError('The microphone is in use by another program. Close it and try again.');
    case 'no-speech':
      return new VoiceError('No speech was heard. Hold the button while you speak, then let go.');
    case 'language-not-supported':
      return new VoiceError('This browser cannot listen in the chosen language. Send an audio file instead.');
    default:
      return new VoiceError('Listening failed. Try again, or send an audio file.');
  }
}

/**
 * The language a transcript is sent with: the person's choice wins; with `auto`, the language the transcription
 * heard, when it is a language tag; otherwise `auto` (the chat service then detects it from the text).
 */
export function messageLanguage(chosen: string, heard: string | null | undefined): string {
  if (chosen !== 'auto') return chosen;
  return heard && /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(heard) ? heard : 'auto';
}
