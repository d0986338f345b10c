import { VideoWorkMessage } from '@kasa/contracts';
import { isDatabaseUnavailableError, type ConcurrencySlots, type Logger, type Outbox } from '@kasa/service-kit';
import type { ConsumeMessage } from 'amqplib';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { AudioStore } from '../speech/audioStore';
import type { CaptionStyle, VideoJobDocument, VideoJobModel } from './videoJobModel';
import { RenderError, type RenderedVideo, type VideoRenderer } from './videoRenderer';
import type { VideoJobChanges } from './videoJobChanges';
import type { Settlement } from './videoQueue';

export interface VideoWorkerOptions {
  jobs: VideoJobModel;
  /** GridFS bucket `video`. */
  files: AudioStore;
  /** In order of preference: a hosted model when configured, then the offline renderer. */
  renderers: VideoRenderer[];
  /** The outbox of `voice.video.completed` (the entry on each finished job, see VideoJobDocument.completedEvent). */
  completedEvents: Outbox;
  logger: Logger;
  /** This process; written on the jobs it renders. */
  workerId: string;
  timeoutMs: number;
  /** A running job whose worker has not written for this long is taken to be abandoned. */
  staleMs: number;
  /** Deliveries after which a job that keeps stopping its worker is failed. */
  maxAttempts?: number;
  /** How often a rendering worker writes progress and says it is still alive. */
  heartbeatMs?: number;
  /** Told after each write of a job, for the event streams of this process. */
  changes?: VideoJobChanges;
  /** The owners' video slots (see VideoService): a job's is given back once its outcome is written. */
  slots: ConcurrencySlots;
}

/** Every query on a job here gives up after this long. */
const QUERY_TIME_LIMIT_MS = 15_000;

/** What a failure that was not a RenderError says to the person: nothing of the internals. */
const INTERNAL_FAILURE = 'The video could not be made because of an error on the server.';

/**
 * Renders the job named by one work message and stores the outcome, then publishes `voice.video.completed`; the
 * message is acked only after that (see VideoQueue). Safe to deliver twice:
 * - a finished job is acked without rendering again (its event is sent if it is still pending);
 * - a job being rendered by a live worker is left to it, unless this delivery is a redelivery, which means the
 *   broker saw the previous consumer go away: then this worker takes it over;
 * - the outcome is written only if this worker still owns the job, so of two renders only one is kept.
 */
export class VideoWorker {
  constructor(private readonly options: VideoWorkerOptions) {}

  async handle(msg: ConsumeMessage, stopping: AbortSignal): Promise<Settlement> {
    const { jobs, logger } = this.options;
    let jobId: string;
    try {
      const parsed = VideoWorkMessage.safeParse(JSON.parse(msg.content.toString('utf8')));
      if (!parsed.success) throw new Error('invalid work message');
      jobId = parsed.data.jobId;
    } catch {
      logger.warn({ messageId: msg.properties.messageId }, 'poison video work message dead-lettered');
      return 'dead-letter';
    }
    const log = logger.child({ jobId });
    log.debug({ redelivered: msg.fields.redelivered }, 'video work message received');
    try {
      const job = await jobs.findById(jobId).lean();
      if (!job) {
        log.warn('video job not found (deleted?); message dropped');
        return 'ack';
      }
      if (job.status === 'succeeded' || job.status === 'failed') {
        await this.publishCompleted(job);
        return 'ack';
      }
      const claimed = await this.claim(job, msg.fields.redelivered);
      if (!claimed) {
        log.info('video job is being rendered by another worker; duplicate message dropped');
        return 'ack';
      }
      this.options.changes?.changed(claimed._id, job.status === 'queued');
      if (claimed.attempts > (this.options.maxAttempts ?? 3)) {
        await this.finish(claimed, {
          status: 'failed',
          error: `The video could not be made: rendering stopped ${claimed.attempts - 1} times without finishing.`,
        });
        return 'ack';
      }
      return await this.render(claimed, stopping, log);
    } catch (err) {
      if (isDatabaseUnavailableError(err)) {
        log.warn({ err: (err as Error).message }, 'database unavailable; video job message requeued');
        return 'requeue';
      }
      log.error({ err }, 'video job message could not be handled; dead-lettered');
      return 'dead-letter';
    }
  }

  /** Takes the job for this worker, atomically; undefined when another live worker has it. */
  private async claim(job: VideoJobDocument, redelivered: boolean): Promise<VideoJobDocument | null> {
    const { workerId, staleMs } = this.options;
    const filter: Record<string, unknown> = { _id: job._id, status: { $in: ['queued', 'running'] } };
    if (!redelivered) {
      filter.$or = [
        { status: 'queued' },
        { workerId },
        { heartbeatAt: { $lt: new Date(Date.now() - staleMs) } },
        { heartbeatAt: { $exists: false } },
      ];
    }
    return this.options.jobs
      .findOneAndUpdate(
        filter,
        { $set: { status: 'running', workerId, heartbeatAt: new Date(), progress: 0 }, $inc: { attempts: 1 } },
        { new: true },
      )
      .lean();
  }

  private async render(job: VideoJobDocument, stopping: AbortSignal, log: Logger): Promise<Settlement> {
    const { jobs, workerId } = this.options;
    const signal = AbortSignal.any([stopping, AbortSignal.timeout(this.options.timeoutMs)]);
    // Progress and a heartbeat, written at most once a second and at least every heartbeatMs.
    let progress = 0;
    let captions: CaptionStyle | undefined;
    let lastWrite = 0;
    // Writes go one after the other, and all are done before the outcome is written: on the embedded database an
    // update in flight could otherwise land after the outcome and put the job back to running.
    let writing: Promise<unknown> = Promise.resolve();
    const write = () => {
      lastWrite = Date.now();
      const set = { progress, heartbeatAt: new Date(), ...(captions ? { captions } : {}) };
      writing = writing
        .then(() => jobs.updateOne({ _id: job._id, workerId, status: 'running' }, { $set: set }))
        .then(() => this.options.changes?.changed(job._id))
        .catch((err: unknown) => log.warn({ err: (err as Error).message }, 'video progress not written'));
    };
    const heartbeat = setInterval(write, this.options.heartbeatMs ?? 5_000);
    const onProgress = (percent: number, style?: CaptionStyle) => {
      progress = Math.max(progress, Math.min(99, Math.round(percent)));
      if (style) captions = style;
      if (style || Date.now() - lastWrite >= 1_000) write();
    };

    let rendered: RenderedVideo | undefined;
    let renderer: string | undefined;
    let failure: string | undefined;
    try {
      for (const candidate of this.options.renderers.filter((r) => r.available || r.name === 'offline')) {
        try {
          rendered = await candidate.render({
            jobId: job._id,
            prompt: job.prompt,
            language: job.language,
            voice: job.voice,
            signal,
            onProgress,
          });
          renderer = candidate.name;
          break;
        } catch (err) {
          if (stopping.aborted) throw err;
          failure = signal.aborted
            ? `The video took longer than ${Math.round(this.options.timeoutMs / 1000)} s to make and was stopped.`
            : err instanceof RenderError
              ? err.message
              : INTERNAL_FAILURE;
          if (!(err instanceof RenderError) && !signal.aborted)
            log.error({ err, renderer: candidate.name }, 'video render failed');
          else log.warn({ renderer: candidate.name, reason: failure }, 'video render failed');
          if (signal.aborted) break;
        }
      }
    } catch (err) {
      clearInterval(heartbeat);
      await writing;
      // Shutting down: the job stays with this worker's id and the message goes back; the next delivery is a
      // redelivery, which takes the job over at once.
      log.info({ err: (err as Error).message }, 'video render stopped by shutdown; message requeued');
      return 'requeue';
    }
    clearInterval(heartbeat);
    await writing;

    if (!rendered) {
      // A failed job keeps the progress it reached, which tells how far it got.
      await this.finish(
        { ...job, progress },
        { status: 'failed', error: failure ?? 'No video renderer is available on the server.' },
      );
      return 'ack';
    }
    try {
      const fileId = this.options.files.newId();
      const upload = this.options.files.openUpload(fileId, {
        contentType: 'video/mp4',
        language: job.language,
        voice: job.voice ?? '',
        engine: renderer!,
        characters: job.prompt.length,
        duration: rendered.duration,
        userId: job.userId,
      });
      await pipeline(createReadStream(rendered.path), upload);
      const kept = await this.finish(job, {
        status: 'succeeded',
        fileId,
        duration: rendered.duration,
        renderer: renderer!,
        ...(rendered.captions ? { captions: rendered.captions } : {}),
        ...(rendered.cues?.length ? { cues: rendered.cues } : {}),
      });
      if (!kept) await this.options.files.delete(fileId);
      return 'ack';
    } finally {
      await rendered.cleanup();
    }
  }

  /**
   * Writes the outcome if this worker still owns the job (false otherwise: another worker took it over), marks the
   * completion event pending, then publishes it.
   */
  private async finish(
    job: VideoJobDocument,
    outcome:
      | { status: 'failed'; error: string }
      | {
          status: 'succeeded';
          fileId: string;
          duration: number;
          renderer: string;
          captions?: CaptionStyle;
          cues?: VideoJobDocument['cues'];
        },
  ): Promise<boolean> {
    const done = await this.options.jobs
      .findOneAndUpdate(
        { _id: job._id, workerId: this.options.workerId, status: 'running' },
        {
          $set: {
            ...outcome,
            progress: outcome.status === 'succeeded' ? 100 : job.progress,
            ...this.options.completedEvents.set(
              this.options.completedEvents.entry(
                'voice.video.completed',
                { jobId: job._id, userId: job.userId, status: outcome.status },
                { id: `voice.video.completed:${job._id}` },
              ),
            ),
            finishedAt: new Date(),
          },
        },
        { new: true },
      )
      .lean();
    if (!done) return false;
    // Given back before anyone is told: a client that reacts to the outcome finds its slot free.
    await this.releaseSlot(done);
    this.options.changes?.changed(done._id);
    this.options.logger.info({ jobId: job._id, status: done.status, attempts: done.attempts }, 'video job finished');
    await this.publishCompleted(done);
    return true;
  }

  /**
   * Gives a finished job's slot back to its owner, then clears it on the job. A failure leaves it set: the sweeper
   * tries again (and the slot expires by itself in the end).
   */
  async releaseSlot(job: Pick<VideoJobDocument, '_id' | 'userId' | 'slot'>): Promise<void> {
    if (!job.slot) return;
    try {
      await this.options.slots.release(job.userId, job.slot);
      await this.options.jobs
        .updateOne({ _id: job._id, slot: job.slot }, { $unset: { slot: 1 } })
        .maxTimeMS(QUERY_TIME_LIMIT_MS);
    } catch (err) {
      this.options.logger.warn(
        { jobId: job._id, err: (err as Error).message },
        'video job slot not given back yet; the sweeper tries again',
      );
    }
  }

  /**
   * Publishes the job's `voice.video.completed` from its outbox entry (id fixed per job: consumers skip duplicates).
   * A broker that does not confirm in time leaves the entry to the outbox's republisher; it never fails the job.
   */
  async publishCompleted(job: VideoJobDocument): Promise<void> {
    if (job.completedEvent?.state !== 'NotPublished') return;
    await this.options.completedEvents.publish(job._id, job.completedEvent);
  }
}
