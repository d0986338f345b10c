import { clearToken, getToken } from '@kasa/api-client';
import type { Language, SynthesizeResponse, TranscribeResponse, VoiceList } from '@kasa/contracts';
import { synthesizeFailure, transcribeFailure, VoiceError } from './voiceFailures';

/** POST /api/voice/transcribe's answer: the text, its language and the provider that heard it. */
export type Transcript = TranscribeResponse;

const NETWORK_FAILURE = 'Could not reach Kasa. Check your connection and try again.';

async function call(url: string, init: RequestInit, failure: (status: number, body: unknown) => VoiceError) {
  const token = getToken();
  const headers = new Headers(init.headers);
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');
  if (token) headers.set('Authorization', `Bearer ${token}`);
  let response: Response;
  try {
    response = await fetch(url, { ...init, headers, credentials: 'include' });
  } catch (error) {
    if (init.signal?.aborted) throw error;
    throw new VoiceError(NETWORK_FAILURE);
  }
  if (response.ok) return response;
  if (response.status === 401) clearToken();
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  throw failure(response.status, body);
}

/** Sends recorded audio or an audio file for transcription; `language` (a BCP 47 tag) is left out for `auto`. */
export async function transcribe(audio: Blob, language: string, signal?: AbortSignal): Promise<Transcript> {
  const form = new FormData();
  const name = audio instanceof File && audio.name ? audio.name : `recording.${extensionOf(audio.type)}`;
  form.append('audio', audio, name);
  if (language !== 'auto') form.append('language', language);
  const response = await call('/api/voice/transcribe', { method: 'POST', body: form, signal }, transcribeFailure);
  const body = (await response.json()) as Transcript;
  if (typeof body.text !== 'string') throw new VoiceError('Transcription gave no text. Please try again.');
  return body;
}

function extensionOf(type: string): string {
  if (type.includes('ogg')) return 'ogg';
  if (type.includes('mp4') || type.includes('aac')) return 'm4a';
  if (type.includes('wav')) return 'wav';
  if (type.includes('mpeg')) return 'mp3';
  return 'webm';
}

const languages = new Map<string, Promise<Language>>();

/** A language of the catalogue (GET /api/languages/:code): its names and which engine speaks it. Asked once per page. */
export function languageInfo(code: string): Promise<Language> {
  let language = languages.get(code);
  if (!language) {
    language = call(`/api/languages/${encodeURIComponent(code)}`, { method: 'GET' }, synthesizeFailure).then(
      (response) => response.json() as Promise<Language>,
    );
    language.catch(() => languages.delete(code));
    languages.set(code, language);
  }
  return language;
}

const voiceLists = new Map<string, Promise<VoiceList['voices']>>();

/** The voices for a language (GET /api/voice/voices), asked once per page. */
function voicesFor(language: string): Promise<VoiceList['voices']> {
  let list = voiceLists.get(language);
  if (!list) {
    list = call(`/api/voice/voices?language=${encodeURIComponent(language)}`, { method: 'GET' }, synthesizeFailure)
      .then((response) => response.json() as Promise<VoiceList>)
      .then((body) => body.voices);
    list.catch(() => voiceLists.delete(language));
    voiceLists.set(language, list);
  }
  return list;
}

/** The body of POST /api/voice/synthesize: the text, its language and the language's first voice. */
async function synthesisBody(text: string, language: string): Promise<string> {
  let voice: string | undefined;
  if (language !== 'auto') voice = (await voicesFor(language).catch(() => []))[0]?.id;
  return JSON.stringify({ text, language, ...(voice ? { voice } : {}) });
}

/**
 * Synthesizes `text` (POST /api/voice/synthesize) in `language` with the language's first voice, or the service's
 * choice for `auto`. Resolves with the stored audio's address.
 */
export async function synthesize(text: string, language: string, signal?: AbortSignal): Promise<SynthesizeResponse> {
  const response = await call(
    '/api/voice/synthesize',
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: await synthesisBody(text, language),
      signal,
    },
    synthesizeFailure,
  );
  return (await response.json()) as SynthesizeResponse;
}

/**
 * The audio of `text` as it is made: POST /api/voice/synthesize asking for MP3, whose body streams while the rest
 * is synthesized. Audio the service had already stored comes back as its address instead, and is fetched from there.
 * Resolves with a response whose body is the audio and whose Content-Type says its format.
 */
export async function synthesizeStream(text: string, language: string, signal?: AbortSignal): Promise<Response> {
  const response = await call(
    '/api/voice/synthesize',
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'audio/mpeg' },
      body: await synthesisBody(text, language),
      signal,
    },
    synthesizeFailure,
  );
  if (!response.headers.get('Content-Type')?.startsWith('application/json')) return response;
  const stored = (await response.json()) as SynthesizeResponse;
  return call(stored.audioUrl, { method: 'GET', headers: { Accept: 'audio/*' }, signal }, synthesizeFailure);
}
