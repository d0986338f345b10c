/**
 * @jest-environment <rootDir>/sdks/react/test/jsdomWithNodeFetch.js
 */
import { Kasa, KasaError, type VideoJob, type VideoJobStatus } from '@kasa/sdk';
import {
  createKasaQueryClient,
  KasaProvider,
  kasaKeys,
  useCreateVideo,
  useVideoFile,
  useVideoJob,
  useVideoJobs,
} from '@kasa/react';
import type { QueryClient } from '@tanstack/react-query';
import { eventually } from '@kasa/test-kit';
import { act, cleanup, renderHook, waitFor } from './testingLibrary';
import type { ServerResponse } from 'node:http';
import { createElement, type ReactNode } from 'react';
import { localServer, type SeenRequest } from '../../js/test/localServer';

/**
 * The video hooks with the real client against a local fake of the video API, whose jobs move through the states
 * each test scripts: polling, its end, the list and the job after a create, and when the MP4 is fetched. The plan
 * refusal of the real platform is in hooks.test.ts.
 */
const JOB_ID = 'Vj0123456789abcdefghij';
/** The polling interval of these tests, in ms: short, so that a poll that goes on shows within a few dozen ms. */
const POLL_MS = 20;
/** Long enough for ten more reads if polling had not stopped. */
const TEN_POLLS_MS = 10 * POLL_MS + 50;

function videoJob(status: VideoJobStatus, progress: number, id = JOB_ID): VideoJob {
  return {
    id,
    status,
    progress,
    prompt: 'Akwaaba! Welcome to Kasa.',
    language: 'en',
    renderer: 'offline',
    ...(status === 'succeeded' ? { videoUrl: `/api/video/files/${id}`, duration: 2.5 } : {}),
    ...(status === 'failed' ? { error: 'The video could not be rendered.' } : {}),
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:01.000Z',
  };
}

type Answer = VideoJob | { status: number; code: string; message: string };

function send(res: ServerResponse, answer: Answer | VideoJob[], created = false) {
  const error = 'code' in answer ? answer : undefined;
  const status = error ? error.status : created ? 202 : 200;
  const body = error ?? (Array.isArray(answer) ? { jobs: answer } : answer);
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ ...body, ...(error ? { requestId: 'req-1' } : {}) }));
}

/**
 * How the fake answers a job's event stream: `events` are written as Server-Sent Events (a job event each, `done` for
 * a finished job), `pauseMs` apart; then the stream ends (`end`), stays open (`hold`) or drops (`drop`: the
 * connection closes before the job ended). Without a stream the route answers 404, as a server without it would.
 */
interface EventsScript {
  events: VideoJob[];
  pauseMs?: number;
  then: 'end' | 'hold' | 'drop';
  /** Holds event `index` back until this resolves (e.g. until the hook has shown the one before). */
  before?: (index: number) => Promise<unknown>;
}

function stream(res: ServerResponse, script: EventsScript, closed: () => void) {
  res.on('close', closed);
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  (async () => {
    for (const [index, job] of script.events.entries()) {
      await new Promise((resolve) => setTimeout(resolve, script.pauseMs ?? 0));
      if (res.destroyed) return;
      await script.before?.(index);
      const name = job.status === 'succeeded' || job.status === 'failed' ? 'done' : 'job';
      res.write(`event: ${name}\ndata: ${JSON.stringify(job)}\n\n`);
    }
    if (script.then === 'end') res.end();
    // A moment first, so that what was written reaches the client before the connection drops.
    if (script.then === 'drop') setTimeout(() => res.destroy(), 20);
  })().catch(() => {
    // A scripted wait gave up (the test already failed, or its hook is gone): the stream ends there, and the test's
    // own expectation says what went wrong, instead of a rejection surfacing in whichever test file runs next.
    res.destroy();
  });
}

/**
 * A fake of the video API: each read of the job gives the next of `reads` (the last repeats), its event stream
 * follows `events` (see EventsScript), each read of the list the next of `lists`, a create answers `created`, and the
 * file is a few bytes of MP4 (or `file` when given).
 */
async function videoApi(script: {
  reads?: Answer[];
  events?: EventsScript;
  lists?: VideoJob[][];
  created?: VideoJob;
  file?: Answer;
}) {
  let reads = 0;
  let lists = 0;
  let streamsClosed = 0;
  const server = await localServer([
    (req, res) => {
      const url = req.url ?? '';
      if (req.method === 'POST') return send(res, script.created!, true);
      if (url.endsWith('/events')) {
        if (script.events) return stream(res, script.events, () => streamsClosed++);
        return send(res, { status: 404, code: 'not_found', message: 'No such route' });
      }
      if (url.startsWith('/api/video/generations/')) {
        const answers = script.reads!;
        return send(res, answers[Math.min(reads++, answers.length - 1)]!);
      }
      if (url.startsWith('/api/video/generations')) {
        const answers = script.lists ?? [[]];
        return send(res, answers[Math.min(lists++, answers.length - 1)]!);
      }
      if (script.file) return send(res, script.file);
      res.writeHead(200, { 'content-type': 'video/mp4' });
      res.end(Buffer.from('0000ftypisom-video'));
    },
  ]);
  const count = (what: (r: SeenRequest) => boolean) => server.seen.filter(what).length;
  return {
    ...server,
    kasa: new Kasa({ baseUrl: server.baseUrl, apiKey: 'ksk_test' }),
    jobReads: () => count((r) => r.url.startsWith('/api/video/generations/') && !r.url.endsWith('/events')),
    streamsOpened: () => count((r) => r.url.endsWith('/events')),
    streamsClosed: () => streamsClosed,
    listReads: () => count((r) => r.method === 'GET' && /^\/api\/video\/generations(\?|$)/.test(r.url)),
    fileReads: () => count((r) => r.url.startsWith('/api/video/files/')),
  };
}

const servers: { close: () => Promise<void> }[] = [];
const caches: QueryClient[] = [];
afterEach(async () => {
  cleanup();
  for (const cache of caches.splice(0)) cache.clear();
  for (const server of servers.splice(0)) await server.close();
});

async function startApi(script: Parameters<typeof videoApi>[0]) {
  const api = await videoApi(script);
  servers.push(api);
  return api;
}

function wrapperFor(client: Kasa) {
  const queryClient = createKasaQueryClient();
  caches.push(queryClient);
  const wrapper = ({ children }: { children?: ReactNode }) =>
    createElement(KasaProvider, { client, queryClient }, children);
  return { wrapper, queryClient };
}

const pause = (ms: number) => act(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));

describe('useVideoJob', () => {
  it('follows the job’s event stream while it is unfinished, without polling, until done', async () => {
    const progress: number[] = [];
    const api = await startApi({
      reads: [videoJob('queued', 0)],
      events: {
        events: [videoJob('running', 50), videoJob('succeeded', 100)],
        pauseMs: 10,
        then: 'end',
        // Each state reaches the screen before the next is sent: a busy machine may otherwise render two as one.
        before: (index) =>
          eventually(() => progress.length > index, {
            what: `progress ${progress.join(', ')} shown`,
            timeoutMs: 10_000,
          }),
      },
    });
    const { result } = renderHook(
      () => {
        const job = useVideoJob(JOB_ID, { pollWhileRunning: POLL_MS });
        if (job.data && progress.at(-1) !== job.data.progress) progress.push(job.data.progress);
        return job;
      },
      { wrapper: wrapperFor(api.kasa).wrapper },
    );

    await waitFor(() => expect(result.current.data?.status).toBe('succeeded'));
    expect(progress).toEqual([0, 50, 100]);
    expect(result.current.data?.videoUrl).toBe('/api/video/files/Vj0123456789abcdefghij');
    await pause(TEN_POLLS_MS);
    // One read for the first state, one stream for the rest: nothing polled, nothing opened again.
    expect(api.jobReads()).toBe(1);
    expect(api.streamsOpened()).toBe(1);
    expect(api.seen[1]).toMatchObject({
      method: 'GET',
      url: '/api/video/generations/Vj0123456789abcdefghij/events',
      authorization: 'Bearer ksk_test',
    });
  });

  it('falls back to polling when the stream breaks off, and does not open it again', async () => {
    const api = await startApi({
      reads: [videoJob('queued', 0), videoJob('running', 60), videoJob('succeeded', 100)],
      events: { events: [videoJob('running', 30)], then: 'drop' },
    });
    const progress: number[] = [];
    const { result } = renderHook(
      () => {
        const job = useVideoJob(JOB_ID, { pollWhileRunning: POLL_MS });
        if (job.data && progress.at(-1) !== job.data.progress) progress.push(job.data.progress);
        return job;
      },
      { wrapper: wrapperFor(api.kasa).wrapper },
    );

    await waitFor(() => expect(result.current.data?.status).toBe('succeeded'));
    expect(result.current.isError).toBe(false);
    expect(progress).toEqual([0, 30, 60, 100]);
    await pause(TEN_POLLS_MS);
    expect(api.jobReads()).toBe(3);
    expect(api.streamsOpened()).toBe(1);
  });

  it('closes the stream on unmount, and opens none with followEvents: false', async () => {
    const api = await startApi({
      reads: [videoJob('running', 10)],
      events: { events: [videoJob('running', 20)], then: 'hold' },
    });
    const { result, unmount } = renderHook(() => useVideoJob(JOB_ID), { wrapper: wrapperFor(api.kasa).wrapper });
    await waitFor(() => expect(result.current.data?.progress).toBe(20));
    expect(api.streamsClosed()).toBe(0);
    unmount();
    await waitFor(() => expect(api.streamsClosed()).toBe(1));

    const polled = renderHook(() => useVideoJob(JOB_ID, { followEvents: false, pollWhileRunning: POLL_MS }), {
      wrapper: wrapperFor(api.kasa).wrapper,
    });
    await waitFor(() => expect(api.jobReads()).toBeGreaterThanOrEqual(3));
    expect(polled.result.current.data?.progress).toBe(10);
    expect(api.streamsOpened()).toBe(1);
  });

  it('without an event stream, reads the job while it is queued or running, showing its progress, and stops once it has succeeded', async () => {
    const api = await startApi({
      reads: [videoJob('queued', 0), videoJob('running', 50), videoJob('succeeded', 100), videoJob('running', 1)],
    });
    const progress: number[] = [];
    const { result } = renderHook(
      () => {
        const job = useVideoJob(JOB_ID, { pollWhileRunning: POLL_MS });
        if (job.data && progress.at(-1) !== job.data.progress) progress.push(job.data.progress);
        return job;
      },
      { wrapper: wrapperFor(api.kasa).wrapper },
    );

    await waitFor(() => expect(result.current.data?.status).toBe('succeeded'));
    expect(progress).toEqual([0, 50, 100]);
    expect(result.current.data?.videoUrl).toBe('/api/video/files/Vj0123456789abcdefghij');
    await pause(TEN_POLLS_MS);
    expect(api.jobReads()).toBe(3);
    expect(api.streamsOpened()).toBe(1);
    expect(result.current.data?.status).toBe('succeeded');
  });

  it('stops once the job has failed, and gives the job with its error', async () => {
    const api = await startApi({ reads: [videoJob('running', 10), videoJob('failed', 10)] });
    const { result } = renderHook(() => useVideoJob(JOB_ID, { pollWhileRunning: POLL_MS }), {
      wrapper: wrapperFor(api.kasa).wrapper,
    });

    await waitFor(() => expect(result.current.data?.status).toBe('failed'));
    expect(result.current.isError).toBe(false);
    expect(result.current.data?.error).toBe('The video could not be rendered.');
    await pause(TEN_POLLS_MS);
    expect(api.jobReads()).toBe(2);
  });

  it('reports an unknown job as a KasaError and stops polling after the refusal', async () => {
    const gone = { status: 404, code: 'not_found', message: 'Video job not found' };
    const api = await startApi({ reads: [videoJob('running', 30), gone] });
    const { result } = renderHook(() => useVideoJob(JOB_ID, { pollWhileRunning: POLL_MS }), {
      wrapper: wrapperFor(api.kasa).wrapper,
    });

    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.error).toBeInstanceOf(KasaError);
    expect(result.current.error).toMatchObject({ status: 404, code: 'not_found', requestId: 'req-1' });
    await pause(TEN_POLLS_MS);
    expect(api.jobReads()).toBe(2);
  });

  it('reads once and no more with pollWhileRunning: false, and waits while the id is undefined', async () => {
    const api = await startApi({ reads: [videoJob('running', 30)] });
    const { result, rerender } = renderHook(
      ({ id }: { id: string | undefined }) => useVideoJob(id, { pollWhileRunning: false }),
      { wrapper: wrapperFor(api.kasa).wrapper, initialProps: { id: undefined as string | undefined } },
    );
    await pause(TEN_POLLS_MS);
    expect(api.jobReads()).toBe(0);
    expect(result.current.fetchStatus).toBe('idle');

    rerender({ id: JOB_ID });
    await waitFor(() => expect(result.current.data?.status).toBe('running'));
    await pause(TEN_POLLS_MS);
    expect(api.jobReads()).toBe(1);
    expect(api.seen[0]).toMatchObject({ method: 'GET', authorization: 'Bearer ksk_test' });
  });
});

describe('useVideoJobs', () => {
  it('lists the jobs and reads the list again until every job in it has ended', async () => {
    const other = 'Wj0123456789abcdefghij';
    const api = await startApi({
      lists: [
        [videoJob('running', 20), videoJob('succeeded', 100, other)],
        [videoJob('failed', 20), videoJob('succeeded', 100, other)],
      ],
    });
    const { result } = renderHook(() => useVideoJobs({ limit: 5 }, { pollWhileRunning: POLL_MS }), {
      wrapper: wrapperFor(api.kasa).wrapper,
    });

    await waitFor(() => expect(result.current.data?.map((j) => j.status)).toEqual(['failed', 'succeeded']));
    await pause(TEN_POLLS_MS);
    expect(api.listReads()).toBe(2);
    expect(api.seen[0]!.url).toBe('/api/video/generations?limit=5');
  });
});

describe('useCreateVideo', () => {
  it('queues a video, starts the job’s query from the answer and refetches the lists', async () => {
    const queued = videoJob('queued', 0);
    const api = await startApi({ created: queued, lists: [[], [queued]], reads: [videoJob('running', 40)] });
    const { wrapper, queryClient } = wrapperFor(api.kasa);
    const { result } = renderHook(
      () => ({ create: useCreateVideo(), list: useVideoJobs({}, { pollWhileRunning: false }) }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.list.data).toEqual([]));

    const job = await act(() =>
      result.current.create.mutateAsync({ prompt: queued.prompt, language: 'en', idempotencyKey: 'video-1' }),
    );

    expect(job).toEqual(queued);
    // The job's query holds the answer without a read of its own.
    expect(queryClient.getQueryData(kasaKeys.videoJob(job.id))).toEqual(queued);
    expect(api.jobReads()).toBe(0);
    await waitFor(() => expect(result.current.list.data?.map((j) => j.id)).toEqual([JOB_ID]));
    expect(api.listReads()).toBe(2);
    const post = api.seen.find((r) => r.method === 'POST');
    expect(post).toMatchObject({ url: '/api/video/generations', idempotencyKey: 'video-1' });
  });

  it('exposes a refused create as a KasaError', async () => {
    const refusal = { status: 429, code: 'too_many_video_jobs', message: 'Too many videos are being made' };
    const api = await startApi({ created: refusal as unknown as VideoJob });
    const { result } = renderHook(() => useCreateVideo(), {
      wrapper: wrapperFor(new Kasa({ baseUrl: api.baseUrl, apiKey: 'ksk_test', maxRetries: 0 })).wrapper,
    });
    await act(async () => {
      await result.current.mutateAsync({ prompt: 'Hello.', language: 'en' }).catch(() => undefined);
    });
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.error).toBeInstanceOf(KasaError);
    expect(result.current.error).toMatchObject({ status: 429, code: 'too_many_video_jobs' });
  });
});

describe('useVideoFile', () => {
  const made: string[] = [];
  const revoked: string[] = [];
  beforeEach(() => {
    made.length = 0;
    revoked.length = 0;
    // jsdom makes no object URLs: these stand for the browser's, and record what is made and revoked.
    URL.createObjectURL = (blob: Blob) => {
      const url = `blob:kasa/${made.length + 1}-${blob.size}`;
      made.push(url);
      return url;
    };
    URL.revokeObjectURL = (url: string) => void revoked.push(url);
  });

  it('downloads nothing before the job has succeeded, then gives the MP4 and an object URL revoked on unmount', async () => {
    const api = await startApi({});
    const { result, rerender, unmount } = renderHook(({ job }: { job: VideoJob | undefined }) => useVideoFile(job), {
      wrapper: wrapperFor(api.kasa).wrapper,
      initialProps: { job: undefined as VideoJob | undefined },
    });
    for (const job of [undefined, videoJob('queued', 0), videoJob('running', 60), videoJob('failed', 60)]) {
      rerender({ job });
      await pause(50);
      expect(result.current).toMatchObject({ status: 'idle', blob: undefined, url: undefined, error: null });
    }
    expect(api.fileReads()).toBe(0);

    rerender({ job: videoJob('succeeded', 100) });
    await waitFor(() => expect(result.current.url).toBeDefined());
    expect(result.current.status).toBe('success');
    expect(result.current.blob?.type).toBe('video/mp4');
    expect(Buffer.from(await result.current.blob!.arrayBuffer()).toString()).toBe('0000ftypisom-video');
    expect(result.current.url).toBe(made[0]);
    expect(api.seen.at(-1)).toMatchObject({ url: '/api/video/files/Vj0123456789abcdefghij', authorization: undefined });
    expect(revoked).toEqual([]);

    unmount();
    expect(revoked).toEqual([made[0]]);
    expect(api.fileReads()).toBe(1);
  });

  it('revokes the URL of the previous video when the job changes', async () => {
    const api = await startApi({});
    const { result, rerender } = renderHook(({ job }: { job: VideoJob }) => useVideoFile(job), {
      wrapper: wrapperFor(api.kasa).wrapper,
      initialProps: { job: videoJob('succeeded', 100) },
    });
    await waitFor(() => expect(made).toHaveLength(1));
    await waitFor(() => expect(result.current.url).toBe(made[0]));

    rerender({ job: videoJob('succeeded', 100, 'Xj0123456789abcdefghij') });
    await waitFor(() => expect(made).toHaveLength(2));
    await waitFor(() => expect(result.current.url).toBe(made[1]));
    expect(revoked).toEqual([made[0]]);
    expect(api.seen.map((r) => r.url)).toEqual([
      '/api/video/files/Vj0123456789abcdefghij',
      '/api/video/files/Xj0123456789abcdefghij',
    ]);
  });

  it('reports a video past its time to live as a KasaError', async () => {
    const api = await startApi({ file: { status: 404, code: 'not_found', message: 'No video with that id' } });
    const { result } = renderHook(() => useVideoFile(videoJob('succeeded', 100)), {
      wrapper: wrapperFor(api.kasa).wrapper,
    });
    await waitFor(() => expect(result.current.status).toBe('error'));
    expect(result.current.error).toBeInstanceOf(KasaError);
    expect(result.current.error).toMatchObject({ status: 404, code: 'not_found' });
    expect(result.current).toMatchObject({ blob: undefined, url: undefined });
    expect(made).toEqual([]);
  });
});
