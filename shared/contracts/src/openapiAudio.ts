import type { Operation } from './openapi';
import {
  OpenAISpeechRequest,
  OpenAITranscription,
  OpenAITranscriptionRequest,
  OpenAITranscriptionVerbose,
} from './voice';
import { z } from './zod';

/** OpenAI's Audio API over Kasa's voices and transcribers (the voice service), for OpenAI's clients unchanged. */
export const audioOperations: Operation[] = [
  {
    method: 'post',
    path: '/v1/audio/speech',
    summary: 'Create speech',
    description:
      'OpenAI’s text to speech (Pro and Enterprise): the audio itself, streamed as it is made, read by ' +
      'Kasa’s voices (eSpeak NG offline when no cloud voice is configured). Every model (tts-1, tts-1-hd, ' +
      'gpt-4o-mini-tts, kasa-speech) and OpenAI voice name maps to a voice for the text’s language (`language`, ' +
      'else detected); a Kasa voice id is taken as it is. response_format: mp3 (audio/mpeg), opus (Ogg, audio/ogg), ' +
      'aac (ADTS, audio/aac), flac (audio/flac), wav (audio/wav) or pcm (16-bit little-endian mono at 24 kHz, ' +
      'audio/pcm); a format the server has no encoder for is a 400 naming those it has. X-Kasa-Audio-Url names the ' +
      'stored copy.',
    tag: 'OpenAI-compatible',
    auth: true,
    body: OpenAISpeechRequest,
    successStatus: 200,
    document: { contentType: 'audio/*' },
    responseDescription: 'The audio, in the format asked for (audio/mpeg by default)',
    errors: [403, 413, 429],
    errorNotes: {
      403: 'Speech is part of the Pro and Enterprise plans',
      429: 'The person’s syntheses at once are all under way',
    },
    example: {
      request: { model: 'tts-1', input: 'Akwaaba! Welcome to Kasa.', voice: 'alloy', response_format: 'mp3' },
    },
  },
  {
    method: 'post',
    path: '/v1/audio/transcriptions',
    summary: 'Create a transcription',
    description:
      'OpenAI’s speech to text (Pro and Enterprise): a multipart upload with `file` (webm, ogg, wav, mp3 or ' +
      'mp4 audio, at most 10 MB) and `model` (whisper-1, gpt-4o-transcribe, gpt-4o-mini-transcribe or ' +
      'kasa-transcribe), through the configured speech-to-text providers. response_format json (`{text}`), ' +
      'verbose_json (task, language, duration, text, segments) or text (text/plain). 503 when no speech-to-text ' +
      'provider is connected (an operator can connect one).',
    tag: 'OpenAI-compatible',
    auth: true,
    body: OpenAITranscriptionRequest,
    bodyContentType: 'multipart/form-data',
    response: z.union([OpenAITranscriptionVerbose, OpenAITranscription]),
    successStatus: 200,
    stream: {
      status: 200,
      contentType: 'text/plain',
      description: 'With response_format text, the transcript as plain text',
    },
    errors: [403, 413, 415, 429],
    errorNotes: {
      403: 'Speech to text is part of the Pro and Enterprise plans',
      429: 'The person’s transcriptions at once are all under way (refused before the recording is read)',
    },
    example: { response: { text: 'Akwaaba! Welcome to Kasa.' } },
  },
];
