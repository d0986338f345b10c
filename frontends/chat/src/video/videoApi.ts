import { apiJson, apiRequest } from '@kasa/api-client';
import type { VideoGenerationRequest, VideoJob, VideoJobEvent, VideoJobList } from '@kasa/contracts';
import { serverSentEvents } from '../streaming/serverSentEvents';

/** React Query keys of the Videos panel; under 'chat' like the rest of the chat area (STYLE.md). */
export const videoKeys = {
  list: ['chat', 'videos'] as const,
  captions: (id: string) => ['chat', 'videos', id, 'captions'] as const,
};

const enc = encodeURIComponent;
/** Starting a job or listing them is quick; beyond this the person is told the service is slow. */
const TIMEOUT_MS = 15_000;

export const isFinished = (job: Pick<VideoJob, 'status'>) => job.status === 'succeeded' || job.status === 'failed';

export const listVideos = () =>
  apiJson<VideoJobList>('GET', '/api/video/generations?limit=20', undefined, { timeoutMs: TIMEOUT_MS });

export const startVideo = (request: VideoGenerationRequest) =>
  apiJson<VideoJob>('POST', '/api/video/generations', request, { timeoutMs: TIMEOUT_MS });

/**
 * The finished video's captions as a blob: URL for a <track> (which cannot send the token the route needs), or
 * null when it has none (a hosted model's video). The caller revokes the URL.
 */
export async function fetchCaptionsUrl(id: string, signal?: AbortSignal): Promise<string | null> {
  try {
    const response = await apiRequest('GET', `/api/video/generations/${enc(id)}/captions`, undefined, {
      accept: 'text/vtt',
      timeoutMs: TIMEOUT_MS,
      ...(signal ? { signal } : {}),
    });
    return URL.createObjectURL(new Blob([await response.text()], { type: 'text/vtt' }));
  } catch (error) {
    if ((error as { status?: number }).status === 404) return null;
    throw error;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const STATUSES = new Set(['queued', 'running', 'succeeded', 'failed']);

/** An event's data as a job, checked by hand (zod stays out of the browser bundle); null when malformed. */
function toJobEvent(data: string): VideoJobEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (!isObject(value) || typeof value.id !== 'string' || typeof value.status !== 'string') return null;
  if (!STATUSES.has(value.status) || typeof value.progress !== 'number') return null;
  return value as unknown as VideoJobEvent;
}

/** What a job's event stream said: the job now, or why the stream ended early. */
export type VideoStreamEvent = { type: 'job'; job: VideoJobEvent } | { type: 'error'; message: string };

/**
 * Follows a job with GET /api/video/generations/:id/events (the server pushes each change; the browser does not
 * poll): `onEvent` gets the job at once and on every change. Resolves when the stream ends (after the job finished,
 * or the server went away: the caller then reconnects); rejects with an ApiError (404, 429...) when it cannot open.
 */
export async function followVideo(
  id: string,
  onEvent: (event: VideoStreamEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  const response = await apiRequest('GET', `/api/video/generations/${enc(id)}/events`, undefined, {
    accept: 'text/event-stream',
    signal,
  });
  for await (const message of serverSentEvents(response.body!, signal)) {
    if (message.event === 'error') {
      let text = '';
      try {
        const data: unknown = JSON.parse(message.data);
        if (isObject(data) && typeof data.message === 'string') text = data.message;
      } catch {
        /* no reason given */
      }
      onEvent({ type: 'error', message: text });
      continue;
    }
    if (message.event !== 'job' && message.event !== 'done') continue;
    const job = toJobEvent(message.data);
    if (job) onEvent({ type: 'job', job });
  }
}
