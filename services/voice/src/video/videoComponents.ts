import type { LanguageDetector } from '@kasa/language-detect';
import { MongoConcurrencySlots, Outbox, type EventBus, type Logger } from '@kasa/service-kit';
import type { Connection } from 'mongoose';
import type { VoiceConfig } from '../config';
import type { LanguageCatalogue } from '../languages/catalogue';
import { AudioStore } from '../speech/audioStore';
import type { FfmpegProgram } from '../speech/engines';
import type { ProcessLimits } from '../speech/processLimits';
import type { ProcessPool } from '../speech/processPool';
import type { SpeechChain } from '../speech/speechChain';
import { OfflineRenderer } from './offlineRenderer';
import { OpenAIVideoRenderer } from './openaiVideoRenderer';
import { videoJobModel, videoOutboxModel, type VideoJobModel, type VideoOutboxModel } from './videoJobModel';
import { VideoEventStreams } from './videoEventStreams';
import { VideoJobChanges } from './videoJobChanges';
import { VideoQueue } from './videoQueue';
import type { VideoRenderer } from './videoRenderer';
import { VideoService } from './videoService';
import { VideoSweeper } from './videoSweeper';
import { VideoWorker } from './videoWorker';

export type VideoSettings = Pick<
  VoiceConfig,
  | 'AMQP_URL'
  | 'VOICE_VIDEO_QUEUE'
  | 'VOICE_VIDEO_PROVIDER'
  | 'VOICE_VIDEO_FONT'
  | 'VOICE_VIDEO_TIMEOUT_MS'
  | 'VOICE_VIDEO_TTL_HOURS'
  | 'VOICE_VIDEO_MAX_ACTIVE_JOBS'
  | 'VOICE_VIDEO_EVENTS_POLL_MS'
  | 'VOICE_VIDEO_EVENTS_HEARTBEAT_MS'
  | 'VOICE_VIDEO_EVENTS_MAX_STREAMS'
  | 'OPENAI_API_KEY'
  | 'OPENAI_BASE_URL'
  | 'OPENAI_VIDEO_MODEL'
>;

/** A running job whose worker has not written for this long is taken to be abandoned (it writes every 5 s). */
const STALE_MS = 60_000;
/** How long a finished job waits for the broker to confirm its `voice.video.completed` before moving on. */
const COMPLETED_EVENT_WAIT_MS = 5_000;

/**
 * How long a video job's slot lives at most. It is given back when the job succeeds or fails (and by the sweeper if
 * that failed), so this only bounds a slot whose job was never stored (the instance died in between). It exceeds the
 * longest job: a wait in the queue, then up to three renders of at most VOICE_VIDEO_TIMEOUT_MS (an hour at most) with
 * a minute each before an abandoned render is noticed.
 */
export const VIDEO_SLOT_TTL_MS = 24 * 3_600_000;

export interface VideoComponents {
  service: VideoService;
  files: AudioStore;
  jobs: VideoJobModel;
  outbox: VideoOutboxModel;
  /** `voice.video.completed`, kept on each finished job until the broker confirmed it. */
  completedEvents: Outbox;
  queue: VideoQueue;
  worker: VideoWorker;
  sweeper: VideoSweeper;
  /** The jobs' event streams, and what tells them of this process's writes. */
  streams: VideoEventStreams;
  changes: VideoJobChanges;
  offline: OfflineRenderer;
  ttlMs: number;
  /** Connects the queue; with `consume`, this process renders jobs too. */
  start(options: { consume: boolean }): void;
  close(): Promise<void>;
}

/** Video generation: the job store, the work queue, the renderers, the worker and the sweeper. */
export async function createVideoComponents(deps: {
  settings: VideoSettings;
  db: Connection;
  bus: Pick<EventBus, 'publishWithin'>;
  logger: Logger;
  chain: SpeechChain;
  /** The ffmpeg the voice components found (the system's or the static build from npm); none: no offline videos. */
  ffmpeg: FfmpegProgram | undefined;
  catalogue: LanguageCatalogue;
  detector: LanguageDetector;
  workerId: string;
  /** The voice service's pool of heavy processes, which the renderer's ffmpeg goes through like speech does. */
  pool?: ProcessPool;
  /** The memory limit of those processes. */
  limits?: ProcessLimits;
}): Promise<VideoComponents> {
  const { settings, logger } = deps;
  const jobs = videoJobModel(deps.db);
  const outbox = videoOutboxModel(deps.db);
  const files = new AudioStore(deps.db, 'video');
  // Unfinished jobs per person: the kit's slots in voice's `concurrency_slots`, held from creation to the outcome.
  const slots = new MongoConcurrencySlots(deps.db, {
    scope: 'video',
    limit: settings.VOICE_VIDEO_MAX_ACTIVE_JOBS,
    ttlMs: VIDEO_SLOT_TTL_MS,
    // Released by whichever replica's worker ran the job.
    releasedWhereTaken: false,
  });
  const offline = await OfflineRenderer.create({
    ffmpeg: deps.ffmpeg,
    fontPath: settings.VOICE_VIDEO_FONT,
    chain: deps.chain,
    logger,
    pool: deps.pool,
    limits: deps.limits,
    timeoutMs: settings.VOICE_VIDEO_TIMEOUT_MS,
  });
  const renderers: VideoRenderer[] = [];
  if (settings.VOICE_VIDEO_PROVIDER === 'openai') {
    renderers.push(
      new OpenAIVideoRenderer({
        apiKey: settings.OPENAI_API_KEY,
        baseUrl: settings.OPENAI_BASE_URL,
        model: settings.OPENAI_VIDEO_MODEL,
        logger,
      }),
    );
  }
  // The offline renderer is always last: a hosted model that fails falls back to it.
  renderers.push(offline);
  const queue = new VideoQueue({ url: settings.AMQP_URL, queue: settings.VOICE_VIDEO_QUEUE, logger });
  const ttlMs = settings.VOICE_VIDEO_TTL_HOURS * 3_600_000;
  const service = new VideoService({
    jobs,
    outbox,
    queue,
    chain: deps.chain,
    catalogue: deps.catalogue,
    detector: deps.detector,
    logger,
    renderer: renderers[0]!.name,
    slots,
  });
  const changes = new VideoJobChanges();
  const streams = new VideoEventStreams({
    jobs,
    changes,
    logger,
    pollMs: settings.VOICE_VIDEO_EVENTS_POLL_MS,
    heartbeatMs: settings.VOICE_VIDEO_EVENTS_HEARTBEAT_MS,
    maxPerPerson: settings.VOICE_VIDEO_EVENTS_MAX_STREAMS,
  });
  // `voice.video.completed` is stored on the finished job and published from there (the kit's outbox); index.ts
  // schedules its republisher.
  const completedEvents = new Outbox({
    model: jobs,
    field: 'completedEvent',
    bus: deps.bus,
    logger,
    publishWaitMs: COMPLETED_EVENT_WAIT_MS,
  });
  const worker = new VideoWorker({
    changes,
    jobs,
    files,
    renderers,
    completedEvents,
    logger,
    workerId: deps.workerId,
    timeoutMs: settings.VOICE_VIDEO_TIMEOUT_MS,
    staleMs: STALE_MS,
    slots,
  });
  const sweeper = new VideoSweeper({
    jobs,
    outbox,
    files,
    dispatcher: service,
    worker,
    logger,
    staleMs: STALE_MS,
    ttlMs,
  });
  return {
    service,
    files,
    jobs,
    outbox,
    completedEvents,
    queue,
    worker,
    sweeper,
    streams,
    changes,
    offline,
    ttlMs,
    start: ({ consume }) => queue.start(consume ? (msg, signal) => worker.handle(msg, signal) : undefined),
    close: () => {
      streams.closeAll();
      return queue.close();
    },
  };
}
