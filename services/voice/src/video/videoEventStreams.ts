import type { VideoJobEvent, VideoJobEventName } from '@kasa/contracts';
import { HttpError, NotFoundError, type Identity, type Logger } from '@kasa/service-kit';
import type { Response } from 'express';
import type { VideoJobChange, VideoJobChanges } from './videoJobChanges';
import type { VideoJobDocument, VideoJobModel } from './videoJobModel';
import { toVideoJob } from './videoService';

export interface VideoEventStreamsOptions {
  jobs: VideoJobModel;
  /** Writes by the worker of this process. */
  changes: VideoJobChanges;
  logger: Logger;
  /** How often a stream reads its job whatever this process heard (jobs rendered by another replica). */
  pollMs: number;
  /** How often an idle stream sends a `: ping` comment, so that proxies keep it open. */
  heartbeatMs: number;
  /** Open streams one person may have on this instance; one more is a 429. */
  maxPerPerson: number;
  /** Time limit of each read. */
  queryTimeoutMs?: number;
}

const TERMINAL = new Set(['succeeded', 'failed']);

/**
 * `GET /api/video/generations/:id/events`: one job of the caller as Server-Sent Events, at once and on every
 * change, ending after the job succeeded or failed.
 *
 * A stream hears of changes two ways. The worker of this process tells it at once (VideoJobChanges), which makes the
 * progress bar move as the render does; but the job may be rendered by another replica (the queue hands a job to
 * whichever worker is free, and instances with VOICE_VIDEO_WORKER=false render nothing), whose writes this process
 * never hears of: a read of the job by id every `pollMs` catches those, and a queued job's place in the queue, which
 * moves whenever any replica starts another job. The read is one indexed look-up per open stream every few seconds,
 * cheap enough to stay bounded by the per-person limit.
 */
export class VideoEventStreams {
  /** Open streams per person on this instance. */
  private readonly perPerson = new Map<string, number>();
  /** How to close each open stream (shutdown closes them all). */
  private readonly closers = new Set<() => void>();

  constructor(private readonly options: VideoEventStreamsOptions) {}

  /** Streams open now on this instance (all people). */
  get openCount(): number {
    return this.closers.size;
  }

  /**
   * Answers the request with the job's event stream. Throws (before anything is sent) a 429 when the person already
   * has `maxPerPerson` streams open, and a 404 when the job is not theirs.
   */
  async follow(res: Response, jobId: string, identity: Identity): Promise<void> {
    const release = this.reserve(identity.userId);
    let job: VideoJobDocument | null;
    try {
      job = await this.read(jobId, identity.userId);
    } catch (err) {
      release();
      throw err;
    }
    if (!job) {
      release();
      throw new NotFoundError('No video job with that id');
    }
    if (res.destroyed) {
      release(); // the client went away during the read
      return;
    }
    this.stream(res, job, identity.userId, release);
  }

  /** Ends every open stream (shutdown); clients reconnect to another instance. */
  closeAll(): void {
    for (const close of [...this.closers]) close();
  }

  /** Counts a stream for the person before any await, so that parallel requests cannot pass the limit together. */
  private reserve(userId: string): () => void {
    const { maxPerPerson } = this.options;
    const open = this.perPerson.get(userId) ?? 0;
    if (open >= maxPerPerson) {
      throw new HttpError(
        429,
        'too_many_video_streams',
        `You are already following ${open} videos here (at most ${maxPerPerson} at once); close one and try again.`,
        { open, limit: maxPerPerson },
      );
    }
    this.perPerson.set(userId, open + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.perPerson.get(userId) ?? 1) - 1;
      if (left > 0) this.perPerson.set(userId, left);
      else this.perPerson.delete(userId);
    };
  }

  private stream(res: Response, first: VideoJobDocument, userId: string, release: () => void): void {
    const { logger, changes } = this.options;
    const jobId = first._id;
    res.status(200);
    res.set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    res.socket?.setNoDelay(true);

    let closed = false;
    let lastSent: string | undefined;
    let queued = first.status === 'queued';
    let reading = false;
    let again = false;

    const write = (chunk: string) => {
      if (!res.writableEnded && !res.destroyed) res.write(chunk);
    };
    const send = (event: VideoJobEventName, data: unknown) =>
      write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

    const emit = async (job: VideoJobDocument) => {
      queued = job.status === 'queued';
      const event: VideoJobEvent = {
        ...toVideoJob(job),
        ...(queued ? { queuePosition: await this.queuePosition(job) } : {}),
      };
      if (closed) return;
      if (TERMINAL.has(job.status)) {
        send('done', event);
        close();
        return;
      }
      // A worker's heartbeat changes updatedAt alone every few seconds: not worth an event.
      const { updatedAt: _updatedAt, ...visible } = event;
      const key = JSON.stringify(visible);
      if (key === lastSent) return;
      lastSent = key;
      send('job', event);
    };

    // Reads run one at a time, in order; a change heard during a read makes one more read after it.
    const refresh = async () => {
      if (closed) return;
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      try {
        do {
          again = false;
          const job = await this.read(jobId, userId);
          if (closed) return;
          if (!job) {
            send('error', { message: 'The video job no longer exists (it may have expired).' });
            close();
            return;
          }
          await emit(job);
        } while (again && !closed);
      } catch (err) {
        // The database is slow or away: keep the stream, the next change or read tries again.
        logger.warn({ jobId, err: (err as Error).message }, 'video job event not read');
      } finally {
        reading = false;
      }
    };

    const onChange = (change: VideoJobChange) => {
      if (change.jobId === jobId || (change.leftQueue && queued)) void refresh();
    };
    const unsubscribe = changes.subscribe(onChange);
    const poll = setInterval(() => void refresh(), this.options.pollMs);
    const heartbeat = setInterval(() => write(': ping\n\n'), this.options.heartbeatMs);

    const close = () => {
      if (closed) return;
      closed = true;
      clearInterval(poll);
      clearInterval(heartbeat);
      unsubscribe();
      release();
      this.closers.delete(close);
      res.off('close', close);
      if (!res.writableEnded) res.end();
    };
    this.closers.add(close);
    // The client went away (or the response ended): stop listening, reading and pinging.
    res.on('close', close);

    // The job as read, at once; then one more read, for changes between that read and the subscription.
    reading = true;
    void emit(first)
      .catch((err: unknown) => logger.warn({ jobId, err: (err as Error).message }, 'video job event not sent'))
      .finally(() => {
        reading = false;
        void refresh();
      });
  }

  private read(jobId: string, userId: string): Promise<VideoJobDocument | null> {
    return this.options.jobs
      .findOne({ _id: jobId, userId })
      .maxTimeMS(this.options.queryTimeoutMs ?? 2_000)
      .lean<VideoJobDocument>()
      .exec();
  }

  /** How many queued jobs were created before this one (the index `{status, createdAt}` answers it). */
  private queuePosition(job: VideoJobDocument): Promise<number> {
    return this.options.jobs
      .countDocuments({ status: 'queued', createdAt: { $lt: job.createdAt } })
      .maxTimeMS(this.options.queryTimeoutMs ?? 2_000)
      .exec();
  }
}
