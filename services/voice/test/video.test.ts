import { VideoJob, VideoJobList, type KasaEvent } from '@kasa/contracts';
import { EventBus, createMongoProcessedEventStore } from '@kasa/service-kit';
import { eventually } from '@kasa/test-kit';
import type { ConsumeMessage } from 'amqplib';
import type { Express } from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { readConfig } from '../src/config';
import type { VideoComponents } from '../src/video/videoComponents';
import { AMQP_URL, logger, TestEnvironment, unique, userHeaders } from './support';
import {
  brokerChannel,
  deleteQueues,
  fetchBytes,
  probe,
  sampleMp4,
  testQueue,
  videoApp,
  waitForJob,
} from './videoSupport';

const env = new TestEnvironment('video');
const queues: string[] = [];
const events: KasaEvent<'voice.video.completed'>[] = [];
let observer: EventBus;
/** Renders jobs: the offline renderer with real espeak-ng and ffmpeg. */
let worker: { app: Express; video: VideoComponents };
/** Takes requests but renders nothing, for the tests that need no video. */
let idle: { app: Express; video: VideoComponents };
const stopLater: VideoComponents[] = [];

async function instance(options: Parameters<typeof videoApp>[1]) {
  queues.push(options.queue);
  const made = await videoApp(env, options);
  stopLater.push(made.video);
  return made;
}

beforeAll(async () => {
  await env.start();
  observer = new EventBus({
    url: AMQP_URL,
    source: 'kasa/voice-test',
    logger,
    consumerName: `voice-test-${unique()}`,
    processedEvents: createMongoProcessedEventStore(env.db),
  });
  observer.subscribeBroadcast('voice.video.completed', async (event) => {
    events.push(event);
  });
  await observer.start();
  worker = await instance({ queue: testQueue(), consume: true });
  idle = await instance({ queue: testQueue(), consume: false });
}, 60_000);

afterAll(async () => {
  for (const video of stopLater) await video.close();
  await observer?.close();
  await deleteQueues(queues);
  await env.stop();
});

const enterprise = userHeaders('enterprise');
const prompt = 'Akwaaba! Welcome to Accra, the capital of Ghana. The markets open early in the morning.';

const eventFor = (jobId: string) =>
  eventually(() => events.find((e) => e.data.jobId === jobId), {
    timeoutMs: 10_000,
    what: `voice.video.completed for ${jobId}`,
  });

describe('video generation, offline', () => {
  it('queues a job, renders speech and captions with ffmpeg, and serves the MP4 by range', async () => {
    const created = await request(worker.app)
      .post('/api/video/generations')
      .set(enterprise)
      .send({ prompt, language: 'en' });
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      status: 'queued',
      progress: 0,
      prompt,
      language: 'en',
      voice: 'en-us',
      renderer: 'offline',
    });
    expect(created.headers.location).toBe(`/api/video/generations/${created.body.id}`);

    const job = await waitForJob(worker.app, created.body.id, enterprise);
    expect(job).toMatchObject({
      status: 'succeeded',
      progress: 100,
      captions: 'burned-in',
      videoUrl: expect.stringMatching(/^\/api\/video\/files\/[A-Za-z0-9_-]{22}$/),
    });
    expect(job.error).toBeUndefined();
    expect(job.duration).toBeGreaterThan(3);
    // What the service answers is what the contract (and so the OpenAPI document) says.
    expect(VideoJob.safeParse(created.body).success).toBe(true);
    expect(VideoJob.safeParse(job).success).toBe(true);

    const whole = await fetchBytes(worker.app, job.videoUrl as string);
    expect(whole.status).toBe(200);
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    const media = await probe(whole.body as Buffer);
    expect(media.streams).toEqual(expect.arrayContaining(['video', 'audio', 'subtitle']));
    expect(media.codecs).toEqual(expect.arrayContaining(['h264', 'aac', 'mov_text']));
    expect(Math.abs(media.duration - (job.duration as number))).toBeLessThan(0.5);

    const part = await fetchBytes(worker.app, job.videoUrl as string, { range: 'bytes=0-99' });
    expect(part.status).toBe(206);
    expect((part.body as Buffer).equals((whole.body as Buffer).subarray(0, 100))).toBe(true);
    expect(part.headers['content-range']).toBe(`bytes 0-99/${(whole.body as Buffer).length}`);
    const outside = await fetchBytes(worker.app, job.videoUrl as string, { range: 'bytes=999999999-' });
    expect(outside.status).toBe(416);

    // The file needs no identity (a <video> element sends none); its random address is the key.
    const unknownFile = await request(worker.app).get('/api/video/files/AAAAAAAAAAAAAAAAAAAAAA');
    expect(unknownFile.status).toBe(404);

    const event = await eventFor(created.body.id as string);
    expect(event.data).toEqual({ jobId: created.body.id, userId: enterprise['x-kasa-user-id'], status: 'succeeded' });
    expect(event.id).toBe(`voice.video.completed:${created.body.id}`);
    const stored = await worker.video.jobs.findById(created.body.id).lean();
    expect(stored).toMatchObject({ attempts: 1 });
    // The broker confirmed the work message: nothing is left in the outbox.
    expect(await worker.video.outbox.countDocuments({ _id: created.body.id })).toBe(0);
    // The completion event's outbox entry (on the job) says it was published once the broker confirmed.
    const entry = await eventually(
      async () => {
        const job = await worker.video.jobs.findById(created.body.id).lean();
        return job?.completedEvent?.state === 'Published' ? job.completedEvent : undefined;
      },
      { timeoutMs: 10_000, what: 'the completion event marked published' },
    );
    expect(entry).toMatchObject({ id: `voice.video.completed:${created.body.id}`, attempts: 1 });
  }, 90_000);

  it('without a font, makes plain frames with the captions as a subtitle track, and says so', async () => {
    const plain = await instance({
      queue: testQueue(),
      consume: true,
      env: { VOICE_VIDEO_FONT: '/nonexistent/font.ttf' },
    });
    const user = userHeaders('enterprise');
    const created = await request(plain.app)
      .post('/api/video/generations')
      .set(user)
      .send({ prompt: 'Plain frames.', language: 'en' });
    const job = await waitForJob(plain.app, created.body.id, user);
    expect(job).toMatchObject({ status: 'succeeded', captions: 'subtitle-track' });
    const media = await probe((await fetchBytes(plain.app, job.videoUrl as string)).body as Buffer);
    expect(media.streams).toEqual(expect.arrayContaining(['video', 'audio', 'subtitle']));
  }, 60_000);

  it('finishes a job that was queued while no worker ran, once one starts', async () => {
    const queue = testQueue();
    const api = await instance({ queue, consume: false });
    const user = userHeaders('enterprise');
    const created = await request(api.app)
      .post('/api/video/generations')
      .set(user)
      .send({ prompt: 'Medaase. Thank you for waiting.', language: 'en' });
    expect(created.status).toBe(202);
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await request(api.app).get(`/api/video/generations/${created.body.id}`).set(user)).body.status).toBe(
      'queued',
    );

    await instance({ queue, consume: true });
    const job = await waitForJob(api.app, created.body.id, user);
    expect(job.status).toBe('succeeded');
  }, 90_000);

  it('reports a failed job with its reason when ffmpeg is missing', async () => {
    const broken = await instance({
      queue: testQueue(),
      consume: true,
      env: { VOICE_FFMPEG_BIN: '/nonexistent/ffmpeg', VOICE_PACKAGED_ENGINES: 'false' },
    });
    const user = userHeaders('enterprise');
    const created = await request(broken.app)
      .post('/api/video/generations')
      .set(user)
      .send({ prompt: 'This video cannot be made.', language: 'en' });
    expect(created.status).toBe(202);
    const job = await waitForJob(broken.app, created.body.id, user);
    expect(job).toMatchObject({ status: 'failed', error: expect.stringContaining('ffmpeg') });
    expect(job.videoUrl).toBeUndefined();
    expect((await eventFor(created.body.id as string)).data.status).toBe('failed');
  }, 60_000);
});

describe('who may make and see videos', () => {
  it.each(['free', 'pro'] as const)('refuses a %s user with 403 naming the Enterprise plan', async (tier) => {
    const res = await request(idle.app)
      .post('/api/video/generations')
      .set(userHeaders(tier))
      .send({ prompt: 'Hello', language: 'en' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      code: 'forbidden',
      message: expect.stringContaining('Enterprise plan'),
      details: { plan: 'enterprise' },
      requestId: expect.any(String),
    });
  });

  it('asks for identity with 401', async () => {
    for (const res of [
      await request(idle.app).post('/api/video/generations').send({ prompt: 'Hello', language: 'en' }),
      await request(idle.app).get('/api/video/generations'),
      await request(idle.app).get('/api/video/generations/AAAAAAAAAAAAAAAAAAAAAA'),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('unauthenticated');
    }
  });

  it("answers 404 for another person's job, and lists only the caller's jobs, newest first", async () => {
    const owner = userHeaders('enterprise');
    const other = userHeaders('enterprise');
    const first = await request(idle.app)
      .post('/api/video/generations')
      .set(owner)
      .send({ prompt: 'One', language: 'en' });
    const second = await request(idle.app)
      .post('/api/video/generations')
      .set(owner)
      .send({ prompt: 'Two', language: 'en' });
    expect([first.status, second.status]).toEqual([202, 202]);

    const stranger = await request(idle.app).get(`/api/video/generations/${first.body.id}`).set(other);
    expect(stranger.status).toBe(404);
    expect(stranger.body).toMatchObject({ code: 'not_found', requestId: expect.any(String) });
    expect((await request(idle.app).get(`/api/video/generations/${first.body.id}`).set(owner)).status).toBe(200);

    const list = await request(idle.app).get('/api/video/generations').set(owner);
    expect(list.status).toBe(200);
    expect(VideoJobList.safeParse(list.body).success).toBe(true);
    expect(list.body.jobs.map((j: { id: string }) => j.id)).toEqual([second.body.id, first.body.id]);
    const limited = await request(idle.app).get('/api/video/generations?limit=1&status=queued').set(owner);
    expect(limited.body.jobs.map((j: { id: string }) => j.id)).toEqual([second.body.id]);
    expect((await request(idle.app).get('/api/video/generations').set(other)).body.jobs).toEqual([]);
  });

  it('limits how many unfinished jobs one person may have', async () => {
    const user = userHeaders('enterprise');
    for (let i = 0; i < 5; i++) {
      const res = await request(idle.app)
        .post('/api/video/generations')
        .set(user)
        .send({ prompt: `Video ${i}`, language: 'en' });
      expect(res.status).toBe(202);
    }
    const res = await request(idle.app)
      .post('/api/video/generations')
      .set(user)
      .send({ prompt: 'One more', language: 'en' });
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ code: 'too_many_video_jobs', details: { active: 5, limit: 5 } });
  });
});

describe('validation', () => {
  it.each([
    [{ language: 'en' }, 'prompt'],
    [{ prompt: '   ', language: 'en' }, 'prompt'],
    [{ prompt: 'x'.repeat(2_001), language: 'en' }, 'prompt'],
    [{ prompt: 'Hello' }, 'language'],
    [{ prompt: 'Hello', language: 'not a tag' }, 'language'],
    [{ prompt: 'Hello', language: 'en', voice: '' }, 'voice'],
    [{ prompt: 'Hello', language: 'en', extra: true }, 'unknown field'],
    [{ prompt: 42, language: 'en' }, 'prompt'],
  ])('answers 400 for %j', async (body, problem) => {
    const res = await request(idle.app).post('/api/video/generations').set(enterprise).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', requestId: expect.any(String) });
    expect(JSON.stringify(res.body.details)).toContain(problem);
  });

  it('answers 400 with a code for a language it cannot speak, an unknown one, or an unknown voice', async () => {
    const post = (body: object) => request(idle.app).post('/api/video/generations').set(enterprise).send(body);
    expect((await post({ prompt: 'Ɛte sɛn?', language: 'tw' })).body.code).toBe('language_not_spoken');
    expect((await post({ prompt: 'Hello', language: 'qq' })).body.code).toBe('unknown_language');
    expect((await post({ prompt: 'Hello', language: 'en', voice: 'nobody' })).body.code).toBe('unknown_voice');
  });

  it('answers 400 for a bad job id, file id or list query', async () => {
    for (const path of [
      '/api/video/generations/short',
      '/api/video/files/..',
      '/api/video/generations?limit=0',
      '/api/video/generations?limit=51',
      '/api/video/generations?status=done',
      '/api/video/generations?sort=asc',
    ]) {
      const res = await request(idle.app).get(path).set(enterprise);
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
    }
  });
});

describe('the work queue', () => {
  const message = (jobId: string, redelivered = false) =>
    ({
      content: Buffer.from(JSON.stringify({ jobId })),
      fields: { redelivered },
      properties: { messageId: jobId },
    }) as unknown as ConsumeMessage;

  it('dead-letters a message that is not a work message', async () => {
    const { channel, close } = await brokerChannel();
    try {
      channel.sendToQueue(worker.video.queue.queue, Buffer.from('{"jobId": 42}'), { persistent: true });
      const dead = await eventually(() => channel.get(worker.video.queue.deadLetterQueue, { noAck: true }), {
        timeoutMs: 10_000,
        what: 'the message on the dead-letter queue',
      });
      expect(dead.content.toString()).toBe('{"jobId": 42}');
    } finally {
      await close();
    }
  });

  it('acks a duplicate of a finished job without rendering it again', async () => {
    const user = userHeaders('enterprise');
    const created = await request(worker.app)
      .post('/api/video/generations')
      .set(user)
      .send({ prompt: 'Once.', language: 'en' });
    await waitForJob(worker.app, created.body.id, user);
    // The job's finished event goes out just after its status changes: the duplicate is judged once it has.
    const before = await eventually(
      async () => {
        const job = await worker.video.jobs.findById(created.body.id).lean();
        return job?.completedEvent?.state === 'Published' ? job : undefined;
      },
      { timeoutMs: 10_000, what: 'the finished event of the job' },
    );
    expect(await worker.video.worker.handle(message(created.body.id, true), new AbortController().signal)).toBe('ack');
    const after = await worker.video.jobs.findById(created.body.id).lean();
    expect(after).toEqual(before);
  }, 60_000);

  it('leaves a job to the live worker rendering it, and takes it over on a redelivery', async () => {
    const user = userHeaders('enterprise');
    const created = await request(idle.app)
      .post('/api/video/generations')
      .set(user)
      .send({ prompt: 'Taken over.', language: 'en' });
    const id = created.body.id as string;
    await worker.video.jobs.updateOne(
      { _id: id },
      { $set: { status: 'running', workerId: 'elsewhere', heartbeatAt: new Date() } },
    );

    expect(await worker.video.worker.handle(message(id), new AbortController().signal)).toBe('ack');
    expect(await worker.video.jobs.findById(id).lean()).toMatchObject({ status: 'running', workerId: 'elsewhere' });

    expect(await worker.video.worker.handle(message(id, true), new AbortController().signal)).toBe('ack');
    expect(await worker.video.jobs.findById(id).lean()).toMatchObject({ status: 'succeeded', attempts: 1 });
  }, 60_000);

  it('gives up on a job that stopped its worker too many times, saying why', async () => {
    const user = userHeaders('enterprise');
    const created = await request(idle.app)
      .post('/api/video/generations')
      .set(user)
      .send({ prompt: 'Poison.', language: 'en' });
    await worker.video.jobs.updateOne({ _id: created.body.id }, { $set: { attempts: 3 } });
    expect(await worker.video.worker.handle(message(created.body.id, true), new AbortController().signal)).toBe('ack');
    const job = await request(idle.app).get(`/api/video/generations/${created.body.id}`).set(user);
    expect(job.body).toMatchObject({ status: 'failed', error: expect.stringContaining('3 times') });
  });

  it('sends again what a dead instance left running, and what the broker never confirmed', async () => {
    const queue = testQueue();
    const api = await instance({ queue, consume: false });
    const user = userHeaders('enterprise');
    const abandoned = await request(api.app)
      .post('/api/video/generations')
      .set(user)
      .send({ prompt: 'Left running.', language: 'en' });
    const unsent = await request(api.app)
      .post('/api/video/generations')
      .set(user)
      .send({ prompt: 'Never sent.', language: 'en' });
    // Drain the queue as if the messages were lost, then make the jobs look old.
    const { channel, close } = await brokerChannel();
    await channel.purgeQueue(queue);
    await close();
    const longAgo = new Date(Date.now() - 120_000);
    await api.video.jobs.collection.updateOne(
      { _id: abandoned.body.id },
      { $set: { status: 'running', workerId: 'dead', heartbeatAt: longAgo, createdAt: longAgo } },
    );
    // As if the broker had not confirmed the second message: it is still in the outbox.
    await api.video.outbox.collection.insertOne({ _id: unsent.body.id, at: longAgo } as never);

    const swept = await api.video.sweeper.sweep();
    // The unconfirmed one at least: on a loaded machine the first job's own confirm may still be on its way after
    // 15 s, and it is then sent again too (a duplicate message is harmless, see VideoWorker).
    expect(swept.requeued).toBe(1);
    expect(swept.resent).toBeGreaterThanOrEqual(1);
    await instance({ queue, consume: true });
    for (const id of [abandoned.body.id, unsent.body.id]) {
      expect((await waitForJob(api.app, id, user)).status).toBe('succeeded');
    }
  }, 90_000);
});

describe('a hosted video model', () => {
  let server: http.Server;
  let baseUrl: string;
  let mp4: Buffer;
  const seen: { method: string; url: string; auth?: string; body: string }[] = [];
  /** The fake's answer to a status poll: completed, or failed with a code. */
  let outcome: 'completed' | 'failed' = 'completed';

  beforeAll(async () => {
    mp4 = await sampleMp4();
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, auth: req.headers.authorization, body });
        res.setHeader('content-type', 'application/json');
        if (req.method === 'POST' && req.url === '/v1/videos') {
          res.end(JSON.stringify({ id: 'video_123', object: 'video', status: 'queued', progress: 0 }));
        } else if (req.url === '/v1/videos/video_123') {
          res.end(
            JSON.stringify(
              outcome === 'completed'
                ? { id: 'video_123', status: 'completed', progress: 100, seconds: '1' }
                : {
                    id: 'video_123',
                    status: 'failed',
                    progress: 10,
                    error: { code: 'moderation_blocked', message: 'echoes the prompt' },
                  },
            ),
          );
        } else if (req.url === '/v1/videos/video_123/content') {
          res.setHeader('content-type', 'video/mp4');
          res.end(mp4);
        } else {
          res.statusCode = 404;
          res.end('{}');
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const hosted = () =>
    instance({
      queue: testQueue(),
      consume: true,
      env: { VOICE_VIDEO_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: baseUrl },
    });

  it('makes the video with the hosted model when configured', async () => {
    outcome = 'completed';
    const { app } = await hosted();
    const user = userHeaders('enterprise');
    const created = await request(app)
      .post('/api/video/generations')
      .set(user)
      .send({ prompt: 'A sunrise over Accra.', language: 'en' });
    expect(created.body.renderer).toBe('openai');
    const job = await waitForJob(app, created.body.id, user);
    expect(job).toMatchObject({ status: 'succeeded', renderer: 'openai', duration: 1 });
    const file = await fetchBytes(app, job.videoUrl as string);
    expect((file.body as Buffer).equals(mp4)).toBe(true);
    const create = seen.find((s) => s.method === 'POST')!;
    expect(create.auth).toBe('Bearer sk-test');
    expect(JSON.parse(create.body)).toMatchObject({ model: 'sora-2', prompt: 'A sunrise over Accra.' });
  }, 60_000);

  it('falls back to the offline renderer when the hosted model fails', async () => {
    outcome = 'failed';
    const before = seen.length;
    const { app } = await hosted();
    const user = userHeaders('enterprise');
    const created = await request(app)
      .post('/api/video/generations')
      .set(user)
      .send({ prompt: 'A storm at sea.', language: 'en' });
    const job = await waitForJob(app, created.body.id, user);
    expect(job).toMatchObject({ status: 'succeeded', renderer: 'offline' });
    // The hosted model was asked first, and said it failed.
    const asked = seen.slice(before).filter((s) => s.url.startsWith('/v1/videos'));
    expect(asked.map((s) => `${s.method} ${s.url}`)).toEqual(['POST /v1/videos', 'GET /v1/videos/video_123']);
  }, 60_000);

  it('refuses to start with the hosted model and no key', async () => {
    expect(() => readConfig({ VOICE_VIDEO_PROVIDER: 'openai' })).toThrow(/OPENAI_API_KEY/);
  });
});
