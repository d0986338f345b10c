import type { Operation } from './openapi';
import { VideoGenerationRequest, VideoJob, VideoJobList, VideoJobListQuery } from './video';
import { z } from './zod';

/** Video generation (Enterprise): queued jobs, their status, and the finished MP4. */
export const videoOperations: Operation[] = [
  {
    method: 'post',
    path: '/api/video/generations',
    summary: 'Queue a video made from a prompt (Enterprise)',
    description:
      'The prompt read aloud with its sentences as captions. Answers 202 with the job: poll it, or follow its ' +
      'events, for the result.',
    tag: 'Video',
    auth: true,
    body: VideoGenerationRequest,
    response: VideoJob,
    successStatus: 202,
    errors: [403, 429],
    errorNotes: { 403: 'Video generation is part of the Enterprise plan' },
  },
  {
    method: 'get',
    path: '/api/video/generations',
    summary: 'The caller’s video jobs, newest first',
    description: 'At most `limit` (1–50), of one `status` if given.',
    tag: 'Video',
    auth: true,
    query: VideoJobListQuery,
    response: VideoJobList,
  },
  {
    method: 'get',
    path: '/api/video/generations/{id}',
    summary: 'One of the caller’s video jobs',
    description: 'Its status and progress, and its videoUrl once it succeeded or its error once it failed.',
    tag: 'Video',
    auth: true,
    response: VideoJob,
    params: { id: z.string() },
  },
  {
    method: 'get',
    path: '/api/video/generations/{id}/events',
    summary: 'Follow one of the caller’s video jobs as Server-Sent Events',
    description:
      'The job (VideoJobEvent: status, progress, queuePosition while queued) at once and on every change, `done` ' +
      'with the finished job last; at most 5 open streams per person (429).',
    tag: 'Video',
    auth: true,
    params: { id: z.string() },
    successStatus: 200,
    stream: {
      status: 200,
      contentType: 'text/event-stream',
      description:
        'Events job (a VideoJobEvent: the job, with queuePosition while queued), then done (the job succeeded or ' +
        'failed) and the end of the stream; error {message} if it ends early; a `: ping` comment every 15 s',
    },
    errors: [429],
    errorNotes: { 429: 'The person already follows 5 jobs' },
  },
  {
    method: 'get',
    path: '/api/video/generations/{id}/captions',
    summary: 'The captions of one of the caller’s finished videos, as WebVTT',
    description: 'For a <track> element; 404 while the video is not finished, or when its renderer made none.',
    tag: 'Video',
    auth: true,
    params: { id: z.string() },
    successStatus: 200,
    stream: { status: 200, contentType: 'text/vtt', description: 'WebVTT: one cue per caption, timed as it is spoken' },
  },
  {
    method: 'get',
    path: '/api/video/files/{id}',
    summary: 'A finished video (MP4), whole or by byte range',
    description: 'No token needed: its unguessable address (a job’s videoUrl) is the key.',
    tag: 'Video',
    auth: false,
    successStatus: [200, 206],
    responseDescription: 'The video (video/mp4), or the requested byte range of it',
    errors: [416],
    errorNotes: { 416: 'The range asked for is outside the video' },
    params: { id: z.string() },
  },
];
