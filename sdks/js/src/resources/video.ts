import { linkedController } from '../abort.js';
import { EventStream, type Decoded } from '../EventStream.js';
import { KasaError, STREAM_ERROR, VIDEO_NOT_READY, WAIT_TIMEOUT } from '../KasaError.js';
import type { CallOptions, HttpClient } from '../http.js';
import { sleep } from '../retry.js';
import type { ServerSentEvent } from '../sse.js';
import type {
  VideoEvent,
  VideoGenerationRequest,
  VideoJob,
  VideoJobEvent,
  VideoJobListQuery,
  VideoWaitOptions,
} from '../types.js';

const jobPath = (id: string) => `/api/video/generations/${encodeURIComponent(id)}`;

const DEFAULT_WAIT_INTERVAL_MS = 2_000;
const DEFAULT_WAIT_TIMEOUT_MS = 15 * 60_000;

/** True once a job has ended, either way. */
function finished(job: VideoJob): boolean {
  return job.status === 'succeeded' || job.status === 'failed';
}

/**
 * Videos made from a prompt (Enterprise plan; an API key needs the `voice` scope): the prompt read aloud, its
 * sentences shown as captions. A video is a queued job that takes seconds to minutes: `create` it, then `wait` for it
 * (or poll `get`), then play its `videoUrl` or `download` it. Other plans get a 403 `forbidden` naming Enterprise.
 */
export class VideoResource {
  constructor(private readonly http: HttpClient) {}

  /**
   * POST /api/video/generations → the job, `queued` (202). A 400 names a wrong prompt, language or voice; a 429
   * `too_many_video_jobs` says too many of the caller's videos are being made at once.
   */
  create(input: VideoGenerationRequest, options?: CallOptions): Promise<VideoJob> {
    return this.http.json<VideoJob>({
      method: 'POST',
      path: '/api/video/generations',
      body: input,
      creates: true,
      options,
    });
  }

  /** GET /api/video/generations/:id → one of the caller's jobs; anyone else's (or an unknown id) is a 404. */
  get(id: string, options?: CallOptions): Promise<VideoJob> {
    return this.http.json<VideoJob>({ method: 'GET', path: jobPath(id), options });
  }

  /** GET /api/video/generations → the caller's jobs, newest first (`limit` 1 to 50, default 20; `status` filters). */
  async list(query: VideoJobListQuery = {}, options?: CallOptions): Promise<VideoJob[]> {
    const list = await this.http.json<{ jobs: VideoJob[] }>({
      method: 'GET',
      path: '/api/video/generations',
      query: { ...query },
      options,
    });
    return list.jobs;
  }

  /**
   * GET /api/video/generations/:id/events → the job's events as they happen, read with `for await`: a `job` event at
   * once (with `queuePosition` while it is queued) and on each change of its status or progress, then `done` with
   * the job once it has succeeded or failed, after which the loop ends. The connection opens when the loop starts:
   * that is where someone else's job (or an unknown one) rejects with a 404, and a 429 `too_many_video_streams` says
   * the caller already follows 5 jobs. A stream that ends early (the job was deleted, the connection dropped)
   * rejects with a KasaError `stream_error`. Leaving the loop, or the call's signal, closes the connection.
   */
  events(id: string, options: CallOptions = {}): AsyncIterable<VideoEvent> {
    const http = this.http;
    return {
      async *[Symbol.asyncIterator]() {
        const { controller, release } = linkedController(options.signal);
        let response: Response;
        try {
          response = await http.send({
            method: 'GET',
            path: `${jobPath(id)}/events`,
            accept: 'text/event-stream',
            options: { ...options, signal: controller.signal },
          });
        } catch (err) {
          release();
          throw err;
        }
        const requestId = () => response.headers.get('x-request-id') ?? undefined;
        const endedEarly = () =>
          new KasaError({
            status: 0,
            code: STREAM_ERROR,
            message: `The events of video job ${id} stopped before the job ended.`,
            requestId: requestId(),
          });
        yield* new EventStream(response, controller, decodeVideoEvent(requestId), endedEarly, release);
      },
    };
  }

  /**
   * Reads the job every `intervalMs` until it has ended, and resolves with it: `succeeded` (with `videoUrl` and
   * `duration`) or `failed` (with `error`); a failed job is an answer, not an exception. Rejects with a KasaError
   * `wait_timeout` (status 0, the last job read in `details`) after `timeoutMs`, with the signal's reason when the
   * call's signal aborts, and with the API's error when a read fails (after the usual retries).
   */
  async wait(id: string, polling: VideoWaitOptions = {}, options: CallOptions = {}): Promise<VideoJob> {
    const intervalMs = polling.intervalMs ?? DEFAULT_WAIT_INTERVAL_MS;
    const timeoutMs = polling.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
    const { controller, release } = linkedController(options.signal);
    let last: VideoJob | undefined;
    const timer = setTimeout(() => controller.abort(waitTimedOut(id, timeoutMs, last)), timeoutMs);
    try {
      for (;;) {
        const job = await this.get(id, { ...options, signal: controller.signal });
        last = job;
        polling.onProgress?.(job);
        if (finished(job)) return job;
        await sleep(intervalMs, controller.signal);
      }
    } finally {
      clearTimeout(timer);
      release();
    }
  }

  /**
   * GET the job's `videoUrl` (/api/video/files/:id) → the MP4 as a Blob (`video/mp4`). The address is public, so it
   * is fetched without the client's credential; a page can also give `videoUrl` to a `<video>` element as it is. A job
   * that has not succeeded rejects with a KasaError `video_not_ready`; a video past its time to live is a 404.
   */
  async download(job: VideoJob, options?: CallOptions): Promise<Blob> {
    if (!job.videoUrl) {
      throw new KasaError({
        status: 0,
        code: VIDEO_NOT_READY,
        message: `The video job ${job.id} has no video (its status is ${job.status}): wait for it to succeed first.`,
        details: { id: job.id, status: job.status },
      });
    }
    const response = await this.http.send({
      method: 'GET',
      path: job.videoUrl,
      accept: 'video/mp4',
      anonymous: true,
      options,
    });
    return response.blob();
  }
}

/** The events of a job's stream: `job` and `done` carry the job; `error` ends the stream early. */
function decodeVideoEvent(requestId: () => string | undefined) {
  return (event: ServerSentEvent): Decoded<VideoEvent> => {
    switch (event.event) {
      case 'job':
        return { item: { type: 'job', job: JSON.parse(event.data) as VideoJobEvent } };
      case 'done':
        return { end: true, item: { type: 'done', job: JSON.parse(event.data) as VideoJobEvent } };
      case 'error':
        throw new KasaError({
          status: 0,
          code: STREAM_ERROR,
          message: (JSON.parse(event.data) as { message: string }).message,
          requestId: requestId(),
        });
      default:
        return { skip: true };
    }
  };
}

function waitTimedOut(id: string, timeoutMs: number, last: VideoJob | undefined): KasaError {
  const where = last ? ` (status ${last.status}, ${last.progress}% done)` : '';
  const limit = timeoutMs < 10_000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`;
  return new KasaError({
    status: 0,
    code: WAIT_TIMEOUT,
    message: `The video job ${id} had not finished after ${limit}${where}.`,
    details: { id, job: last },
  });
}
