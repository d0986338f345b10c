import { Kasa, KasaError, VIDEO_NOT_READY, WAIT_TIMEOUT, type VideoEvent, type VideoJob } from '@kasa/sdk';
import { connectDatabase, createLogger } from '@kasa/service-kit';
import type { Connection } from 'mongoose';
import { randomUUID } from 'node:crypto';
import { deleteQueues, startPlatform, type RunningPlatform } from '../../../tests/support/platform';
import { json, localServer } from './localServer';

/**
 * The `video` resource against the built platform: videos rendered offline (eSpeak NG and ffmpeg) from a short prompt
 * for an Enterprise account, and the plan refusal for a Free one.
 */
const run = randomUUID().slice(0, 8);
const AUTH_DB_NAME = `kasa_auth_sdk_video_${run}`;
/** A video work queue of this run's own: voice services of other runs on the broker never take its jobs. */
const VIDEO_QUEUE = `kasa.voice.video.sdk-js-${run}`;

let platform: RunningPlatform;
/** Enterprise is sold by the sales team, not the checkout: the test sets the plan in auth's database. */
let authDb: Connection;

beforeAll(async () => {
  platform = await startPlatform({ AUTH_DB_NAME, VOICE_VIDEO_QUEUE: VIDEO_QUEUE });
  authDb = await connectDatabase({
    url: process.env.MONGO_URL!,
    dbName: AUTH_DB_NAME,
    logger: createLogger({ service: 'sdk-js-video-it', version: 'test', level: 'silent' }),
    maxAttempts: 3,
  });
}, 120_000);

afterAll(async () => {
  await platform?.stop();
  await authDb?.dropDatabase().catch(() => undefined);
  await authDb?.close();
  await deleteQueues(process.env.AMQP_URL, [VIDEO_QUEUE, `${VIDEO_QUEUE}.dlq`]);
});

/** A client signed in as a new person on `plan` (Free by default). */
async function signedIn(plan: 'free' | 'enterprise' = 'free'): Promise<Kasa> {
  const id = randomUUID().slice(0, 8);
  const person = { username: `esi_${id}`, email: `esi.${id}@example.com`, password: 'adinkra-sika' };
  const kasa = new Kasa({ baseUrl: platform.baseUrl });
  await kasa.auth.register(person);
  if (plan === 'free') return kasa;
  const moved = await authDb
    .collection('users')
    .updateOne({ email: person.email }, { $set: { subscriptionTier: plan } });
  expect(moved.matchedCount).toBe(1);
  // A new sign-in carries the new plan in its token.
  const login = await kasa.auth.login({ email: person.email, password: person.password });
  expect(login.user.subscriptionTier).toBe(plan);
  return kasa;
}

describe('video', () => {
  it('makes a video for an Enterprise account: create, wait, get, list and download', async () => {
    const kasa = await signedIn('enterprise');
    const created = await kasa.video.create(
      { prompt: 'Akwaaba! Welcome to Kasa.', language: 'en' },
      { idempotencyKey: `video-${run}` },
    );
    expect(created).toMatchObject({
      status: 'queued',
      progress: 0,
      prompt: 'Akwaaba! Welcome to Kasa.',
      language: 'en',
    });
    expect(created.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    // The same key again is the same job, not a second video.
    const replayed = await kasa.video.create(
      { prompt: 'Akwaaba! Welcome to Kasa.', language: 'en' },
      { idempotencyKey: `video-${run}` },
    );
    expect(replayed.id).toBe(created.id);

    // No video before the job has succeeded.
    const early = kasa.video.download(created);
    await expect(early).rejects.toBeInstanceOf(KasaError);
    await expect(early).rejects.toMatchObject({ status: 0, code: VIDEO_NOT_READY });

    // A wait that runs out of time, and one that is called off, leave the job alone. (Both end before the job could
    // have been read: a rendered video takes far longer than a millisecond.)
    const late = await kasa.video.wait(created.id, { timeoutMs: 1 }).catch((error: unknown) => error);
    expect(late).toBeInstanceOf(KasaError);
    expect(late).toMatchObject({ status: 0, code: WAIT_TIMEOUT, details: { id: created.id } });
    expect((late as KasaError).message).toBe(`The video job ${created.id} had not finished after 1 ms.`);
    const controller = new AbortController();
    const calledOff = kasa.video.wait(created.id, {}, { signal: controller.signal });
    controller.abort();
    await expect(calledOff).rejects.toMatchObject({ name: 'AbortError' });

    const seen: VideoJob[] = [];
    const job = await kasa.video.wait(created.id, {
      intervalMs: 250,
      timeoutMs: 90_000,
      onProgress: (j) => seen.push(j),
    });
    expect(job).toMatchObject({ id: created.id, status: 'succeeded', progress: 100 });
    expect(job.videoUrl).toMatch(/^\/api\/video\/files\/[A-Za-z0-9_-]{22}$/);
    expect(job.duration).toBeGreaterThan(0);
    expect(seen.at(-1)).toEqual(job);
    expect(seen.every((j) => j.id === created.id)).toBe(true);

    await expect(kasa.video.get(created.id)).resolves.toMatchObject({
      id: created.id,
      status: 'succeeded',
      videoUrl: job.videoUrl,
    });
    expect((await kasa.video.list()).map((j) => j.id)).toEqual([created.id]);
    expect((await kasa.video.list({ status: 'succeeded', limit: 1 })).map((j) => j.id)).toEqual([created.id]);
    await expect(kasa.video.list({ status: 'failed' })).resolves.toEqual([]);

    const video = await kasa.video.download(job);
    expect(video.type).toBe('video/mp4');
    const bytes = Buffer.from(await video.arrayBuffer());
    expect(bytes.length).toBeGreaterThan(1_000);
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
  }, 120_000);

  it('follows a job with its event stream until done, five streams at most per person', async () => {
    const kasa = await signedIn('enterprise');
    const created = await kasa.video.create({ prompt: 'Akwaaba! The events follow this video.', language: 'en' });

    // Five streams of the job held open (each has given its first event); a sixth is refused at once.
    const open = Array.from({ length: 5 }, () => kasa.video.events(created.id)[Symbol.asyncIterator]());
    const firsts = await Promise.all(open.map((events) => events.next()));
    for (const first of firsts) {
      expect(first.value).toMatchObject({ type: 'job', job: { id: created.id } });
      expect(['queued', 'running']).toContain((first.value as VideoEvent).job.status);
    }
    const sixth = await (async () => {
      for await (const _event of kasa.video.events(created.id, { maxRetries: 0 })) break;
    })().catch((error: unknown) => error);
    expect(sixth).toBeInstanceOf(KasaError);
    expect(sixth).toMatchObject({ status: 429, code: 'too_many_video_streams', details: { limit: 5 } });
    // Someone else's job is a 404, like its GET.
    const other = await signedIn('enterprise');
    await expect(
      (async () => {
        for await (const _event of other.video.events(created.id)) break;
      })(),
    ).rejects.toMatchObject({ status: 404, code: 'not_found' });
    await Promise.all(open.slice(1).map((events) => events.return?.()));

    // The one left goes on to the end: progress only grows, and done brings the finished job.
    const followed: VideoEvent[] = [firsts[0]!.value as VideoEvent];
    for (let next = await open[0]!.next(); !next.done; next = await open[0]!.next()) followed.push(next.value);
    const last = followed.at(-1)!;
    expect(last).toMatchObject({ type: 'done', job: { id: created.id, status: 'succeeded', progress: 100 } });
    expect(last.job.videoUrl).toMatch(/^\/api\/video\/files\/[A-Za-z0-9_-]{22}$/);
    expect(followed.slice(0, -1).every((event) => event.type === 'job')).toBe(true);
    const progress = followed.map((event) => event.job.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    await expect(kasa.video.get(created.id)).resolves.toMatchObject({
      status: 'succeeded',
      videoUrl: last.job.videoUrl,
    });

    // A finished job's stream gives done at once and ends.
    const again: VideoEvent[] = [];
    for await (const event of kasa.video.events(created.id)) again.push(event);
    expect(again).toEqual([{ type: 'done', job: expect.objectContaining({ id: created.id, status: 'succeeded' }) }]);
  }, 120_000);

  it('answers someone else’s job, or an unknown one, with 404, and a bad request with 400 naming the field', async () => {
    const kasa = await signedIn('enterprise');
    const created = await kasa.video.create({ prompt: 'Hello.', language: 'en' });
    const other = await signedIn('enterprise');
    await expect(other.video.get(created.id)).rejects.toMatchObject({ status: 404, code: 'not_found' });
    await expect(kasa.video.get('A'.repeat(22))).rejects.toMatchObject({ status: 404, code: 'not_found' });

    const invalid = await kasa.video.create({ prompt: '', language: 'en' }).catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(KasaError);
    expect(invalid).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(JSON.stringify((invalid as KasaError).details)).toContain('prompt');
    // The job made above is left to finish, so that it does not outlive the test's platform half-made.
    await expect(kasa.video.wait(created.id, { intervalMs: 250, timeoutMs: 90_000 })).resolves.toMatchObject({
      status: 'succeeded',
    });
  }, 120_000);

  it('refuses a Free account with a 403 KasaError naming the Enterprise plan', async () => {
    const kasa = await signedIn();
    const refused = await kasa.video.create({ prompt: 'Hello', language: 'en' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(KasaError);
    expect(refused).toMatchObject({ status: 403, code: 'forbidden', details: { plan: 'enterprise' } });
    expect((refused as KasaError).message).toContain('Enterprise plan');
  });
});

describe('video, as sent', () => {
  const job = (videoUrl: string): VideoJob => ({
    id: 'AAAAAAAAAAAAAAAAAAAAAA',
    status: 'succeeded',
    progress: 100,
    prompt: 'Hello.',
    language: 'en',
    renderer: 'offline',
    videoUrl,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  });

  it('creates with the API key and an Idempotency-Key, and downloads the file without the credential', async () => {
    const mp4: Parameters<typeof localServer>[0][number] = (_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      res.end(Buffer.from('0000ftypisom'));
    };
    const server = await localServer([json(202, job('/api/video/files/BBBBBBBBBBBBBBBBBBBBBB')), mp4]);
    try {
      const kasa = new Kasa({ baseUrl: server.baseUrl, apiKey: 'ksk_test' });
      const created = await kasa.video.create({ prompt: 'Hello.', language: 'en' });
      const video = await kasa.video.download(created);
      // A full address (a file on another host) is fetched as it is.
      await kasa.video.download(job(`${server.baseUrl}/elsewhere/video.mp4`));

      expect(video.type).toBe('video/mp4');
      expect(server.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
        'POST /api/video/generations',
        'GET /api/video/files/BBBBBBBBBBBBBBBBBBBBBB',
        'GET /elsewhere/video.mp4',
      ]);
      expect(server.seen[0]).toMatchObject({ authorization: 'Bearer ksk_test', idempotencyKey: expect.any(String) });
      expect(server.seen.slice(1).map((r) => r.authorization)).toEqual([undefined, undefined]);
    } finally {
      await server.close();
    }
  });
});
