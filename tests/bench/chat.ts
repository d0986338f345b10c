/**
 * Chat benchmark (ARCHITECTURE.md, "Budgets"), against the real platform (services and gateway from their built
 * output, the embedded database) with a fake OpenAI-compatible provider in this process:
 *
 *  - time to first token: how long after the provider writes its first token the client, calling through the
 *    gateway, reads it (both clocks are this process's `performance.now()`); budget ≤ 5 ms p50, ≤ 20 ms p99.
 *  - stop: how long after the client's stop the provider's request is cancelled; budget ≤ 1 s.
 *  - load: how many streamed chats run at once with no failed request; budget 500, and 1,000 reported beside it
 *    (BENCH_CHAT_STREAMS=500,1000 by default; each count runs on its own, one after the other).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ChatClient, percentile, round, runConcurrentStreams, streamingAgent } from '../support/chatClient';
import { FakeOpenAI } from '../support/fakeOpenAI';
import { startPlatform, type RunningPlatform } from '../support/platform';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startEmbeddedMongo } = require('../../scripts/embedded-mongo') as {
  startEmbeddedMongo: (o: { dataDir: string }) => Promise<{ url: string; stop: () => Promise<void> }>;
};

export interface ChatBenchResult {
  firstToken: { p50Ms: number; p99Ms: number; samples: number };
  stop: { cancelMs: number; resumableCancelMs: number };
  load: Array<{ streams: number; failed: number; seconds: number; errors: string[] }>;
}

const TURNS = Number(process.env.BENCH_CHAT_TURNS ?? 200);
const STREAMS = (process.env.BENCH_CHAT_STREAMS ?? '500,1000').split(',').map(Number);

async function measureFirstToken(client: ChatClient, provider: FakeOpenAI, token: string) {
  provider.mode = { kind: 'ok', text: 'Kasa answers in your language, by text or by voice.' };
  const samples: number[] = [];
  let sessionId = (await client.newSession(token)).id;
  for (let turn = 0; turn < TURNS; turn += 1) {
    // A fresh session every 10 turns keeps the history (and so the request) the same size throughout.
    if (turn % 10 === 0 && turn > 0) sessionId = (await client.newSession(token)).id;
    const before = provider.requests.length;
    const result = await client.streamTurn(token, sessionId);
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

async function measureStop(client: ChatClient, provider: FakeOpenAI, token: string) {
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
  await client.streamTurn(token, (await client.newSession(token)).id, {
    signal: controller.signal,
    onFirstToken: () => {
      stoppedAt = Date.now();
      controller.abort();
    },
  });
  const cancelMs = (await waitClosed(index)) - stoppedAt;

  // The web app's way: a resumable reply stopped with the stop endpoint.
  const session = (await client.newSession(token)).id;
  index = provider.requests.length;
  const resumable = new AbortController();
  let resumableStoppedAt = 0;
  await client.streamTurn(token, session, {
    resumable: true,
    signal: resumable.signal,
    onFirstToken: ({ messageId }) => {
      resumableStoppedAt = Date.now();
      void client
        .json('POST', `/api/chat/sessions/${session}/messages/${messageId}/stop`, token)
        .finally(() => resumable.abort());
    },
  });
  const resumableCancelMs = (await waitClosed(index)) - resumableStoppedAt;
  return { cancelMs, resumableCancelMs };
}

async function measureLoad(client: ChatClient, provider: FakeOpenAI, token: string, count: number) {
  // Each reply streams 40 words over about 2 s, so all of them are open at the same time.
  provider.mode = { kind: 'ok', text: 'word '.repeat(40), delayMs: 50 };
  const { streams, failed, seconds, errors } = await runConcurrentStreams(client, [token], count);
  return { streams, failed, seconds, errors };
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
  const dispatcher = streamingAgent();
  try {
    platform = await startPlatform({
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error',
      CHAT_PROVIDERS: 'benchfake',
      BENCHFAKE_BASE_URL: provider.baseURL,
      BENCHFAKE_MODEL: 'fake-model',
      // The benchmark is one user making thousands of calls: plan quotas and rate limits are not what it measures.
      PLAN_FREE_MONTHLY_CALLS: 'unlimited',
      API_RATE_LIMIT_PER_MINUTE: '10000000',
      CHAT_MAX_CONCURRENT_REPLIES: String(Math.max(...STREAMS) + 10),
    });
    const client = new ChatClient(platform.baseUrl, dispatcher);
    const token = await client.signUp('bench');
    const firstToken = await measureFirstToken(client, provider, token);
    const stop = await measureStop(client, provider, token);
    const load = [];
    for (const count of STREAMS) load.push(await measureLoad(client, provider, token, count));
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
