/** Helpers of the video tests (not a test file itself). */
import { ServiceMetrics, createLogger, isDatabaseReady } from '@kasa/service-kit';
import amqp from 'amqplib';
import type { Express } from 'express';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { createApp } from '../src/app';
import { readConfig } from '../src/config';
import { createVideoComponents, type VideoComponents } from '../src/video/videoComponents';
import { AMQP_URL, binaryParser, logger, unique, type TestEnvironment } from './support';

const run = promisify(execFile);
/** KASA_TEST_LOG_LEVEL=warn shows what the video components log (silent by default). */
const videoLogger = process.env.KASA_TEST_LOG_LEVEL
  ? createLogger({ service: 'voice-video-test', version: 'test', level: process.env.KASA_TEST_LOG_LEVEL })
  : logger;

/** A queue of its own per test instance, so parallel test runs never take each other's jobs. */
export const testQueue = (): string => `kasa.voice.video.test-${unique()}`;

/**
 * The voice app with video generation, built as index.ts builds it; `consume: false` makes an instance that takes
 * requests but renders nothing (as when the workers are stopped).
 */
export async function videoApp(
  env: TestEnvironment,
  options: { queue: string; consume: boolean; env?: Record<string, string>; workerId?: string },
): Promise<{ app: Express; video: VideoComponents }> {
  const settingsEnv = { AMQP_URL, VOICE_VIDEO_QUEUE: options.queue, ...options.env };
  const { voice } = await env.app(settingsEnv);
  const video = await createVideoComponents({
    settings: readConfig(settingsEnv),
    db: env.db,
    bus: env.bus,
    logger: videoLogger,
    chain: voice.chain,
    ffmpeg: voice.ffmpeg,
    catalogue: voice.catalogue,
    detector: voice.detector,
    workerId: options.workerId ?? `worker-${unique()}`,
    pool: voice.pool,
    limits: voice.limits,
  });
  video.start({ consume: options.consume });
  const app = createApp({
    ...voice,
    logger,
    metrics: new ServiceMetrics('voice-test'),
    readiness: { database: () => isDatabaseReady(env.db), broker: () => env.bus.isConnected() },
    isShuttingDown: () => false,
    video,
  });
  // Seconds on a quiet machine; a minute leaves room for a loaded one (only a failure waits this long).
  const deadline = Date.now() + 60_000;
  while (!video.queue.isConnected()) {
    if (Date.now() > deadline) throw new Error('the video queue did not connect');
    await new Promise((r) => setTimeout(r, 50));
  }
  return { app, video };
}

/** Polls a job until `done` says so (or the time is up, which fails with the last answer). */
export async function waitForJob(
  app: Express,
  id: string,
  headers: Record<string, string>,
  done: (job: Record<string, unknown>) => boolean = (job) => job.status === 'succeeded' || job.status === 'failed',
  timeoutMs = 60_000,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await request(app).get(`/api/video/generations/${id}`).set(headers);
    if (res.status === 200 && done(res.body)) return res.body;
    if (Date.now() > deadline) throw new Error(`job ${id} not done in time: ${res.status} ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export const fetchBytes = (app: Express, url: string, headers: Record<string, string> = {}) =>
  request(app).get(url).set(headers).buffer(true).parse(binaryParser);

/** What ffprobe reads in an MP4: the kinds of its streams and its duration in seconds. */
export async function probe(bytes: Buffer): Promise<{ streams: string[]; duration: number; codecs: string[] }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kasa-probe-'));
  try {
    const file = path.join(dir, 'video.mp4');
    await writeFile(file, bytes);
    const { stdout } = await run('ffprobe', ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', file]);
    const parsed = JSON.parse(stdout) as {
      streams: { codec_type: string; codec_name: string }[];
      format: { duration: string };
    };
    return {
      streams: parsed.streams.map((s) => s.codec_type),
      codecs: parsed.streams.map((s) => s.codec_name),
      duration: Number(parsed.format.duration),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A short MP4 made with ffmpeg, as a hosted video model would send. */
export async function sampleMp4(): Promise<Buffer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kasa-sample-'));
  try {
    const file = path.join(dir, 'sample.mp4');
    await run('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=s=320x240:r=10:d=1',
      '-f',
      'lavfi',
      '-i',
      'sine=d=1',
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-shortest',
      file,
    ]);
    const { readFile } = await import('node:fs/promises');
    return await readFile(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Direct access to the broker, to look into queues and send raw messages. */
export async function brokerChannel(): Promise<{ channel: amqp.Channel; close: () => Promise<void> }> {
  const connection = await amqp.connect(AMQP_URL);
  const channel = await connection.createChannel();
  return { channel, close: () => connection.close() };
}

/** Deletes the test's queues and their dead-letter queues. */
export async function deleteQueues(queues: string[]): Promise<void> {
  const { channel, close } = await brokerChannel();
  for (const queue of queues) {
    await channel.deleteQueue(queue).catch(() => undefined);
    await channel.deleteQueue(`${queue}.dlq`).catch(() => undefined);
  }
  await close().catch(() => undefined);
}
