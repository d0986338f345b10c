import { connectDatabase, createLogger } from '@kasa/service-kit';
import { Types, type Connection } from 'mongoose';
import { randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startPlatform, type RunningPlatform } from '../support/platform';

/**
 * Video generation through the real gateway and service processes: the Enterprise plan, the public file route, and
 * jobs that outlive the voice service being killed or stopped.
 */
const run = randomUUID().slice(0, 8);
const QUEUE = `kasa.voice.video.test-${run}`;
const AUTH_DB_NAME = `kasa_auth_video_${run}`;
let platform: RunningPlatform;
/** Enterprise is sold by the sales team, not the checkout: the test sets the plan in auth's database. */
let authDb: Connection;

beforeAll(async () => {
  platform = await startPlatform({ VOICE_VIDEO_QUEUE: QUEUE, AUTH_DB_NAME });
  authDb = await connectDatabase({
    url: process.env.MONGO_URL!,
    dbName: AUTH_DB_NAME,
    logger: createLogger({ service: 'video-it', version: 'test', level: 'silent' }),
    maxAttempts: 3,
  });
}, 120_000);

afterAll(async () => {
  await platform?.stop();
  await authDb?.dropDatabase().catch(() => undefined);
  await authDb?.close();
  // The run's own work queue and its dead letters.
  try {
    const amqp = await import('amqplib');
    const connection = await amqp.connect(process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672');
    const channel = await connection.createChannel();
    await channel.deleteQueue(QUEUE);
    await channel.deleteQueue(`${QUEUE}.dlq`);
    await connection.close();
  } catch {
    /* best effort */
  }
});

const url = (p: string) => `${platform.baseUrl}${p}`;

async function call(method: string, p: string, token?: string, body?: unknown) {
  const res = await fetch(url(p), {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, any>) : {} };
}

async function signUp(plan?: 'pro' | 'enterprise'): Promise<string> {
  const id = randomUUID().slice(0, 8);
  const person = { username: `ama_${id}`, email: `ama.${id}@example.com`, password: 'akwaaba-42' };
  const registered = await call('POST', '/api/auth/register', undefined, person);
  expect(registered.status).toBe(201);
  if (!plan) return registered.body.token as string;
  if (plan === 'pro') {
    const checkout = await call('POST', '/api/billing/checkout', registered.body.token, { planId: plan });
    expect(checkout.status).toBeLessThan(300);
    return checkout.body.token as string;
  }
  await authDb
    .collection('users')
    .updateOne(
      { _id: new Types.ObjectId(registered.body.user.id as string) },
      { $set: { subscriptionTier: 'enterprise' } },
    );
  // A new sign-in carries the new plan in its token.
  const login = await call('POST', '/api/auth/login', undefined, { email: person.email, password: person.password });
  expect(login.status).toBe(200);
  expect(login.body.user.subscriptionTier).toBe('enterprise');
  return login.body.token as string;
}

async function waitForJob(token: string, id: string, done: (job: Record<string, any>) => boolean, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call('GET', `/api/video/generations/${id}`, token);
    if (res.status === 200 && done(res.body)) return res.body;
    if (Date.now() > deadline)
      throw new Error(`job ${id}: ${res.status} ${JSON.stringify(res.body)}\n${platform.logs.slice(-30).join('\n')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const finished = (job: Record<string, any>) => job.status === 'succeeded' || job.status === 'failed';

/** Long enough that the service can be killed while it renders (about a minute of speech). */
const longPrompt = Array.from(
  { length: 14 },
  (_, i) => `This is sentence number ${i + 1} of a long video about the markets, music and food of Accra.`,
).join(' ');

describe('video generation through the gateway', () => {
  it('makes a video for an Enterprise user and serves it without a token', async () => {
    const token = await signUp('enterprise');
    const created = await call('POST', '/api/video/generations', token, {
      prompt: 'Akwaaba! Welcome to Kasa.',
      language: 'en',
    });
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({ status: 'queued', progress: 0 });
    const job = await waitForJob(token, created.body.id, finished);
    expect(job).toMatchObject({ status: 'succeeded', progress: 100 });

    // A <video> element sends no token: the file's unguessable address is public.
    const file = await fetch(url(job.videoUrl), { headers: { range: 'bytes=0-1023' } });
    expect(file.status).toBe(206);
    expect(file.headers.get('content-type')).toBe('video/mp4');
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(bytes.length).toBe(1024);
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');

    const list = await call('GET', '/api/video/generations', token);
    expect(list.body.jobs.map((j: { id: string }) => j.id)).toEqual([created.body.id]);
    // The rest of /api/video/* needs a token, and someone else's job is not found.
    expect((await call('GET', `/api/video/generations/${created.body.id}`)).status).toBe(401);
    const other = await signUp('enterprise');
    expect((await call('GET', `/api/video/generations/${created.body.id}`, other)).status).toBe(404);
  }, 120_000);

  it.each([
    ['free', undefined],
    ['pro', 'pro'],
  ] as const)(
    'refuses the %s plan with 403 naming Enterprise',
    async (_name, plan) => {
      const token = await signUp(plan);
      const res = await call('POST', '/api/video/generations', token, { prompt: 'Hello', language: 'en' });
      expect(res.status).toBe(403);
      expect(res.body.message).toContain('Enterprise plan');
    },
    30_000,
  );

  it('finishes a job whose service was killed while rendering it, after the service is back', async () => {
    const token = await signUp('enterprise');
    const created = await call('POST', '/api/video/generations', token, { prompt: longPrompt, language: 'en' });
    expect(created.status).toBe(202);
    await waitForJob(token, created.body.id, (job) => job.status === 'running' && job.progress > 0, 60_000);
    await platform.kill('voice', 'SIGKILL');
    await platform.restart('voice');
    const job = await waitForJob(token, created.body.id, finished, 180_000);
    expect(job.status).toBe('succeeded');
    const file = await fetch(url(job.videoUrl));
    const bytes = Buffer.from(await file.arrayBuffer());
    const dir = await mkdtemp(path.join(os.tmpdir(), 'kasa-probe-'));
    try {
      await writeFile(path.join(dir, 'v.mp4'), bytes);
      const { stdout } = await promisify(execFile)('ffprobe', [
        '-v',
        'error',
        '-show_entries',
        'stream=codec_type',
        '-of',
        'csv=p=0',
        path.join(dir, 'v.mp4'),
      ]);
      expect(stdout.split('\n').filter(Boolean)).toEqual(expect.arrayContaining(['video', 'audio']));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);

  it('finishes a job queued while no voice instance rendered videos, once the service starts again', async () => {
    const token = await signUp('enterprise');
    // Stop the service; in its place, an instance that takes requests but renders nothing.
    await platform.kill('voice', 'SIGTERM');
    await platform.restart('voice', { VOICE_VIDEO_WORKER: 'false' });
    const created = await call('POST', '/api/video/generations', token, {
      prompt: 'Queued while stopped.',
      language: 'en',
    });
    expect(created.status).toBe(202);
    await new Promise((r) => setTimeout(r, 2_000));
    expect((await call('GET', `/api/video/generations/${created.body.id}`, token)).body.status).toBe('queued');

    await platform.kill('voice', 'SIGTERM');
    await platform.restart('voice');
    const job = await waitForJob(token, created.body.id, finished);
    expect(job.status).toBe('succeeded');
  }, 180_000);
});
