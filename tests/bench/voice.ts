/**
 * Voice benchmarks (ARCHITECTURE.md, "Budgets"):
 *
 *  - language detection accuracy on shared/language-detect/eval/short-messages.json (no hints), per language and overall;
 *    budget ≥ 90 % across 30+ languages.
 *  - offline synthesis speed: seconds of audio per second of wall time for a long text, synthesized, encoded and
 *    stored by the real voice service (GridFS); budget ≥ 20× real time.
 *  - first audio of a long text: from sending the request (Accept: audio/mpeg) to receiving the first MP3 frame;
 *    budget ≤ 150 ms.
 *
 * Both speech paths are measured, each by a service of its own: the system programs (Debian's espeak-ng and ffmpeg,
 * with the engines from npm turned off) and the engines that come inside npm packages (eSpeak NG compiled to
 * WebAssembly and the static ffmpeg; the system programs are hidden by naming programs that do not exist). A path
 * whose engines do not run here is reported as skipped, with what the service said.
 *
 * The service runs from its build (services/voice/dist) as its own process, against the embedded database (or
 * MONGO_URL) and the RabbitMQ at AMQP_URL; requests go to it directly with the identity headers the gateway adds.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { evaluateDetector, LanguageDetector, loadEvaluationSet } from '@kasa/language-detect';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const mongoTools = require('../../scripts/embedded-mongo') as {
  startEmbeddedMongo: (o: { dataDir: string }) => Promise<{ url: string; stop: () => Promise<void> }>;
  freePort: () => Promise<number>;
};

const ROOT = path.resolve(__dirname, '../..');
const ROUNDS = Number(process.env.BENCH_VOICE_ROUNDS ?? 5);
const PRO = { 'x-kasa-user-id': 'bench-user', 'x-kasa-username': 'bench', 'x-kasa-tier': 'pro' };

/** One speech path: the engines the service was asked to use and what it reported using. */
export interface SpeechPathResult {
  path: 'system' | 'packaged';
  /** What GET /api/voice/status named: the speech engine and the encoder (e.g. espeak-ng-wasm, ffmpeg-npm). */
  engine: string;
  encoder: string;
  /** Why the path was not measured (its engines do not run here); the figures below are then absent. */
  skipped?: string;
  synthesis?: { realTimeFactor: number; audioSeconds: number; wallSeconds: number; characters: number };
  firstAudio?: { p50Ms: number; maxMs: number; samples: number; characters: number };
}

export interface VoiceBenchResult {
  detection: {
    overall: number;
    macro: number;
    languages: number;
    messages: number;
    perLanguage: { language: string; accuracy: number; messages: number }[];
  };
  speech: SpeechPathResult[];
}

/** The settings of each path: the system programs alone, or the engines from npm with the system ones hidden. */
const SPEECH_PATHS: { path: SpeechPathResult['path']; env: Record<string, string>; expects: [string, string] }[] = [
  { path: 'system', env: { VOICE_PACKAGED_ENGINES: 'false' }, expects: ['espeak-ng', 'ffmpeg'] },
  {
    path: 'packaged',
    env: { VOICE_ESPEAK_BIN: 'kasa-no-espeak', VOICE_FFMPEG_BIN: 'kasa-no-ffmpeg' },
    expects: ['espeak-ng-wasm', 'ffmpeg-npm'],
  },
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/** A long answer of the kind a persona gives, different each round (nothing is cached for non-sample text). */
function longText(round: number, sentences: number): string {
  const topics = ['saving money', 'learning a language', 'planning a trip to Kumasi', 'cooking jollof rice'];
  const lines: string[] = [];
  for (let i = 0; i < sentences; i++) {
    const topic = topics[(i + round) % topics.length]!;
    lines.push(
      `Point ${i + 1} of round ${round}: when it comes to ${topic}, start small, keep notes of what works, ` +
        `and come back to it every week until it becomes a habit.`,
    );
  }
  return lines.join(' ');
}

async function detectionAccuracy(): Promise<VoiceBenchResult['detection']> {
  const report = evaluateDetector(await LanguageDetector.create(), loadEvaluationSet());
  console.log('\nlanguage detection, per language (short messages, no hints):');
  for (const l of report.perLanguage as {
    language: string;
    accuracy: number;
    messages: number;
    misses: { text: string; detected: string }[];
  }[]) {
    const misses = l.misses.map((m) => `${m.detected}: ${m.text}`).join(' | ');
    console.log(
      `  ${l.language.padEnd(4)} ${(l.accuracy * 100).toFixed(0).padStart(3)} % of ${l.messages}${misses ? `  (${misses})` : ''}`,
    );
  }
  return {
    overall: report.overall,
    macro: report.macro,
    languages: report.languages,
    messages: report.messages,
    perLanguage: report.perLanguage.map((l: { language: string; accuracy: number; messages: number }) => ({
      language: l.language,
      accuracy: l.accuracy,
      messages: l.messages,
    })),
  };
}

async function startVoiceService(
  mongoUrl: string,
  env: Record<string, string>,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await mongoTools.freePort();
  const child = spawn(process.execPath, [path.join(ROOT, 'services/voice/dist/index.js')], {
    env: {
      ...process.env,
      ...env,
      MONGO_URL: mongoUrl,
      VOICE_PORT: String(port),
      VOICE_DB_NAME: `kasa_voice_bench_${process.pid}`,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const res = await fetch(`${url}/api/voice/status`);
      if (res.ok) break;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('the voice service did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

async function synthesisSpeed(url: string): Promise<NonNullable<SpeechPathResult['synthesis']>> {
  const runs: { audio: number; wall: number; characters: number }[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const text = longText(i, 24);
    const started = performance.now();
    const res = await request(`${url}/api/voice/synthesize`, {
      method: 'POST',
      headers: { ...PRO, 'content-type': 'application/json' },
      body: JSON.stringify({ text, language: 'en' }),
    });
    const body = (await res.body.json()) as { duration: number };
    if (res.statusCode !== 201) throw new Error(`synthesize: ${res.statusCode} ${JSON.stringify(body)}`);
    runs.push({ audio: body.duration, wall: (performance.now() - started) / 1000, characters: text.length });
  }
  const ratios = runs.map((r) => r.audio / r.wall);
  const middle = runs[ratios.indexOf(median(ratios))]!;
  return {
    realTimeFactor: round(median(ratios)),
    audioSeconds: round(middle.audio),
    wallSeconds: round(middle.wall, 2),
    characters: middle.characters,
  };
}

/** Bytes before the first MP3 frame: an ID3v2 tag, if any (10-byte header plus a "syncsafe" size). */
function id3Length(bytes: Buffer): number {
  if (bytes.length < 10 || bytes.toString('latin1', 0, 3) !== 'ID3') return 0;
  return 10 + ((bytes[6]! << 21) | (bytes[7]! << 14) | (bytes[8]! << 7) | bytes[9]!);
}

async function firstAudio(url: string): Promise<NonNullable<SpeechPathResult['firstAudio']>> {
  const latencies: number[] = [];
  let characters = 0;
  for (let i = 0; i < ROUNDS * 2; i++) {
    const text = longText(100 + i, 30);
    characters = text.length;
    // Let the service start its next encoder, as it would between two users' requests.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = performance.now();
    const res = await request(`${url}/api/voice/synthesize`, {
      method: 'POST',
      headers: { ...PRO, 'content-type': 'application/json', accept: 'audio/mpeg' },
      body: JSON.stringify({ text, language: 'en' }),
    });
    if (res.statusCode !== 200) throw new Error(`streamed synthesize: ${res.statusCode} ${await res.body.text()}`);
    let received = Buffer.alloc(0);
    let at = NaN;
    for await (const chunk of res.body) {
      received = Buffer.concat([received, chunk as Buffer]);
      const header = id3Length(received);
      // One MPEG-2 layer III frame at 32 kbit/s and 22.05 kHz is 104 bytes: the first audio has arrived.
      if (Number.isNaN(at) && received.length >= header + 104 && received[header] === 0xff) {
        at = performance.now() - started;
      }
    }
    if (Number.isNaN(at)) throw new Error('no MP3 frame received');
    latencies.push(at);
  }
  return {
    p50Ms: round(median(latencies)),
    maxMs: round(Math.max(...latencies)),
    samples: latencies.length,
    characters,
  };
}

/** Measures one speech path with a service of its own, after checking that it runs the engines of that path. */
async function speechPath(mongoUrl: string, setup: (typeof SPEECH_PATHS)[number]): Promise<SpeechPathResult> {
  const service = await startVoiceService(mongoUrl, setup.env);
  try {
    const status = (await (await fetch(`${service.url}/api/voice/status`)).json()) as {
      message?: string;
      engines: { name: string; available: boolean }[];
      encoder: { name: string };
    };
    const engine = status.engines.find((e) => e.available)?.name ?? 'none';
    const result = { path: setup.path, engine, encoder: status.encoder.name };
    const [expectedEngine, expectedEncoder] = setup.expects;
    if (engine !== expectedEngine || result.encoder !== expectedEncoder) {
      const found = `found ${engine} and ${result.encoder}${status.message ? `: ${status.message}` : ''}`;
      return { ...result, skipped: `needs ${expectedEngine} and ${expectedEncoder}, ${found}` };
    }
    const synthesis = await synthesisSpeed(service.url);
    const first = await firstAudio(service.url);
    // Let the last streamed copies finish storing before the service stops.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    return { ...result, synthesis, firstAudio: first };
  } finally {
    await service.stop();
  }
}

export async function runVoiceBench(): Promise<VoiceBenchResult> {
  const detection = await detectionAccuracy();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-bench-voice-db-'));
  const mongo = process.env.MONGO_URL ? undefined : await mongoTools.startEmbeddedMongo({ dataDir });
  try {
    const speech: SpeechPathResult[] = [];
    // One after the other: each path has the machine to itself.
    for (const setup of SPEECH_PATHS) speech.push(await speechPath(process.env.MONGO_URL ?? mongo!.url, setup));
    return { detection, speech };
  } finally {
    await mongo?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
