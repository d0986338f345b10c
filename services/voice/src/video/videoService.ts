import type { VideoGenerationRequest, VideoJob, VideoJobList, VideoJobListQuery } from '@kasa/contracts';
import type { LanguageDetector } from '@kasa/language-detect';
import {
  InputError,
  assertPlanAllows,
  NotFoundError,
  TooManyRequestsError,
  type ConcurrencySlots,
  type Identity,
  type Logger,
} from '@kasa/service-kit';
import { randomBytes } from 'node:crypto';
import type { LanguageCatalogue } from '../languages/catalogue';
import type { SpeechChain } from '../speech/speechChain';
import type { VideoJobDocument, VideoJobModel, VideoOutboxModel } from './videoJobModel';
import type { VideoQueue } from './videoQueue';

export const VIDEO_FILE_PATH = '/api/video/files';

/** How long a refused client is told to wait: a video takes tens of seconds to a few minutes to make. */
export const VIDEO_RETRY_AFTER_SECONDS = 30;

/** 429: the person has as many unfinished video jobs as the limit allows. */
export class TooManyVideoJobsError extends TooManyRequestsError {
  constructor(limit: number) {
    super(
      `You already have ${limit === 1 ? 'a video' : `${limit} videos`} being made; wait for ${limit === 1 ? 'it' : 'one'} ` +
        `to finish (at most ${limit} at once).`,
      VIDEO_RETRY_AFTER_SECONDS,
      { active: limit, limit },
      'too_many_video_jobs',
    );
  }
}

/** Sends a job's work message. */
export interface VideoDispatcher {
  /** Notes in the outbox that the job's message is to be sent (before the job changes, so that none is lost). */
  markPending(jobId: string): Promise<void>;
  /** Sends it; true once the broker confirmed it, false when it did not in time (the sweeper sends it again). */
  dispatch(jobId: string): Promise<boolean>;
}

export interface VideoServiceDeps {
  jobs: VideoJobModel;
  outbox: VideoOutboxModel;
  queue: Pick<VideoQueue, 'send'>;
  chain: SpeechChain;
  catalogue: LanguageCatalogue;
  detector: LanguageDetector;
  logger: Logger;
  /** The renderer new jobs go to: `offline`, or the hosted model's name. */
  renderer: string;
  /**
   * The unfinished jobs one person may have (VOICE_VIDEO_MAX_ACTIVE_JOBS), as the kit's per-person slots: a job
   * holds one from its creation until the worker writes its outcome (see VideoWorker.releaseSlot).
   */
  slots: ConcurrencySlots;
  /** How long a request waits for the broker to confirm the work message; 5 s by default. */
  sendTimeoutMs?: number;
}

/** Video jobs as people see them: who may make one, the checks on the request, and their own jobs only. */
export class VideoService implements VideoDispatcher {
  constructor(private readonly deps: VideoServiceDeps) {}

  /** Checks the request, stores the job and queues it (spec section 6: video generation is an Enterprise feature). */
  async create(input: VideoGenerationRequest, identity: Identity): Promise<VideoJob> {
    assertPlanAllows(
      identity.tier,
      'video',
      'Video generation is part of the Enterprise plan. Upgrade to Enterprise to make videos.',
    );
    const language = this.languageOf(input);
    const voice = this.voiceFor(language, input.voice);
    const { jobs, slots, logger } = this.deps;
    // Reserved atomically before the job exists: simultaneous requests cannot all pass a count made before any of
    // them is stored.
    const slot = await slots.acquire(identity.userId);
    if (!slot) throw new TooManyVideoJobsError(slots.limit);
    const id = randomBytes(16).toString('base64url');
    let created;
    try {
      await this.markPending(id);
      created = await jobs.create({
        _id: id,
        userId: identity.userId,
        prompt: input.prompt,
        language,
        ...(voice ? { voice } : {}),
        renderer: this.deps.renderer,
        status: 'queued',
        progress: 0,
        attempts: 0,
        slot,
      });
    } catch (err) {
      await slots
        .release(identity.userId, slot)
        .catch((releaseErr: unknown) =>
          logger.warn({ err: releaseErr }, 'a video job slot was not released; it expires by itself'),
        );
      throw err;
    }
    await this.dispatch(created._id);
    return toVideoJob(created.toObject());
  }

  async markPending(jobId: string): Promise<void> {
    await this.deps.outbox.updateOne({ _id: jobId }, { $setOnInsert: { at: new Date() } }, { upsert: true });
  }

  async dispatch(jobId: string): Promise<boolean> {
    try {
      await this.deps.queue.send({ jobId }, jobId, this.deps.sendTimeoutMs ?? 5_000);
    } catch (err) {
      this.deps.logger.warn(
        { jobId, err: (err as Error).message },
        'video work message not confirmed; sent again later',
      );
      return false;
    }
    await this.deps.outbox.deleteOne({ _id: jobId });
    return true;
  }

  /** One of the caller's jobs; another person's job is not found (its existence is not disclosed). */
  async get(id: string, identity: Identity): Promise<VideoJob> {
    const job = await this.deps.jobs.findOne({ _id: id, userId: identity.userId }).lean();
    if (!job) throw new NotFoundError('No video job with that id');
    return toVideoJob(job);
  }

  /** The captions of one of the caller's finished videos; undefined when it has none (yet); 404 when not theirs. */
  async cuesOf(id: string, identity: Identity): Promise<VideoJobDocument['cues']> {
    const job = await this.deps.jobs
      .findOne({ _id: id, userId: identity.userId }, { status: 1, cues: 1 })
      .lean<Pick<VideoJobDocument, 'status' | 'cues'>>();
    if (!job) throw new NotFoundError('No video job with that id');
    return job.status === 'succeeded' && job.cues?.length ? job.cues : undefined;
  }

  async list(query: VideoJobListQuery, identity: Identity): Promise<VideoJobList> {
    const jobs = await this.deps.jobs
      .find({ userId: identity.userId, ...(query.status ? { status: query.status } : {}) })
      .sort({ createdAt: -1 })
      .limit(query.limit)
      .lean();
    return { jobs: jobs.map(toVideoJob) };
  }

  private languageOf(input: VideoGenerationRequest): string {
    if (input.language === 'auto') return this.deps.detector.detect(input.prompt).language;
    const language = this.deps.catalogue.get(input.language);
    if (!language) {
      throw new InputError(`Unknown language '${input.language}'`, { language: input.language }, 'unknown_language');
    }
    return language.code;
  }

  /**
   * The voice that will read the prompt. The offline renderer needs one for the language; a hosted model makes its
   * own sound, so there only a voice that was asked for is checked.
   */
  private voiceFor(language: string, requested: string | undefined): string | undefined {
    const { chain, catalogue } = this.deps;
    const voice = chain.pickVoice(language, requested);
    if (voice) return voice.id;
    const name = catalogue.nameOf(language);
    if (requested && chain.canSpeak(language)) {
      throw new InputError(
        `Unknown voice '${requested}' for ${name}; GET /api/voice/voices?language=${language} lists them`,
        { language, voice: requested },
        'unknown_voice',
      );
    }
    if (this.deps.renderer !== 'offline' && !requested) return undefined;
    throw new InputError(
      `Kasa cannot speak ${name} (${language}) yet, so it cannot make a video in it; GET /api/languages?capability=speak lists the languages it speaks`,
      { language },
      'language_not_spoken',
    );
  }
}

/** The public view of a job. */
export function toVideoJob(job: VideoJobDocument): VideoJob {
  return {
    id: job._id,
    status: job.status,
    progress: job.progress,
    prompt: job.prompt,
    language: job.language,
    ...(job.voice ? { voice: job.voice } : {}),
    renderer: job.renderer,
    ...(job.captions ? { captions: job.captions } : {}),
    ...(job.status === 'succeeded' && job.fileId ? { videoUrl: `${VIDEO_FILE_PATH}/${job.fileId}` } : {}),
    ...(job.status === 'succeeded' && job.duration !== undefined ? { duration: job.duration } : {}),
    ...(job.status === 'failed' && job.error ? { error: job.error } : {}),
    createdAt: job.createdAt.toISOString(),
    updatedAt: job.updatedAt.toISOString(),
  };
}
