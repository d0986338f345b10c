/**
 * The voice service on a machine without Debian's espeak-ng and ffmpeg: the engines that come inside npm packages
 * (eSpeak NG compiled to WebAssembly, run as a program of its own; the static ffmpeg; lamejs) speak, encode MP3 and
 * make videos. The system programs are hidden by naming programs that do not exist.
 */
import type { Logger } from '@kasa/service-kit';
import type { Express } from 'express';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import request from 'supertest';
import { findFfmpeg, findSpeechEngine, packagedEspeak, packagedFfmpeg } from '../src/speech/engines';
import { runProcess } from '../src/speech/runProcess';
import { parseWav } from '../src/speech/wav';
import { catalogueCode } from '../src/languages/catalogue';
import type { VideoComponents } from '../src/video/videoComponents';
import { binaryParser, logger, TestEnvironment, userHeaders } from './support';
import { deleteQueues, fetchBytes, testQueue, videoApp, waitForJob } from './videoSupport';

const HIDDEN = {
  VOICE_ESPEAK_BIN: 'kasa-no-espeak',
  VOICE_FFMPEG_BIN: 'kasa-no-ffmpeg',
  // The engine compiled to WebAssembly reads a long text in about 20 s on a loaded 2-core machine: the production
  // limit (20 s) would cut the stream the test follows, which is not what it is about.
  VOICE_SYNTHESIS_TIMEOUT_MS: '120000',
};
const env = new TestEnvironment('packaged');
const queue = testQueue();
let app: Express;
let video: VideoComponents;

beforeAll(async () => {
  await env.start();
  // The app with video generation, built as index.ts builds it.
  ({ app, video } = await videoApp(env, { queue, consume: true, env: HIDDEN }));
}, 120_000);
afterAll(async () => {
  await video?.close();
  await deleteQueues([queue]);
  await env.stop();
});

const pro = userHeaders('pro');
const looksLikeMp3 = (bytes: Buffer) =>
  bytes.subarray(0, 3).toString('latin1') === 'ID3' || (bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0);
const fetchAudio = (url: string) => request(app).get(url).buffer(true).parse(binaryParser);
const CLI = packagedEspeak();
const cli = (args: string[], input = '') => runProcess(CLI.command, [...CLI.args, ...args], { input });

/** A logger that keeps the messages it is given (findSpeechEngine and findFfmpeg log at info and warn). */
function recordingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const record = (_fields: unknown, message?: string) => void lines.push(message ?? String(_fields));
  const recording = { info: record, warn: record, error: record, debug: record };
  return { logger: recording as unknown as Logger, lines };
}

describe('the WebAssembly build of eSpeak NG as a program', () => {
  it('lists its voices in the columns of espeak-ng --voices, Swahili among them', async () => {
    const listing = await cli(['--voices']);
    expect(listing.code).toBe(0);
    const lines = listing.stdout.toString('utf8').split('\n');
    expect(lines[0]).toMatch(/^Pty Language\s+Age\/Gender VoiceName\s+File\s+Other Languages$/);
    expect(lines).toContainEqual(expect.stringMatching(/^ 5 {2}sw +--\/M +Swahili +bnt\/sw/));
    expect(lines.length).toBeGreaterThan(130);
  });

  it('writes a WAV of the text given on stdin, as the CLI does, and reads markup as text', async () => {
    const result = await cli(['--stdout', '-b', '1', '-v', 'bnt/sw'], 'Habari yako, rafiki yangu.');
    expect(result.code).toBe(0);
    const { pcm, sampleRate } = parseWav(result.stdout);
    expect(sampleRate).toBe(22_050);
    const seconds = pcm.length / 2 / sampleRate;
    expect(seconds).toBeGreaterThan(1);
    expect(seconds).toBeLessThan(5);
    // With SSML read, this would be 60 s of silence; read as text, it is a few words.
    const markup = await cli(['--stdout', '-v', 'en-us'], '<break time="60s"/> and <b>bold</b>');
    expect(parseWav(markup.stdout).pcm.length / 2 / 22_050).toBeLessThan(8);
    const female = await cli(['--stdout', '-v', 'bnt/sw+f3'], 'Habari yako, rafiki yangu.');
    expect(female.code).toBe(0);
    expect(female.stdout.equals(result.stdout)).toBe(false);
  });

  it('fails as the CLI does for an unknown voice or option', async () => {
    expect((await cli(['--stdout', '-v', 'kasa-no-voice'], 'Hello')).code).toBe(1);
    expect((await cli(['--kasa-no-option'], 'Hello')).code).toBe(2);
  });
});

describe('choosing the engines', () => {
  it('logs which engine speaks and which ffmpeg encodes', async () => {
    const { logger: recording, lines } = recordingLogger();
    const [speech, ffmpeg] = await Promise.all([
      findSpeechEngine({ bin: 'kasa-no-espeak', usePackaged: true, mapLanguage: catalogueCode, logger: recording }),
      findFfmpeg({ bin: 'kasa-no-ffmpeg', usePackaged: true, logger: recording }),
    ]);
    speech.close();
    expect(speech).toMatchObject({ name: 'espeak-ng-wasm', available: true });
    expect(ffmpeg).toMatchObject({ source: 'npm', command: expect.stringContaining('ffmpeg') });
    expect(lines).toEqual(
      expect.arrayContaining(['speech: eSpeak NG (WebAssembly, from npm)', 'encoder: ffmpeg (static build, from npm)']),
    );
  });

  it('keeps the configured program when it runs', async () => {
    const { logger: recording, lines } = recordingLogger();
    // `true` stands in for a system ffmpeg: it runs and exits with 0, whatever it is asked.
    const ffmpeg = await findFfmpeg({ bin: 'true', usePackaged: true, logger: recording });
    expect(ffmpeg).toEqual({ command: 'true', source: 'system', description: 'ffmpeg (system)' });
    expect(lines).toEqual(['encoder: ffmpeg (system)']);
  });

  it('encodes MP3 with lamejs when no ffmpeg runs', async () => {
    // In a Node process of its own: lamejs is loaded with import(), which jest's sandbox cannot run as Node does.
    const script = `
      const { AudioEncoders } = require(${JSON.stringify(path.join(__dirname, '../dist/speech/audioEncoder.js'))});
      const logger = { info() {}, warn() {}, error() {}, debug() {} };
      (async () => {
        const encoders = await AudioEncoders.create({ ffmpeg: undefined, format: 'mp3', sampleRate: 22050, usePackaged: true, logger });
        const job = encoders.start();
        const chunks = [];
        job.output.on('data', (chunk) => chunks.push(chunk));
        // Two seconds of a 440 Hz tone, from an odd offset (a Buffer from a pool may have one).
        const tone = Buffer.alloc(2 * 44100 + 1);
        for (let i = 0; i < 44100; i++) tone.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 22050)), 1 + 2 * i);
        await job.write(tone.subarray(1));
        await job.end();
        process.stderr.write(JSON.stringify({ name: encoders.name, format: encoders.format, available: encoders.encoderAvailable }));
        process.stdout.write(Buffer.concat(chunks));
      })();
    `;
    const result = await runProcess(process.execPath, ['-e', script]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stderr)).toEqual({ name: 'lamejs', format: 'mp3', available: true });
    const mp3 = result.stdout;
    expect(looksLikeMp3(mp3)).toBe(true);
    // 32 kbit/s: about 4 KB per second.
    expect(mp3.length / 2).toBeGreaterThan(3_000);
    expect(mp3.length / 2).toBeLessThan(5_000);
  });
});

describe('the voice service with only the engines from npm', () => {
  it('says which engines it runs', async () => {
    const res = await request(app).get('/api/voice/status');
    expect(res.body).toMatchObject({
      status: 'ok',
      engines: [{ name: 'espeak-ng-wasm', available: true, version: expect.any(String) }],
      encoder: { name: 'ffmpeg-npm', available: true, format: 'mp3' },
    });
    expect(res.body.engines[0].voices).toBeGreaterThan(200);
  });

  it("lists the packaged engine's voices, Swahili included, and the languages it speaks", async () => {
    const voices = await request(app).get('/api/voice/voices?language=sw');
    expect(voices.status).toBe(200);
    expect(voices.body.voices).toEqual(
      expect.arrayContaining([
        { id: 'sw', name: 'Swahili', language: 'sw', locale: 'sw', gender: 'male', engine: 'espeak-ng-wasm' },
        expect.objectContaining({ id: 'sw+f', gender: 'female', engine: 'espeak-ng-wasm' }),
      ]),
    );
    const speak = await request(app).get('/api/languages?capability=speak');
    const codes = (speak.body.languages as { code: string }[]).map((l) => l.code);
    expect(codes).toEqual(expect.arrayContaining(['sw', 'en', 'fr', 'ar', 'zh', 'am', 'fo', 'ti', 'kaa']));
    expect(codes).not.toContain('tw');
    expect(speak.body.count).toBeGreaterThan(100);
  });

  it('speaks Swahili and stores it as MP3', async () => {
    const res = await request(app)
      .post('/api/voice/synthesize')
      .set(pro)
      .send({ text: 'Habari yako? Karibu Kasa, msaidizi wako wa sauti.', language: 'sw' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      contentType: 'audio/mpeg',
      language: 'sw',
      voice: 'sw',
      engine: 'espeak-ng-wasm',
    });
    expect(res.body.duration).toBeGreaterThan(2);
    expect(res.body.duration).toBeLessThan(10);
    const audio = await fetchAudio(res.body.audioUrl);
    expect(audio.status).toBe(200);
    expect(audio.headers['content-type']).toBe('audio/mpeg');
    const bytes = audio.body as Buffer;
    expect(looksLikeMp3(bytes)).toBe(true);
    expect(bytes.length / res.body.duration).toBeGreaterThan(3_000);
    expect(bytes.length / res.body.duration).toBeLessThan(5_000);
  }, 30_000);

  it('streams a long text: the first audio arrives while the rest is still being made', async () => {
    const server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const sentence = 'Kasa reads long answers one sentence after another, so that the first words play at once. ';
      const started = performance.now();
      const res = await fetch(`http://127.0.0.1:${port}/api/voice/synthesize`, {
        method: 'POST',
        headers: { ...pro, 'content-type': 'application/json', accept: 'audio/mpeg' },
        body: JSON.stringify({ text: sentence.repeat(12), language: 'en' }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('audio/mpeg');
      const chunks: Buffer[] = [];
      let firstAt = NaN;
      const reader = res.body!.getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        if (chunks.length === 0) firstAt = performance.now() - started;
        chunks.push(Buffer.from(read.value));
      }
      const endAt = performance.now() - started;
      const streamed = Buffer.concat(chunks);
      expect(looksLikeMp3(chunks[0]!)).toBe(true);
      // Twelve sentences are five chunks of text, each its own engine process: the first audio comes well before.
      expect(firstAt).toBeLessThan(endAt / 2);
      const stored = await fetchAudio(res.headers.get('x-kasa-audio-url')!);
      expect((stored.body as Buffer).equals(streamed)).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);

  it('makes a video with the static ffmpeg: speech, captions and a subtitle track', async () => {
    expect(video.offline).toMatchObject({ available: true, ffmpegSource: 'npm' });
    const enterprise = userHeaders('enterprise');
    const created = await request(app)
      .post('/api/video/generations')
      .set(enterprise)
      .send({ prompt: 'Karibu Nairobi. Soko linafunguliwa asubuhi.', language: 'sw' });
    expect(created.status).toBe(202);
    const job = await waitForJob(app, created.body.id, enterprise, undefined, 90_000);
    expect(job).toMatchObject({ status: 'succeeded', renderer: 'offline' });
    expect(job.duration).toBeGreaterThan(2);
    const file = await fetchBytes(app, job.videoUrl as string);
    expect(file.headers['content-type']).toBe('video/mp4');
    const media = await describeMedia((await packagedFfmpeg(logger))!, file.body as Buffer);
    expect(media.streams).toEqual(expect.arrayContaining(['Video: h264', 'Audio: aac', 'Subtitle: mov_text']));
    expect(Math.abs(media.duration - (job.duration as number))).toBeLessThan(0.5);
  }, 120_000);
});

describe('when neither engine runs', () => {
  it('stays honest: speech answers 503, no language speaks, and no video can be made', async () => {
    const off = { ...HIDDEN, VOICE_PACKAGED_ENGINES: 'false' };
    const bareQueue = testQueue();
    const { app: bare, video: bareVideo } = await videoApp(env, { queue: bareQueue, consume: true, env: off });
    try {
      const status = await request(bare).get('/api/voice/status');
      expect(status.body).toMatchObject({
        status: 'degraded',
        engines: [{ name: 'espeak-ng', available: false }],
        encoder: { name: 'none', available: false, format: 'wav' },
      });
      const res = await request(bare).post('/api/voice/synthesize').set(pro).send({ text: 'Hello', language: 'en' });
      expect(res.status).toBe(503);
      expect(res.body.message).toMatch(/no speech engine/);
      expect((await request(bare).get('/api/languages?capability=speak')).body.count).toBe(0);
      expect((await request(bare).get('/api/voice/voices')).body.voices).toEqual([]);
      expect(bareVideo.offline).toMatchObject({ available: false, ffmpegSource: 'none' });
      const videoRequest = await request(bare)
        .post('/api/video/generations')
        .set(userHeaders('enterprise'))
        .send({ prompt: 'Nothing can say this.', language: 'en' });
      expect(videoRequest.status).toBe(400);
      expect(videoRequest.body.code).toBe('language_not_spoken');
    } finally {
      await bareVideo.close();
      await deleteQueues([bareQueue]);
    }
  }, 60_000);
});

/** The streams and duration of a media file as ffmpeg reads them (`ffmpeg -i` describes its input on stderr). */
async function describeMedia(ffmpeg: string, bytes: Buffer): Promise<{ streams: string[]; duration: number }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kasa-media-'));
  try {
    const file = path.join(dir, 'video.mp4');
    await writeFile(file, bytes);
    // Without an output ffmpeg exits with 1 after describing the input.
    const { stderr } = await promisify(execFile)(ffmpeg, ['-hide_banner', '-i', file]).catch(
      (err: { stderr: string }) => err,
    );
    const [, h, m, s] = /Duration: (\d+):(\d+):([\d.]+)/.exec(stderr) ?? [];
    return {
      streams: [...stderr.matchAll(/Stream #\S+: (\w+: \w+)/g)].map((match) => match[1]!),
      duration: Number(h) * 3600 + Number(m) * 60 + Number(s),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
