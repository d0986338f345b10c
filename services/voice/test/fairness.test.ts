import { eventually } from '@kasa/test-kit';
import type { Express } from 'express';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import request, { type Response } from 'supertest';
import { runProcess } from '../src/speech/runProcess';
import type { VideoComponents } from '../src/video/videoComponents';
import type { VoiceComponents } from '../src/voiceComponents';
import { FakeCloud } from './fakeCloud';
import { binaryParser, TestEnvironment, userHeaders } from './support';
import { deleteQueues, testQueue, videoApp, waitForJob } from './videoSupport';

/**
 * No one person can starve the others: per-person slots on every costly route (the kit's MongoConcurrencySlots in
 * the embedded database, one scope per kind of work) and the bounded pool of heavy processes, with the real
 * espeak-ng, ffmpeg and RabbitMQ.
 */
const env = new TestEnvironment('fairness');
const fake = new FakeCloud();
const queues: string[] = [];
const stopLater: VideoComponents[] = [];
let app: Express;
let voice: VoiceComponents;

beforeAll(async () => {
  await Promise.all([env.start(), fake.start()]);
  // The defaults: 2 syntheses, 2 transcriptions and 2 translations per person; 3 processes and a queue of 16.
  ({ app, voice } = await env.app({
    OPENAI_API_KEY: 'sk-test-openai',
    OPENAI_BASE_URL: `${fake.url}/v1`,
    VOICE_CLOUD_TIMEOUT_MS: '1500',
    TRANSLATE_PROVIDERS: 'primary',
    PRIMARY_BASE_URL: `${fake.url}/primary/v1`,
    PRIMARY_MODEL: 'translator-1',
    VOICE_TRANSLATE_TIMEOUT_MS: '1500',
    VOICE_BREAKER_MIN_REQUESTS: '50',
  }));
}, 60_000);

afterAll(async () => {
  for (const video of stopLater) await video.close();
  await deleteQueues(queues);
  await Promise.all([env.stop(), fake.stop()]);
});

/** 5,000 characters of English sentences: the longest text a synthesis takes (13 chunks). */
const LONG = (() => {
  let text = '';
  for (let i = 1; text.length < 5_000; i++)
    text += `This is sentence number ${i} of a long text that Kasa reads aloud, one part after another. `;
  return `${text.slice(0, 4_999).trimEnd()}.`.padEnd(5_000, '.');
})();
const SHORT = 'Good morning, what is the weather like in Accra today?';

const synthesize = (headers: Record<string, string>, text: string, accept?: string) => {
  const req = request(app).post('/api/voice/synthesize').set(headers);
  if (accept) void req.set('Accept', accept).buffer(true).parse(binaryParser);
  return req.send({ text, language: 'en' });
};

async function timed<T>(work: () => PromiseLike<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: Math.round(performance.now() - started) };
}

/** A 429 from a per-person limit: the shared error body, and when to try again. */
function expectRefused(res: Response, scope: string, limit = 2): void {
  expect(res.status).toBe(429);
  expect(res.headers['retry-after']).toBe('5');
  // A streamed request's body was read as bytes: the refusal is JSON all the same.
  const body: unknown = Buffer.isBuffer(res.body) ? JSON.parse(res.body.toString('utf8')) : res.body;
  expect(body).toEqual({
    message: expect.stringContaining(`(at most ${limit} at once)`),
    code: 'rate_limited',
    details: { limit, scope },
    requestId: expect.any(String),
  });
}

describe('speech synthesis', () => {
  it("runs as many of one person's syntheses as their limit, refuses the rest, and serves someone else meanwhile", async () => {
    expect(LONG).toHaveLength(5_000);
    const other = userHeaders('pro');
    const quiet = await timed(() => synthesize(other, SHORT));
    expect(quiet.result.status).toBe(201);

    // Ten 5,000-character syntheses at once from one Pro person.
    const flooder = userHeaders('pro');
    const answers: Response[] = [];
    let mostPlaces = 0;
    let sampling = true;
    const sampler = setInterval(() => {
      if (sampling) mostPlaces = Math.max(mostPlaces, voice.pool.running + voice.pool.queued);
    }, 5);
    const flood = Promise.all(
      Array.from({ length: 10 }, () =>
        synthesize(flooder, LONG).then((res) => {
          answers.push(res);
          return res;
        }),
      ),
    );
    await eventually(() => answers.filter((res) => res.status === 429).length === 8, {
      timeoutMs: 30_000,
      what: 'eight of the ten refused',
    });
    sampling = false;
    const admittedStillRunning = 10 - answers.length;

    // Another person's short sentence while the flood's two run.
    const during = await timed(() => synthesize(other, SHORT));
    expect(during.result.status).toBe(201);
    // Not a condition of the test (tests never fail on speed): what the isolation is worth here.
    console.log(
      `short synthesis by another person: ${quiet.ms} ms on a quiet service, ${during.ms} ms while one person's ` +
        `ten 5,000-character syntheses were under way (${admittedStillRunning} of the 2 admitted still running)`,
    );

    const all = await flood;
    clearInterval(sampler);
    const admitted = all.filter((res) => res.status === 201);
    expect(admitted).toHaveLength(2);
    for (const res of admitted) expect(res.body.duration).toBeGreaterThan(120);
    const refused = all.filter((res) => res.status !== 201);
    expect(refused).toHaveLength(8);
    for (const res of refused) expectRefused(res, 'synthesis');
    // Each synthesis asks for one chunk at a time: the person never held more process places than slots.
    expect(mostPlaces).toBeLessThanOrEqual(2);

    // Their slots came back with the answers: the person may speak again.
    expect((await synthesize(flooder, SHORT)).status).toBe(201);
  }, 180_000);

  it('holds a slot for the streamed variant too, and gives it back when the stream ends', async () => {
    const person = userHeaders('pro');
    const userId = person['x-kasa-user-id']!;
    const held = [await voice.slots.synthesis.acquire(userId), await voice.slots.synthesis.acquire(userId)];
    expect(held).toEqual([expect.any(String), expect.any(String)]);
    expectRefused(await synthesize(person, SHORT, 'audio/mpeg'), 'synthesis');
    expectRefused(await synthesize(person, SHORT), 'synthesis');

    await voice.slots.synthesis.release(userId, held[0]!);
    const streamed = await synthesize(person, SHORT, 'audio/mpeg');
    expect(streamed.status).toBe(200);
    expect(streamed.headers['content-type']).toBe('audio/mpeg');
    expect((streamed.body as Buffer).length).toBeGreaterThan(1_000);
    // The stream's slot is free again once its response is over.
    await eventually(async () => (await synthesize(person, SHORT)).status === 201, {
      what: 'a synthesis admitted after the stream',
    });
    await voice.slots.synthesis.release(userId, held[1]!);
  }, 60_000);

  it('lets anonymous callers have the samples read without a slot', async () => {
    const sample = 'Hello, I am Kasa. Your voice, your AI, your world.';
    const answers = await Promise.all(
      Array.from({ length: 3 }, () =>
        request(app).post('/api/voice/synthesize').send({ text: sample, language: 'en' }),
      ),
    );
    expect(answers.map((res) => res.status)).toEqual([201, 201, 201]);
  }, 60_000);
});

describe('the process pool', () => {
  it('answers 503 with Retry-After when every process and the queue are taken, as JSON and streamed', async () => {
    const { app: small, voice: tiny } = await env.app({ VOICE_PROCESS_POOL_SIZE: '1', VOICE_PROCESS_QUEUE_MAX: '0' });
    // Someone's process holds the only place.
    const holder = new AbortController();
    const holding = tiny.pool.run((signal) => runProcess('sleep', ['30'], { signal }), {
      what: 'speech synthesis',
      timeoutMs: 60_000,
      signal: holder.signal,
    });
    holding.catch(() => undefined);
    try {
      const person = userHeaders('pro');
      for (const accept of ['application/json', 'audio/mpeg']) {
        const res = await request(small)
          .post('/api/voice/synthesize')
          .set(person)
          .set('Accept', accept)
          .send({ text: SHORT, language: 'en' });
        expect(res.status).toBe(503);
        expect(res.headers['retry-after']).toBe('5');
        expect(res.body).toMatchObject({
          code: 'upstream_unavailable',
          message: 'Speech synthesis is busy on the server right now. Please try again in a few seconds.',
          requestId: expect.any(String),
        });
      }
    } finally {
      holder.abort();
    }
    await eventually(() => tiny.pool.running === 0, { what: 'the place freed' });
    const res = await request(small).post('/api/voice/synthesize').set(userHeaders('pro')).send({ text: SHORT });
    expect(res.status).toBe(201);
  }, 60_000);
});

describe('transcription and translation', () => {
  let wav: Buffer;
  beforeAll(async () => {
    const { stdout } = await promisify(execFile)('espeak-ng', ['--stdout', '-v', 'en-us', 'Good morning from Accra'], {
      encoding: 'buffer',
    });
    wav = stdout;
  });

  it('refuses a transcription over the limit with 429 before reading the recording, then admits one again', async () => {
    const PATH = '/v1/audio/transcriptions';
    fake.on(PATH, { kind: 'hang' });
    const person = userHeaders('pro');
    const transcribe = () =>
      request(app).post('/api/voice/transcribe').set(person).set('content-type', 'audio/wav').send(wav);
    const before = fake.requestsTo(PATH).length;
    const hanging = [transcribe(), transcribe()].map((req) => req.then((res) => res));
    // Both reached the provider: both hold their slot.
    await eventually(() => fake.requestsTo(PATH).length === before + 2, { what: 'two calls at the provider' });
    const refused = await transcribe();
    expectRefused(refused, 'transcription');
    expect(refused.body.message).toBe(
      'You already have 2 recordings being transcribed (at most 2 at once). Wait for one to finish, then try again.',
    );
    expect(fake.requestsTo(PATH).length).toBe(before + 2);

    // The provider does not answer in time: 503s, and the slots come back with them.
    expect((await Promise.all(hanging)).map((res) => res.status)).toEqual([503, 503]);
    fake.on(PATH, {
      kind: 'reply',
      contentType: 'application/json',
      body: JSON.stringify({ text: 'Good morning from Accra.', language: 'english' }),
    });
    const again = await eventually(
      async () => {
        const res = await transcribe();
        return res.status === 200 ? res : undefined;
      },
      { what: 'a transcription admitted again' },
    );
    expect(again.body).toMatchObject({ text: 'Good morning from Accra.', provider: 'openai' });
  }, 60_000);

  it('refuses a translation over the limit with 429 (each one is a paid provider call)', async () => {
    const PATH = '/primary/v1/chat/completions';
    fake.on(PATH, { kind: 'hang' });
    const person = userHeaders('enterprise');
    const translate = () =>
      request(app).post('/api/translate').set(person).send({ text: 'Thank you very much.', from: 'en', to: 'tw' });
    const before = fake.requestsTo(PATH).length;
    const hanging = [translate(), translate()].map((req) => req.then((res) => res));
    await eventually(() => fake.requestsTo(PATH).length === before + 2, { what: 'two calls at the provider' });
    expectRefused(await translate(), 'translation');
    expect((await Promise.all(hanging)).map((res) => res.status)).toEqual([503, 503]);
  }, 60_000);
});

describe('video jobs', () => {
  it('creates exactly the limit of simultaneous jobs, refuses the rest, and frees a slot when a job ends', async () => {
    const queue = testQueue();
    queues.push(queue);
    const settings = { VOICE_VIDEO_MAX_ACTIVE_JOBS: '3' };
    // An instance that takes requests but renders nothing yet: the jobs stay queued.
    const api = await videoApp(env, { queue, consume: false, env: settings });
    stopLater.push(api.video);
    const person = userHeaders('enterprise');
    const create = (prompt: string) =>
      request(api.app).post('/api/video/generations').set(person).send({ prompt, language: 'en' });

    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => create(`Video number ${i + 1}.`)));
    const created = answers.filter((res) => res.status === 202);
    const refused = answers.filter((res) => res.status !== 202);
    expect(created).toHaveLength(3);
    expect(refused).toHaveLength(5);
    for (const res of refused) {
      expect(res.status).toBe(429);
      expect(res.headers['retry-after']).toBe('30');
      expect(res.body).toMatchObject({
        code: 'too_many_video_jobs',
        message: 'You already have 3 videos being made; wait for one to finish (at most 3 at once).',
        details: { active: 3, limit: 3 },
        requestId: expect.any(String),
      });
    }
    // Each job holds its slot, named on the job.
    const ids = created.map((res) => res.body.id as string);
    const stored = await api.video.jobs.find({ _id: { $in: ids } }).lean();
    expect(stored.map((job) => job.slot)).toEqual([expect.any(String), expect.any(String), expect.any(String)]);
    expect((await create('One more.')).status).toBe(429);

    // A worker makes the videos: as each one ends, its slot comes back and a new job can be made.
    const worker = await videoApp(env, { queue, consume: true, env: settings });
    stopLater.push(worker.video);
    const first = await waitForJob(api.app, ids[0]!, person, undefined, 90_000);
    expect(first.status).toBe('succeeded');
    expect((await api.video.jobs.findById(ids[0]).lean())?.slot).toBeUndefined();
    const next = await eventually(
      async () => {
        const res = await create('Made once a slot was free.');
        return res.status === 202 ? res : undefined;
      },
      { timeoutMs: 30_000, what: 'a job created after one finished' },
    );
    expect(next.body.status).toBe('queued');
    for (const id of [...ids, next.body.id as string])
      expect((await waitForJob(api.app, id, person, undefined, 90_000)).status).toBe('succeeded');
  }, 240_000);

  it('gives back the slot of a finished job that still holds it when the sweeper runs', async () => {
    const queue = testQueue();
    queues.push(queue);
    const api = await videoApp(env, { queue, consume: false, env: { VOICE_VIDEO_MAX_ACTIVE_JOBS: '1' } });
    stopLater.push(api.video);
    const person = userHeaders('enterprise');
    const create = () =>
      request(api.app).post('/api/video/generations').set(person).send({ prompt: 'Hello.', language: 'en' });
    const job = await create();
    expect(job.status).toBe(202);
    const refused = await create();
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(
      'You already have a video being made; wait for it to finish (at most 1 at once).',
    );
    // As if the worker had written the outcome and then lost the database before giving the slot back.
    await api.video.jobs.updateOne({ _id: job.body.id }, { $set: { status: 'failed', error: 'Stopped.' } });
    expect((await create()).status).toBe(429);
    const swept = await api.video.sweeper.sweep();
    expect(swept.slots).toBeGreaterThanOrEqual(1);
    expect((await api.video.jobs.findById(job.body.id).lean())?.slot).toBeUndefined();
    expect((await create()).status).toBe(202);
  }, 60_000);
});
