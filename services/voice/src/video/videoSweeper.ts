import type { Logger } from '@kasa/service-kit';
import type { AudioStore } from '../speech/audioStore';
import type { VideoJobModel, VideoOutboxModel } from './videoJobModel';
import type { VideoDispatcher } from './videoService';
import type { VideoWorker } from './videoWorker';

/** Work messages not confirmed this long after the job was stored are sent again. */
const UNSENT_AFTER_MS = 15_000;
const BATCH = 100;
const QUERY_TIME_LIMIT_MS = 15_000;

/**
 * Keeps jobs moving when a message or an event went missing, run at start and then every minute:
 * - work messages the broker never confirmed (it was down when the job was made) are sent again (see the outbox);
 * - running jobs whose worker stopped writing (a dead instance) go back to queued and are sent again;
 * - finished jobs still holding their owner's video slot (the release failed) give it back;
 * - jobs and videos older than the time they are kept are deleted (no TTL index: FerretDB has none).
 * Duplicate messages are harmless (see VideoWorker). Finished jobs' `voice.video.completed` is not the sweeper's: the
 * kit's outbox republishes it (see VideoJobDocument.completedEvent).
 */
export class VideoSweeper {
  constructor(
    private readonly deps: {
      jobs: VideoJobModel;
      outbox: VideoOutboxModel;
      files: AudioStore;
      dispatcher: VideoDispatcher;
      worker: Pick<VideoWorker, 'releaseSlot'>;
      logger: Logger;
      staleMs: number;
      ttlMs: number;
    },
  ) {}

  async sweep(): Promise<{ resent: number; requeued: number; slots: number; deleted: number }> {
    const { jobs, outbox, dispatcher, worker, logger, staleMs } = this.deps;
    const now = Date.now();
    const unsent = await outbox
      .find({ at: { $lt: new Date(now - UNSENT_AFTER_MS) } })
      .limit(BATCH)
      .lean();
    for (const entry of unsent) await dispatcher.dispatch(entry._id);

    const abandoned = await jobs
      .find({ status: 'running', heartbeatAt: { $lt: new Date(now - staleMs) } })
      .limit(BATCH)
      .lean();
    let requeued = 0;
    for (const job of abandoned) {
      await dispatcher.markPending(job._id);
      const reset = await jobs.updateOne(
        { _id: job._id, status: 'running', heartbeatAt: job.heartbeatAt },
        { $set: { status: 'queued', progress: 0 }, $unset: { workerId: 1 } },
      );
      if (reset.modifiedCount === 0) {
        await outbox.deleteOne({ _id: job._id });
        continue;
      }
      requeued += 1;
      logger.warn({ jobId: job._id }, 'video job abandoned by its worker; queued again');
      await dispatcher.dispatch(job._id);
    }

    const holding = await jobs
      .find({ slot: { $exists: true }, status: { $in: ['succeeded', 'failed'] } }, { _id: 1, userId: 1, slot: 1 })
      .limit(BATCH)
      .maxTimeMS(QUERY_TIME_LIMIT_MS)
      .lean();
    for (const job of holding) await worker.releaseSlot(job);

    const deleted = await this.deleteExpired(new Date(now - this.deps.ttlMs));
    return { resent: unsent.length, requeued, slots: holding.length, deleted };
  }

  private async deleteExpired(cutoff: Date): Promise<number> {
    const old = await this.deps.jobs
      .find(
        { createdAt: { $lt: cutoff }, status: { $in: ['succeeded', 'failed'] } },
        { _id: 1, fileId: 1, userId: 1, slot: 1 },
      )
      .limit(BATCH)
      .lean();
    for (const job of old) {
      await this.deps.worker.releaseSlot(job);
      if (job.fileId) await this.deps.files.delete(job.fileId);
      await this.deps.jobs.deleteOne({ _id: job._id });
    }
    return old.length;
  }
}
