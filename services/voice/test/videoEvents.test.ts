import { VideoJobEvent } from '@kasa/contracts';
import { eventually } from '@kasa/test-kit';
import type { Express } from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { VideoComponents } from '../src/video/videoComponents';
import { TestEnvironment, unique, userHeaders } from './support';
import { deleteQueues, testQueue, videoApp } from './videoSupport';

/**
 * GET /api/video/generations/:id/events through a listening server (a stream must be read as it arrives, and closed
 * by the client), with real RabbitMQ, the embedded database and the offline renderer.
 */
const env = new TestEnvironment('video_events');
const queues: string[] = [];
const servers: http.Server[] = [];
const stopLater: VideoComponents[] = [];

interface Instance {
  app: Express;
  video: VideoComponents;
  baseUrl: string;
}

async function instance(options: Parameters<typeof videoApp>[1]): Promise<Instance> {
  if (!queues.includes(options.queue)) queues.push(options.queue);
  const made = await videoApp(env, options);
  stopLater.push(made.video);
  const server = http.createServer(made.app);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { ...made, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

beforeAll(() => env.start(), 60_000);

afterAll(async () => {
  for (const video of stopLater) await video.close();
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await deleteQueues(queues);
  await env.stop();
});

interface SseEvent {
  event: string;
  data: string;
}

/** An open event stream: its events as they arrive, the raw text (comments included), and a way to close it. */
interface OpenStream {
  status: number;
  events: SseEvent[];
  raw: () => string;
  /** Resolves when the server ended the stream. */
  ended: Promise<void>;
  close: () => void;
}

async function openEvents(base: Instance, id: string, headers: Record<string, string>): Promise<OpenStream> {
  const abort = new AbortController();
  const res = await fetch(`${base.baseUrl}/api/video/generations/${id}/events`, {
    headers: { ...headers, accept: 'text/event-stream' },
    signal: abort.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const events: SseEvent[] = [];
  let text = '';
  let pending = '';
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const ended = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        const chunk = decoder.decode(value, { stream: true });
        text += chunk;
        pending += chunk;
        for (let end = pending.indexOf('\n\n'); end >= 0; end = pending.indexOf('\n\n')) {
          const block = pending.slice(0, end);
          pending = pending.slice(end + 2);
          const lines = block.split('\n').filter((line) => !line.startsWith(':'));
          const event = lines.find((line) => line.startsWith('event: '))?.slice(7);
          const data = lines.filter((line) => line.startsWith('data: ')).map((line) => line.slice(6));
          if (event && data.length) events.push({ event, data: data.join('\n') });
        }
      }
    } catch {
      /* closed by the client */
    }
  })();
  return { status: res.status, events, raw: () => text, ended, close: () => abort.abort() };
}

const jobsOf = (stream: OpenStream) =>
  stream.events.map((e) => {
    const parsed = VideoJobEvent.safeParse(JSON.parse(e.data));
    if (!parsed.success) throw new Error(`a ${e.event} event does not match VideoJobEvent: ${e.data}`);
    return { name: e.event, ...parsed.data };
  });

const create = async (base: Instance, headers: Record<string, string>, prompt = 'Akwaaba! Welcome to Accra.') => {
  const created = await request(base.app).post('/api/video/generations').set(headers).send({ prompt, language: 'en' });
  expect(created.status).toBe(202);
  return created.body.id as string;
};

const statusRank = { queued: 0, running: 1, succeeded: 2, failed: 2 } as const;

describe('a video job’s event stream', () => {
  it('sends the job at once and on each change from the worker of this process, then ends with done', async () => {
    // Reads by time are left out (a minute apart): the progress can only come from the worker's changes.
    const worker = await instance({
      queue: testQueue(),
      consume: true,
      env: { VOICE_VIDEO_EVENTS_POLL_MS: '60000' },
    });
    const person = userHeaders('enterprise');
    // A job ahead of it (one at a time per worker) keeps the one watched queued until its stream is open, so that
    // the stream sees it change however fast this machine renders.
    await create(worker, userHeaders('enterprise'), 'Medaase. Thank you for waiting while this video is made.');
    const id = await create(
      worker,
      person,
      'Akwaaba! Welcome to Accra, the capital of Ghana. The markets open early in the morning. Kenkey is sold hot.',
    );
    const stream = await openEvents(worker, id, person);
    await stream.ended;
    const jobs = jobsOf(stream);

    expect(jobs.length).toBeGreaterThanOrEqual(3);
    expect(jobs.every((j) => j.id === id)).toBe(true);
    const last = jobs.at(-1)!;
    expect(last).toMatchObject({ name: 'done', status: 'succeeded', progress: 100 });
    expect(last.videoUrl).toMatch(/^\/api\/video\/files\/[A-Za-z0-9_-]{22}$/);
    expect(jobs.slice(0, -1).every((j) => j.name === 'job')).toBe(true);
    // In order: the status never goes back, the progress never falls, and the bar moved in between.
    for (let i = 1; i < jobs.length; i++) {
      expect(statusRank[jobs[i]!.status]).toBeGreaterThanOrEqual(statusRank[jobs[i - 1]!.status]);
      expect(jobs[i]!.progress).toBeGreaterThanOrEqual(jobs[i - 1]!.progress);
    }
    // It was seen waiting (the job ahead), then rendering, then done: each change reached the stream. (How often
    // the progress moves while rendering is the worker's business: it writes at most once a second.)
    expect(jobs[0]).toMatchObject({ name: 'job', status: 'queued' });
    expect(jobs.some((j) => j.status === 'running')).toBe(true);
    // The queue position is only there while queued.
    expect(jobs.filter((j) => j.status !== 'queued').every((j) => j.queuePosition === undefined)).toBe(true);

    // The captions of the finished video, as WebVTT for a <track>.
    const captions = await request(worker.app).get(`/api/video/generations/${id}/captions`).set(person);
    expect(captions.status).toBe(200);
    expect(captions.headers['content-type']).toMatch(/^text\/vtt/);
    expect(captions.text).toMatch(/^WEBVTT\n\n1\n00:00:00\.000 --> 00:00:\d\d\.\d{3}\nAkwaaba!\n/);
    expect(captions.text).toContain('Kenkey is sold hot.');
    expect(worker.video.streams.openCount).toBe(0);
  }, 90_000);

  it('follows a job rendered by another replica by reading it, with its place in the queue until it starts', async () => {
    const queue = testQueue();
    // This replica takes the requests and renders nothing; the worker comes later on the same queue.
    const front = await instance({ queue, consume: false, env: { VOICE_VIDEO_EVENTS_POLL_MS: '200' } });
    const first = await create(front, userHeaders('enterprise'));
    const person = userHeaders('enterprise');
    const second = await create(front, person);
    const stream = await openEvents(front, second, person);
    await eventually(() => stream.events.length > 0, { timeoutMs: 5_000, what: 'the first event' });
    const [initial] = jobsOf(stream);
    expect(initial).toMatchObject({ name: 'job', id: second, status: 'queued', progress: 0 });
    const firstPlace = await front.video.jobs.countDocuments({
      status: 'queued',
      createdAt: { $lt: (await front.video.jobs.findById(first).lean())!.createdAt },
    });
    expect(initial!.queuePosition).toBe(firstPlace + 1);

    await instance({ queue, consume: true });
    await stream.ended;
    const jobs = jobsOf(stream);
    // Its place moved up when the first job started, then it ran and finished; none of it heard from a worker here.
    expect(jobs.filter((j) => j.status === 'queued').map((j) => j.queuePosition)).toEqual(
      expect.arrayContaining([firstPlace + 1, firstPlace]),
    );
    expect(jobs.some((j) => j.status === 'running')).toBe(true);
    expect(jobs.at(-1)).toMatchObject({ name: 'done', status: 'succeeded', progress: 100 });
    expect(front.video.changes.listenerCount).toBe(0);
  }, 120_000);

  it('ends with done and the reason when the job fails', async () => {
    const broken = await instance({
      queue: testQueue(),
      consume: true,
      env: { VOICE_FFMPEG_BIN: '/nonexistent/ffmpeg', VOICE_PACKAGED_ENGINES: 'false' },
    });
    const person = userHeaders('enterprise');
    const id = await create(broken, person);
    const stream = await openEvents(broken, id, person);
    await stream.ended;
    const last = jobsOf(stream).at(-1)!;
    expect(last).toMatchObject({ name: 'done', status: 'failed', error: expect.stringContaining('ffmpeg') });
    expect(last.videoUrl).toBeUndefined();
    // A failed video has no captions to fetch.
    expect((await request(broken.app).get(`/api/video/generations/${id}/captions`).set(person)).status).toBe(404);
  }, 60_000);

  describe('with a replica that renders nothing', () => {
    let idle: Instance;
    beforeAll(async () => {
      idle = await instance({
        queue: testQueue(),
        consume: false,
        env: {
          VOICE_VIDEO_EVENTS_POLL_MS: '100',
          VOICE_VIDEO_EVENTS_HEARTBEAT_MS: '150',
          VOICE_VIDEO_EVENTS_MAX_STREAMS: '2',
        },
      });
    }, 60_000);

    it('answers 404 for another person’s job, as GET of the job does, and 400 for a malformed id', async () => {
      const id = await create(idle, userHeaders('enterprise'));
      const someoneElse = userHeaders('enterprise');
      const res = await request(idle.app).get(`/api/video/generations/${id}/events`).set(someoneElse);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toMatchObject({ code: 'not_found', message: 'No video job with that id' });
      expect((await request(idle.app).get(`/api/video/generations/${id}`).set(someoneElse)).status).toBe(404);
      expect((await request(idle.app).get(`/api/video/generations/${id}/captions`).set(someoneElse)).status).toBe(404);
      const malformed = await request(idle.app).get('/api/video/generations/not-an-id/events').set(someoneElse);
      expect(malformed.status).toBe(400);
      const anonymous = await request(idle.app).get(`/api/video/generations/${id}/events`);
      expect(anonymous.status).toBe(401);
      // A 404 does not hold one of the person's streams.
      expect(idle.video.streams.openCount).toBe(0);
    });

    it('pings while nothing changes, and stops listening, reading and pinging when the client goes away', async () => {
      const person = userHeaders('enterprise');
      const id = await create(idle, person);
      const reads = jest.spyOn(idle.video.jobs, 'findOne');
      try {
        const stream = await openEvents(idle, id, person);
        await eventually(() => stream.raw().includes(': ping\n\n') && reads.mock.calls.length >= 3, {
          timeoutMs: 5_000,
          what: 'a heartbeat comment and a few reads',
        });
        // Nothing changed: one event only, however many reads.
        expect(jobsOf(stream)).toEqual([expect.objectContaining({ name: 'job', status: 'queued' })]);
        expect(idle.video.streams.openCount).toBe(1);
        expect(idle.video.changes.listenerCount).toBe(1);

        stream.close();
        await eventually(() => idle.video.streams.openCount === 0, { timeoutMs: 5_000, what: 'the stream closed' });
        expect(idle.video.changes.listenerCount).toBe(0);
        const readsAtClose = reads.mock.calls.length;
        await new Promise((r) => setTimeout(r, 500)); // five read periods
        expect(reads.mock.calls.length).toBe(readsAtClose);
      } finally {
        reads.mockRestore();
      }
    });

    it('lets one person open a bounded number of streams (then 429), and frees a place when one closes', async () => {
      const person = userHeaders('enterprise', `limit-${unique()}`);
      const ids = [await create(idle, person), await create(idle, person)];
      const open = [await openEvents(idle, ids[0]!, person), await openEvents(idle, ids[1]!, person)];
      const third = await request(idle.app).get(`/api/video/generations/${ids[0]}/events`).set(person);
      expect(third.status).toBe(429);
      expect(third.body).toMatchObject({ code: 'too_many_video_streams', details: { open: 2, limit: 2 } });
      expect(third.body.message).toContain('at most 2');

      // Someone else is not held back by this person's streams.
      const other = userHeaders('enterprise');
      const theirs = await openEvents(idle, await create(idle, other), other);
      theirs.close();

      open[0]!.close();
      await eventually(() => idle.video.streams.openCount === 1, { timeoutMs: 5_000, what: 'a place freed' });
      const again = await openEvents(idle, ids[0]!, person);
      again.close();
      open[1]!.close();
      await eventually(() => idle.video.streams.openCount === 0, { timeoutMs: 5_000, what: 'all streams closed' });
      expect(idle.video.changes.listenerCount).toBe(0);
    });
  });
});
