/**
 * Isolation benchmark (ARCHITECTURE.md, "Budgets": while one person floods attachments, syntheses and /v1
 * completions up to their limits, another person's calls keep p99 ≤ 2× their figure on a quiet platform), against
 * the real platform (services and gateway from their built output, the embedded database) with its default limits
 * and a fake OpenAI-compatible provider in this process.
 *
 *  - a light user (Pro) makes, one after the other and in turn, `GET /api/personas`, a short streamed chat turn (the
 *    provider answers ten words at once) and a short synthesis (the offline eSpeak engine): BENCH_ISOLATION_SAMPLES
 *    of each (default 40) on the quiet platform, then as many while a heavy user floods.
 *  - the heavy user (Pro, another account) floods, for as long as the light user's flooded samples take: rounds of
 *    a DOCX bomb and a 2,000-page PDF twice each (four uploads at once, both files generated here), ten 5,000-character
 *    syntheses at once, and 45 streamed `/v1/chat/completions` at once (the provider streams them slowly, 60 words
 *    100 ms apart, so they stay in flight). Every answer is counted by status and code.
 *  - chat's and voice's memory (VmRSS of /proc/<pid>/status; voice also with the eSpeak and ffmpeg processes it
 *    starts) before the flood, at its highest during it, and a few seconds after; the issue asks that chat's stays
 *    within 150 MB of its level before.
 *  - 20 wrong passwords at once for one account: how many were checked (401) and how many refused (429).
 *
 * The heavy loops are paced so that the gateway's per-person limit of 1,000 calls a minute (API_RATE_LIMIT_PER_MINUTE)
 * is not what answers them: each round waits for its answers (the 10 completions that run take about 6 s), and the
 * upload rounds are a second apart. Everything is bounded: BENCH_ISOLATION_MAX_FLOOD_SECONDS (default 300) ends the
 * flood even if the light user's samples are not all taken, and every request gives up after two minutes.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { request, type Dispatcher } from 'undici';
import { makeDocxBomb, makeManyPagePdf } from '../support/abusiveFiles';
import { ChatClient, percentile, round, streamingAgent } from '../support/chatClient';
import { FakeOpenAI } from '../support/fakeOpenAI';
import { startPlatform, type RunningPlatform } from '../support/platform';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startEmbeddedMongo } = require('../../scripts/embedded-mongo') as {
  startEmbeddedMongo: (o: { dataDir: string }) => Promise<{ url: string; stop: () => Promise<void> }>;
};

const SAMPLES = Number(process.env.BENCH_ISOLATION_SAMPLES ?? 40);
const MAX_FLOOD_MS = Number(process.env.BENCH_ISOLATION_MAX_FLOOD_SECONDS ?? 300) * 1_000;
/** Calls of each kind before the measured ones: connections and JIT warm up. */
const WARM_UP = 5;
/** The flood runs this long before the light user's flooded samples start, so that every loop is under way. */
const RAMP_MS = 3_000;
/** How long after the flood ends the memory "after" is read: idle attachment workers exit after 15 s (their heap goes
 * back to the system), and garbage is collected. */
const SETTLE_MS = 20_000;
const REQUEST_TIMEOUT_MS = 120_000;
/** What marks the heavy user's completions, which the fake provider streams slowly. */
const FLOOD_MARK = 'flood';
const QUICK_REPLY = 'Akwaaba! Kasa answers in your language by text or by voice.';

export interface LatencyFigures {
  p50Ms: number;
  p99Ms: number;
  samples: number;
  failed: number;
}

export interface IsolationBenchResult {
  samples: number;
  /** The light user's calls: quiet and flooded figures, and the flooded p99 over the quiet one. */
  light: Array<{ name: string; quiet: LatencyFigures; flooded: LatencyFigures; p99Ratio: number }>;
  /** The heavy user's requests by kind: how many, and how each was answered (`<status> <code>` → count). */
  heavy: Array<{ kind: string; sent: number; answers: Record<string, number>; examples: Record<string, string> }>;
  floodSeconds: number;
  /** Resident memory in MB (VmRSS). */
  memory: Record<'chat' | 'voice' | 'voiceWithChildren', { beforeMb: number; peakMb: number; afterMb: number }>;
  signIn: { attempts: number; checked: number; refused: number; other: Record<string, number> };
  /** The machine's 1-minute load average before and after (others' work on a shared machine shows here). */
  load: { before: number; after: number };
}

/** VmRSS of a process in kB (0 when it is gone). */
function vmRssKb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** A process's VmRSS plus that of every process below it (voice's eSpeak and ffmpeg runs), in kB. */
function treeRssKb(root: number): number {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The parent's pid is the second field after the command, which is in parentheses and may hold spaces.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      /* gone meanwhile */
    }
  }
  let kb = 0;
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.pop()!;
    kb += vmRssKb(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return kb;
}

const mb = (kb: number) => round(kb / 1024);

function figures(samples: number[], failed: number): LatencyFigures {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    p50Ms: round(percentile(sorted, 50)),
    p99Ms: round(percentile(sorted, 99)),
    samples: sorted.length,
    failed,
  };
}

/** One JSON call, read in full: its status, Kasa's error code (when there is one) and message. */
async function callJson(
  dispatcher: Dispatcher,
  url: string,
  method: 'GET' | 'POST',
  token: string,
  body?: { json?: unknown; bytes?: Buffer },
): Promise<{ status: number; code?: string; message?: string; json?: any }> {
  const res = await request(url, {
    method,
    dispatcher,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      ...(body?.json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(body?.bytes ? { 'content-type': 'application/octet-stream' } : {}),
    },
    body: body?.json !== undefined ? JSON.stringify(body.json) : body?.bytes,
  });
  const text = await res.body.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, code: json?.code, message: json?.message ?? json?.error?.message, json };
}

/** Counts the heavy user's answers of one kind by `<status> <code>`, keeping the first message of each. */
class AnswerTally {
  sent = 0;
  readonly answers: Record<string, number> = {};
  readonly examples: Record<string, string> = {};

  record(status: number | string, code?: string, message?: string): void {
    this.sent += 1;
    const key = code ? `${status} ${code}` : String(status);
    this.answers[key] = (this.answers[key] ?? 0) + 1;
    if (message && !this.examples[key]) this.examples[key] = message.slice(0, 120);
  }

  async time(run: () => Promise<{ status: number; code?: string; message?: string }>): Promise<void> {
    try {
      const { status, code, message } = await run();
      this.record(status, code, message);
    } catch (err) {
      const error = err as Error & { code?: string; cause?: { code?: string } };
      this.record('network', error.code ?? error.cause?.code ?? error.name, error.message);
    }
  }
}

interface Account {
  token: string;
  email: string;
}

/** A new person on Pro (the built-in payment provider completes the checkout at once outside production). */
async function proAccount(platform: RunningPlatform, dispatcher: Dispatcher, prefix: string): Promise<Account> {
  const id = randomUUID().slice(0, 8);
  const email = `${prefix}.${id}@example.com`;
  const registered = await request(`${platform.baseUrl}/api/auth/register`, {
    method: 'POST',
    dispatcher,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: `${prefix}_${id}`, email, password: `Kasa-${id}-pass!` }),
  });
  const body = (await registered.body.json()) as { token: string };
  if (registered.statusCode !== 201) throw new Error(`register: ${registered.statusCode} ${JSON.stringify(body)}`);
  const checkout = await callJson(dispatcher, `${platform.baseUrl}/api/billing/checkout`, 'POST', body.token, {
    json: { planId: 'pro' },
  });
  if (checkout.status !== 201) throw new Error(`checkout: ${checkout.status} ${checkout.message}`);
  return { token: checkout.json.token as string, email };
}

export async function runIsolationBench(): Promise<IsolationBenchResult> {
  let mongo: { url: string; stop: () => Promise<void> } | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-bench-isolation-'));
  if (!process.env.MONGO_URL) {
    mongo = await startEmbeddedMongo({ dataDir });
    process.env.MONGO_URL = mongo.url;
  }
  const provider = await new FakeOpenAI().start();
  provider.mode = {
    kind: 'choose',
    choose: (body) =>
      JSON.stringify(body.messages.at(-1)?.content ?? '').includes(FLOOD_MARK)
        ? { kind: 'ok', text: 'word '.repeat(60), delayMs: 100 }
        : { kind: 'ok', text: QUICK_REPLY },
  };
  const dispatcher = streamingAgent();
  let platform: RunningPlatform | undefined;
  try {
    // Default limits: what is measured is how the platform's own limits keep one person's flood theirs.
    platform = await startPlatform({
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error',
      CHAT_PROVIDERS: 'benchfake',
      BENCHFAKE_BASE_URL: provider.baseURL,
      BENCHFAKE_MODEL: 'fake-model',
    });
    return await measure(platform, dispatcher);
  } finally {
    if (process.env.BENCH_LOG_FILE && platform) fs.writeFileSync(process.env.BENCH_LOG_FILE, platform.logs.join('\n'));
    await platform?.stop();
    await provider.stop();
    await dispatcher.close();
    await mongo?.stop();
    if (mongo) delete process.env.MONGO_URL;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function measure(platform: RunningPlatform, dispatcher: Dispatcher): Promise<IsolationBenchResult> {
  const base = platform.baseUrl;
  const pids = platform.pids?.();
  if (!pids) throw new Error('the isolation bench reads one process per part: run it without KASA_TEST_SCALE_OUT');
  const client = new ChatClient(base, dispatcher);
  const [light, heavy] = [
    await proAccount(platform, dispatcher, 'light'),
    await proAccount(platform, dispatcher, 'heavy'),
  ];

  // The light user's three calls; each resolves with whether it was answered as it should be (`prepare` runs first,
  // untimed).
  let session = (await client.newSession(light.token)).id;
  let turns = 0;
  let spoken = 0;
  const calls: Array<{ name: string; prepare?: () => Promise<void>; run: () => Promise<boolean> }> = [
    {
      name: 'GET /api/personas',
      run: async () => (await callJson(dispatcher, `${base}/api/personas`, 'GET', light.token)).status === 200,
    },
    {
      name: 'short streamed chat turn',
      // A fresh session every 10 turns keeps the history (and so the prompt) the same size throughout.
      prepare: async () => {
        if (++turns % 10 === 0) session = (await client.newSession(light.token)).id;
      },
      run: async () => {
        const turn = await client.streamTurn(light.token, session, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
        return turn.status === 200 && turn.done && turn.error === undefined;
      },
    },
    {
      name: 'short synthesis',
      run: async () => {
        // A sentence of its own each time, as a reply read aloud would be.
        const text = `Akwaaba, this is sentence ${++spoken} of the light user.`;
        const answer = await callJson(dispatcher, `${base}/api/voice/synthesize`, 'POST', light.token, {
          json: { text, language: 'en' },
        });
        return answer.status === 201;
      },
    },
  ];

  /** SAMPLES calls of each kind, in turn; `until` stops early (the flood's time is up). */
  const sample = async (count: number, until = () => false) => {
    const results = calls.map(() => ({ ms: [] as number[], failed: 0 }));
    for (let i = 0; i < count && !until(); i++) {
      for (const [k, call] of calls.entries()) {
        await call.prepare?.();
        const started = performance.now();
        const ok = await call.run().catch(() => false);
        results[k]!.ms.push(performance.now() - started);
        if (!ok) results[k]!.failed += 1;
      }
    }
    return results.map((r) => figures(r.ms, r.failed));
  };

  const loadBefore = os.loadavg()[0]!;
  await sample(WARM_UP);
  const quiet = await sample(SAMPLES);

  // Memory: before the flood, then every half second during it.
  const memoryOf = () => ({
    chat: vmRssKb(pids.chat),
    voice: vmRssKb(pids.voice),
    voiceWithChildren: treeRssKb(pids.voice),
  });
  const before = memoryOf();
  const peak = { ...before };
  const memoryTimer = setInterval(() => {
    const now = memoryOf();
    for (const key of Object.keys(peak) as Array<keyof typeof peak>) peak[key] = Math.max(peak[key], now[key]);
  }, 500);

  const floodStarted = Date.now();
  const floodEnds = floodStarted + MAX_FLOOD_MS;
  let stopped = false;
  const flooding = () => !stopped && Date.now() < floodEnds;
  const tallies = {
    'DOCX bomb uploads': new AnswerTally(),
    '2,000-page PDF uploads': new AnswerTally(),
    '5,000-character syntheses': new AnswerTally(),
    'streamed /v1 completions': new AnswerTally(),
  };
  const bomb = makeDocxBomb(8 * 1024 * 1024);
  const pdf = makeManyPagePdf(2_000);
  const longText = (n: number) =>
    `Round ${n}. ${'Kasa reads this long text aloud, sentence after sentence, for as long as it takes. '.repeat(60)}`.slice(
      0,
      5_000,
    );

  const uploads = async () => {
    while (flooding()) {
      await Promise.all(
        [bomb, pdf, bomb, pdf].map((bytes, i) => {
          const [kind, name] =
            i % 2 ? (['2,000-page PDF uploads', 'book.pdf'] as const) : (['DOCX bomb uploads', 'report.docx'] as const);
          const url = `${base}/api/chat/attachments?name=${name}`;
          return tallies[kind].time(() => callJson(dispatcher, url, 'POST', heavy.token, { bytes }));
        }),
      );
      await sleep(1_000);
    }
  };
  const syntheses = async () => {
    for (let round = 0; flooding(); round++) {
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          tallies['5,000-character syntheses'].time(() =>
            callJson(dispatcher, `${base}/api/voice/synthesize`, 'POST', heavy.token, {
              json: { text: longText(round * 10 + i), language: 'en' },
            }),
          ),
        ),
      );
    }
  };
  const completions = async () => {
    while (flooding()) {
      await Promise.all(
        Array.from({ length: 45 }, () =>
          tallies['streamed /v1 completions'].time(async () => {
            const res = await request(`${base}/v1/chat/completions`, {
              method: 'POST',
              dispatcher,
              signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
              headers: { authorization: `Bearer ${heavy.token}`, 'content-type': 'application/json' },
              body: JSON.stringify({
                model: 'kasa',
                stream: true,
                messages: [{ role: 'user', content: `Tell me everything, ${FLOOD_MARK}.` }],
              }),
            });
            const text = await res.body.text();
            if (res.statusCode !== 200) {
              let json: { code?: string; message?: string } = {};
              try {
                json = JSON.parse(text) as typeof json;
              } catch {
                /* not JSON: the status alone */
              }
              return { status: res.statusCode, code: json.code, message: json.message };
            }
            return text.includes('data: [DONE]')
              ? { status: 200 }
              : { status: 200, code: 'incomplete', message: text.slice(-200) };
          }),
        ),
      );
    }
  };

  // BENCH_ISOLATION_FLOOD=uploads,syntheses,completions (default: all three) floods with some of them only, to see
  // which one another person feels.
  const kinds = (process.env.BENCH_ISOLATION_FLOOD ?? 'uploads,syntheses,completions').split(',');
  const floods = { uploads, syntheses, completions };
  const flood = Promise.all(
    Object.entries(floods)
      .filter(([kind]) => kinds.includes(kind))
      .map(([, run]) => run()),
  );
  await sleep(RAMP_MS);
  const flooded = await sample(SAMPLES, () => !flooding());
  stopped = true;
  await flood;
  const floodSeconds = round((Date.now() - floodStarted) / 1_000);
  clearInterval(memoryTimer);
  await sleep(SETTLE_MS);
  const after = memoryOf();

  // Twenty wrong passwords for one account at once.
  const attempts = 20;
  const signIns = await Promise.all(
    Array.from({ length: attempts }, (_, i) =>
      request(`${base}/api/auth/login`, {
        method: 'POST',
        dispatcher,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: heavy.email, password: `not-the-password-${i}` }),
      }).then(async (res) => {
        await res.body.dump();
        return res.statusCode;
      }),
    ),
  );
  const other: Record<string, number> = {};
  for (const status of signIns.filter((s) => s !== 401 && s !== 429)) other[status] = (other[status] ?? 0) + 1;

  return {
    samples: SAMPLES,
    light: calls.map((call, k) => ({
      name: call.name,
      quiet: quiet[k]!,
      flooded: flooded[k]!,
      p99Ratio: round(flooded[k]!.p99Ms / quiet[k]!.p99Ms),
    })),
    heavy: Object.entries(tallies).map(([kind, t]) => ({
      kind,
      sent: t.sent,
      answers: t.answers,
      examples: t.examples,
    })),
    floodSeconds,
    memory: {
      chat: { beforeMb: mb(before.chat), peakMb: mb(peak.chat), afterMb: mb(after.chat) },
      voice: { beforeMb: mb(before.voice), peakMb: mb(peak.voice), afterMb: mb(after.voice) },
      voiceWithChildren: {
        beforeMb: mb(before.voiceWithChildren),
        peakMb: mb(peak.voiceWithChildren),
        afterMb: mb(after.voiceWithChildren),
      },
    },
    signIn: {
      attempts,
      checked: signIns.filter((s) => s === 401).length,
      refused: signIns.filter((s) => s === 429).length,
      other,
    },
    load: { before: round(loadBefore), after: round(os.loadavg()[0]!) },
  };
}

if (require.main === module) {
  runIsolationBench().then(
    (r) => console.log(JSON.stringify(r, null, 2)),
    (err) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
