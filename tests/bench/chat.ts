/**
 * Chat benchmark (ARCHITECTURE.md, "Budgets"), against the real platform (services and gateway from their built
 * output, the embedded database) with a fake OpenAI-compatible provider in this process:
 *
 *  - time to first token: how long after the provider writes its first token the client, calling through the
 *    gateway, reads it (both clocks are this process's `performance.now()`); budget ≤ 5 ms p50, ≤ 20 ms p99.
 *  - stop: how long after the client's stop the provider's request is cancelled; budget ≤ 1 s.
 *  - load: how many streamed chats run at once with no failed request; budget 500.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { FakeOpenAI } from '../support/fakeOpenAI';
import { startPlatform, type RunningPlatform } from '../support/platform';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startEmbeddedMongo } = require('../../scripts/embedded-mongo') as {
  startEmbeddedMongo: (o: { dataDir: string }) => Promise<{ url: string; stop: () => Promise<void> }>;
};

export interface ChatBenchResult {
  firstToken: { p50Ms: number; p99Ms: number; samples: number };
  stop: { cancelMs: number; resumableCancelMs: number };
  load: { streams: number; failed: number; seconds: number; errors: string[] };
}

const TURNS = Number(process.env.BENCH_CHAT_TURNS ?? 200);
const STREAMS = Number(process.env.BENCH_CHAT_STREAMS ?? 500);
// Many streams at once need many sockets: one pool for the whole run, with no connection limit.
const dispatcher = new Agent({ connections: null, pipelining: 0, headersTimeout: 120_000, bodyTimeout: 120_000 });

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
const round = (ms: number) => Math.round(ms * 100) / 100;

async function json<T>(platform: RunningPlatform, method: string, url: string, token: string, body?: unknown) {
  const res = await request(`${platform.baseUrl}${url}`, {
    method: method as 'POST',
    dispatcher,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

async function signUp(platform: RunningPlatform): Promise<string> {
  const id = randomUUID().slice(0, 8);
  const res = await fetch(`${platform.baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: `bench_${id}`, email: `bench.${id}@example.com`, password: 'bench-password' }),
  });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

const newSession = (platform: RunningPlatform, token: string) =>
  json<{ id: string }>(platform, 'POST', '/api/chat/sessions', token, { personaId: 'kasa', title: 'bench' });

/**
 * Sends one message and reads the streamed reply. Resolves with the time the first token event arrived and
 * whether the stream ended with `done`; `onFirstToken` may abort.
 */
async function streamTurn(
  platform: RunningPlatform,
  token: string,
  sessionId: string,
  options: { signal?: AbortSignal; resumable?: boolean; onFirstToken?: (meta: { messageId?: string }) => void } = {},
): Promise<{ firstTokenAt?: number; done: boolean; status: number; error?: string }> {
  const res = await request(`${platform.baseUrl}/api/chat/sessions/${sessionId}/messages`, {
    method: 'POST',
    dispatcher,
    signal: options.signal,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'text/event-stream',
    },
    body: JSON.stringify({ role: 'user', content: 'Tell me about Kasa.', type: 'text', resumable: options.resumable }),
  });
  if (res.statusCode !== 200) {
    const body = await res.body.text();
    return { done: false, status: res.statusCode, error: body.slice(0, 200) };
  }
  let buffer = '';
  let firstTokenAt: number | undefined;
  let messageId: string | undefined;
  let done = false;
  let error: string | undefined;
  try {
    for await (const chunk of res.body) {
      buffer += chunk.toString();
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (event.startsWith('event: meta')) {
          messageId ??= (JSON.parse(event.slice(event.indexOf('data: ') + 6)) as { assistantMessageId?: string })
            .assistantMessageId;
        } else if (event.startsWith('event: token') && firstTokenAt === undefined) {
          firstTokenAt = performance.now();
          options.onFirstToken?.({ messageId });
        } else if (event.startsWith('event: done')) {
          done = true;
        } else if (event.startsWith('event: error')) {
          error = event.slice(event.indexOf('data: ') + 6);
        }
      }
    }
  } catch (err) {
    if (!options.signal?.aborted) throw err;
  }
  return { firstTokenAt, done, status: res.statusCode, error };
}

async function measureFirstToken(platform: RunningPlatform, provider: FakeOpenAI, token: string) {
  provider.mode = { kind: 'ok', text: 'Kasa answers in your language, by text or by voice.' };
  const samples: number[] = [];
  let sessionId = (await newSession(platform, token)).id;
  for (let turn = 0; turn < TURNS; turn += 1) {
    // A fresh session every 10 turns keeps the history (and so the request) the same size throughout.
    if (turn % 10 === 0 && turn > 0) sessionId = (await newSession(platform, token)).id;
    const before = provider.requests.length;
    const result = await streamTurn(platform, token, sessionId);
    const providerFirst = provider.requests[before]?.firstTokenAt;
    if (result.firstTokenAt === undefined || providerFirst === undefined || !result.done) {
      throw new Error(`turn ${turn} did not stream (status ${result.status})`);
    }
    // The first few turns warm up connections and JIT; they are not part of the figure.
    if (turn >= 10) samples.push(result.firstTokenAt - providerFirst);
  }
  samples.sort((a, b) => a - b);
  return { p50Ms: round(percentile(samples, 50)), p99Ms: round(percentile(samples, 99)), samples: samples.length };
}

async function measureStop(platform: RunningPlatform, provider: FakeOpenAI, token: string) {
  provider.mode = { kind: 'endless', intervalMs: 20 };
  const waitClosed = async (index: number) => {
    const deadline = Date.now() + 10_000;
    while (provider.requests[index]?.closedAt === undefined) {
      if (Date.now() > deadline) throw new Error('the provider call was never cancelled');
      await new Promise((r) => setTimeout(r, 5));
    }
    return provider.requests[index]!.closedAt!;
  };

  // An API client hanging up: the reply stops and the provider call is cancelled.
  const controller = new AbortController();
  let stoppedAt = 0;
  let index = provider.requests.length;
  await streamTurn(platform, token, (await newSession(platform, token)).id, {
    signal: controller.signal,
    onFirstToken: () => {
      stoppedAt = Date.now();
      controller.abort();
    },
  });
  const cancelMs = (await waitClosed(index)) - stoppedAt;

  // The web app's way: a resumable reply stopped with the stop endpoint.
  const session = (await newSession(platform, token)).id;
  index = provider.requests.length;
  const resumable = new AbortController();
  let resumableStoppedAt = 0;
  await streamTurn(platform, token, session, {
    resumable: true,
    signal: resumable.signal,
    onFirstToken: ({ messageId }) => {
      resumableStoppedAt = Date.now();
      void json(platform, 'POST', `/api/chat/sessions/${session}/messages/${messageId}/stop`, token).finally(() =>
        resumable.abort(),
      );
    },
  });
  const resumableCancelMs = (await waitClosed(index)) - resumableStoppedAt;
  return { cancelMs, resumableCancelMs };
}

async function measureLoad(platform: RunningPlatform, provider: FakeOpenAI, token: string) {
  // Each reply streams 40 words over about 2 s, so all of them are open at the same time.
  provider.mode = { kind: 'ok', text: 'word '.repeat(40), delayMs: 50 };
  const sessions: string[] = [];
  for (let i = 0; i < STREAMS; i += 25) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(25, STREAMS - i) }, () => newSession(platform, token)),
    );
    sessions.push(...batch.map((s) => s.id));
  }
  const started = performance.now();
  const results = await Promise.allSettled(sessions.map((id) => streamTurn(platform, token, id)));
  const seconds = (performance.now() - started) / 1000;
  const errors = new Map<string, number>();
  for (const r of results) {
    const problem =
      r.status === 'rejected'
        ? String((r.reason as Error)?.message ?? r.reason)
        : r.value.status !== 200
          ? `status ${r.value.status}: ${r.value.error}`
          : !r.value.done
            ? `stream ended without done${r.value.error ? `: ${r.value.error}` : ''}`
            : undefined;
    if (problem) errors.set(problem, (errors.get(problem) ?? 0) + 1);
  }
  const failed = [...errors.values()].reduce((a, b) => a + b, 0);
  return {
    streams: STREAMS,
    failed,
    seconds: round(seconds),
    errors: [...errors].map(([message, count]) => `${count}× ${message}`),
  };
}

export async function runChatBench(): Promise<ChatBenchResult> {
  let mongo: { url: string; stop: () => Promise<void> } | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-bench-db-'));
  if (!process.env.MONGO_URL) {
    mongo = await startEmbeddedMongo({ dataDir });
    process.env.MONGO_URL = mongo.url;
  }
  const provider = await new FakeOpenAI().start();
  let platform: RunningPlatform | undefined;
  try {
    platform = await startPlatform({
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error',
      CHAT_PROVIDERS: 'benchfake',
      BENCHFAKE_BASE_URL: provider.baseURL,
      BENCHFAKE_MODEL: 'fake-model',
      // The benchmark is one user making thousands of calls: plan quotas and rate limits are not what it measures.
      PLAN_FREE_MONTHLY_CALLS: 'unlimited',
      API_RATE_LIMIT_PER_MINUTE: '10000000',
    });
    const token = await signUp(platform);
    const firstToken = await measureFirstToken(platform, provider, token);
    const stop = await measureStop(platform, provider, token);
    const load = await measureLoad(platform, provider, token);
    return { firstToken, stop, load };
  } finally {
    // BENCH_LOG_FILE=path keeps what the services logged (errors only), to explain a failed stream.
    if (process.env.BENCH_LOG_FILE && platform) fs.writeFileSync(process.env.BENCH_LOG_FILE, platform.logs.join('\n'));
    await platform?.stop();
    await provider.stop();
    await dispatcher.close();
    await mongo?.stop();
    if (mongo) delete process.env.MONGO_URL;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
