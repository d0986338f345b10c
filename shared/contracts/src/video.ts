import { LanguageTag } from './voice';
import { z } from './zod';

/** 22 URL-safe characters (128 random bits): the ids of video jobs and of their files. */
const RandomId = z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'must be a video id');

export const VideoGenerationRequest = z
  .object({
    /** What the video says and shows: read aloud by the chosen voice, its sentences shown as captions. */
    prompt: z.string().trim().min(1, 'prompt is required').max(2_000, 'prompt must be at most 2000 characters'),
    /** The prompt's language, or `auto` to detect it. */
    language: z.union([z.literal('auto'), LanguageTag]),
    /** A voice id from GET /api/voice/voices; the language's default voice when left out. */
    voice: z.string().trim().min(1).max(64).optional(),
  })
  .strict()
  .openapi('VideoGenerationRequest');
export type VideoGenerationRequest = z.infer<typeof VideoGenerationRequest>;

export const VideoJobStatus = z.enum(['queued', 'running', 'succeeded', 'failed']);
export type VideoJobStatus = z.infer<typeof VideoJobStatus>;

export const VideoJob = z
  .object({
    id: z.string(),
    status: VideoJobStatus,
    /** 0–100. */
    progress: z.number().int().min(0).max(100),
    prompt: z.string(),
    language: z.string(),
    voice: z.string().optional(),
    /** What makes the video: `offline` (speech and caption frames made on the server) or a hosted video model. */
    renderer: z.string(),
    /**
     * How the offline renderer shows the prompt: captions drawn on the frames (`burned-in`), or plain frames with a
     * subtitle track (`subtitle-track`, when the server has no font). Set once rendering starts.
     */
    captions: z.enum(['burned-in', 'subtitle-track']).optional(),
    /** Where to fetch the MP4 once it succeeded (no token needed: the address itself is the secret). */
    videoUrl: z.string().optional(),
    /** Seconds of video, once it succeeded. */
    duration: z.number().nonnegative().optional(),
    /** Why it failed. */
    error: z.string().optional(),
    createdAt: z.string().datetime(),
    updatedAt: z.string().datetime(),
  })
  .openapi('VideoJob');
export type VideoJob = z.infer<typeof VideoJob>;

/**
 * One event of `GET /api/video/generations/{id}/events` (Server-Sent Events): the job as it is now, sent at once and
 * then each time it changes. Event `job` while it is queued or running; the last event is `done`, with the job
 * succeeded or failed, after which the stream ends. An `error` event (`VideoJobEventError`) ends it early, e.g. when
 * the job was deleted.
 */
export const VideoJobEvent = VideoJob.extend({
  /** While queued: how many queued jobs were created before this one (0: it is next). */
  queuePosition: z.number().int().nonnegative().optional(),
}).openapi('VideoJobEvent');
export type VideoJobEvent = z.infer<typeof VideoJobEvent>;

/** The names of the events of a video job's event stream. */
export const VideoJobEventName = z.enum(['job', 'done', 'error']);
export type VideoJobEventName = z.infer<typeof VideoJobEventName>;

/** The data of an `error` event: why the stream ended before the job did. */
export const VideoJobEventError = z.object({ message: z.string() }).openapi('VideoJobEventError');
export type VideoJobEventError = z.infer<typeof VideoJobEventError>;

export const VideoJobList = z.object({ jobs: z.array(VideoJob) }).openapi('VideoJobList');
export type VideoJobList = z.infer<typeof VideoJobList>;

export const VideoJobListQuery = z
  .object({
    /** How many of the newest jobs (1–50, default 20). */
    limit: z.coerce.number().int().min(1).max(50).default(20),
    /** Only jobs with this status. */
    status: VideoJobStatus.optional(),
  })
  .strict();
export type VideoJobListQuery = z.infer<typeof VideoJobListQuery>;

export const VideoJobIdParam = z.object({ id: RandomId });
export const VideoFileIdParam = z.object({ id: RandomId });

/** The message on the video work queue: which job to render (the job itself is in the database). */
export const VideoWorkMessage = z.object({ jobId: RandomId }).strict();
export type VideoWorkMessage = z.infer<typeof VideoWorkMessage>;
