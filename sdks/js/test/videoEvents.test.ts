import { Kasa, KasaError, type VideoEvent, type VideoJobEvent, type VideoJobStatus } from '@kasa/sdk';
import type { ServerResponse } from 'node:http';
import { json, localServer, type Handler } from './localServer';

/**
 * `video.events` against a local server that writes a job's event stream as the voice service does: what it asks
 * for, the typed events it gives, how it ends (done, an error event, a dropped connection) and how it is called off.
 * The stream of the real platform is in video.test.ts.
 */
const JOB_ID = 'Vj0123456789abcdefghij';

function job(status: VideoJobStatus, progress: number, extra: Partial<VideoJobEvent> = {}): VideoJobEvent {
  return {
    id: JOB_ID,
    status,
    progress,
    prompt: 'Akwaaba! Welcome to Kasa.',
    language: 'en',
    renderer: 'offline',
    ...(status === 'succeeded' ? { videoUrl: `/api/video/files/${JOB_ID}`, duration: 2.5 } : {}),
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:01.000Z',
    ...extra,
  };
}

const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

function startStream(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'x-request-id': 'req-events' });
}

const servers: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(...handlers: Handler[]) {
  const server = await localServer(handlers);
  servers.push(server);
  return { ...server, kasa: new Kasa({ baseUrl: server.baseUrl, apiKey: 'ksk_test', maxRetries: 0 }) };
}

async function readAll(events: AsyncIterable<VideoEvent>): Promise<VideoEvent[]> {
  const seen: VideoEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

describe('video.events', () => {
  it('gives the job at once and on each change, then done with the finished job, skipping pings', async () => {
    let accept: string | undefined;
    const api = await serve((req, res) => {
      accept = req.headers.accept;
      startStream(res);
      res.end(
        sse('job', job('queued', 0, { queuePosition: 2 })) +
          ': ping\n\n' +
          sse('job', job('running', 40)) +
          sse('done', job('succeeded', 100)),
      );
    });

    const events = await readAll(api.kasa.video.events(JOB_ID));

    expect(events.map((e) => [e.type, e.job.status, e.job.progress])).toEqual([
      ['job', 'queued', 0],
      ['job', 'running', 40],
      ['done', 'succeeded', 100],
    ]);
    expect(events[0]!.job.queuePosition).toBe(2);
    expect(events[2]!.job.videoUrl).toBe(`/api/video/files/${JOB_ID}`);
    expect(api.seen.map((r) => [r.method, r.url, r.authorization])).toEqual([
      ['GET', `/api/video/generations/${JOB_ID}/events`, 'Bearer ksk_test'],
    ]);
    expect(accept).toBe('text/event-stream');
  });

  it('connects only once the loop starts', async () => {
    const api = await serve((_req, res) => {
      startStream(res);
      res.end(sse('done', job('failed', 10, { error: 'The video could not be rendered.' })));
    });
    const events = api.kasa.video.events(JOB_ID);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(api.seen).toHaveLength(0);

    const [done] = await readAll(events);
    expect(done).toMatchObject({ type: 'done', job: { status: 'failed', error: 'The video could not be rendered.' } });
    expect(api.seen).toHaveLength(1);
  });

  it('rejects with the API’s error when the stream cannot open: an unknown job, too many streams', async () => {
    const api = await serve(
      json(404, { message: 'No video job with that id', code: 'not_found', requestId: 'r-1' }),
      json(429, {
        message: 'You are already following 5 videos here (at most 5 at once); close one and try again.',
        code: 'too_many_video_streams',
        details: { open: 5, limit: 5 },
      }),
    );
    const missing = await readAll(api.kasa.video.events('unknown-job')).catch((err: unknown) => err);
    expect(missing).toBeInstanceOf(KasaError);
    expect(missing).toMatchObject({ status: 404, code: 'not_found', requestId: 'r-1' });
    await expect(readAll(api.kasa.video.events(JOB_ID))).rejects.toMatchObject({
      status: 429,
      code: 'too_many_video_streams',
      details: { open: 5, limit: 5 },
    });
    expect(api.seen[0]!.url).toBe('/api/video/generations/unknown-job/events');
  });

  it('turns an error event into a stream_error KasaError after the events that came', async () => {
    const api = await serve((_req, res) => {
      startStream(res);
      res.end(
        sse('job', job('running', 30)) +
          sse('error', { message: 'The video job no longer exists (it may have expired).' }),
      );
    });
    const seen: VideoEvent[] = [];
    const error = await (async () => {
      for await (const event of api.kasa.video.events(JOB_ID)) seen.push(event);
    })().catch((err: unknown) => err);
    expect(seen.map((e) => e.job.progress)).toEqual([30]);
    expect(error).toBeInstanceOf(KasaError);
    expect(error).toMatchObject({
      status: 0,
      code: 'stream_error',
      message: 'The video job no longer exists (it may have expired).',
      requestId: 'req-events',
    });
  });

  it('rejects with stream_error when the connection closes before done', async () => {
    const api = await serve((_req, res) => {
      startStream(res);
      res.end(sse('job', job('running', 30)));
    });
    await expect(readAll(api.kasa.video.events(JOB_ID))).rejects.toMatchObject({
      status: 0,
      code: 'stream_error',
      message: `The events of video job ${JOB_ID} stopped before the job ended.`,
    });
  });

  it('hangs up when the loop is left early, and when the call’s signal aborts', async () => {
    const closed: Array<Promise<void>> = [];
    const api = await serve((_req, res) => {
      closed.push(new Promise((resolve) => res.on('close', () => resolve())));
      startStream(res);
      res.write(sse('job', job('running', 10)));
      // The job goes on: the server would write more, but the client leaves first.
    });

    for await (const event of api.kasa.video.events(JOB_ID)) {
      expect(event.job.progress).toBe(10);
      break;
    }
    await closed[0];

    const controller = new AbortController();
    const reason = new Error('the page closed');
    const seen: number[] = [];
    const aborted = (async () => {
      for await (const event of api.kasa.video.events(JOB_ID, { signal: controller.signal })) {
        seen.push(event.job.progress);
        controller.abort(reason);
      }
    })();
    await expect(aborted).rejects.toBe(reason);
    await closed[1];
    expect(seen).toEqual([10]);
  });
});
