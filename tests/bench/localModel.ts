/**
 * The local model (services/chat README, "A local model"): with the default model file in the models folder
 * (CHAT_MODELS_DIR, default .data/models at the repository's root), how long it takes to load, its first token and
 * its tokens per second on this machine's CPU, one reply at a time. Without the file it says so: the benchmark never
 * downloads anything.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createLogger } from '@kasa/service-kit';

const CHAT_DIST = path.resolve(__dirname, '../../services/chat/dist');
/* eslint-disable @typescript-eslint/no-require-imports */
// The built engine: its import() of node-llama-cpp (an ES module) stays a real import there.
const { LocalModelEngine } = require(
  `${CHAT_DIST}/providers/local/localModelEngine`,
) as typeof import('../../services/chat/src/providers/local/localModelEngine');
const { DEFAULT_MODEL_URL, fileNameOf } = require(
  `${CHAT_DIST}/providers/local/modelDownloader`,
) as typeof import('../../services/chat/src/providers/local/modelDownloader');
/* eslint-enable @typescript-eslint/no-require-imports */

export interface LocalModelBenchResult {
  file: string;
  /** Absent: the default model file is not in the models folder. */
  present: boolean;
  loadMs?: number;
  threads?: number;
  firstToken?: { p50Ms: number; maxMs: number };
  tokensPerSecond?: number;
  replies?: number;
}

const PROMPTS = [
  'Explain in a few sentences why the sky is blue.',
  'Donne-moi trois conseils pour apprendre une langue.',
  'Eleza kwa ufupi jinsi ya kupanda mahindi.',
];
const MAX_TOKENS = 96;

const round = (value: number) => Math.round(value * 10) / 10;

export async function runLocalModelBench(): Promise<LocalModelBenchResult> {
  const modelsDir = process.env.CHAT_MODELS_DIR ?? path.resolve(__dirname, '../../.data/models');
  const file = fileNameOf(DEFAULT_MODEL_URL);
  if (!fs.existsSync(path.join(modelsDir, file))) return { file, present: false };
  const engine = new LocalModelEngine({
    modelsDir,
    sequences: 1,
    logger: createLogger({ service: 'bench', version: 'bench', level: 'warn' }),
  });
  try {
    const loading = performance.now();
    await engine.warm(file);
    const loadMs = Math.round(performance.now() - loading);
    const firstTokens: number[] = [];
    let tokens = 0;
    let generatingMs = 0;
    for (const prompt of PROMPTS) {
      const started = performance.now();
      let first: number | undefined;
      for await (const chunk of engine.generate({
        model: file,
        system: 'You are Kasa, a helpful assistant. Answer in the language of the question.',
        messages: [{ role: 'user', content: prompt }],
        maxTokens: MAX_TOKENS,
        temperature: 0,
        signal: AbortSignal.timeout(300_000),
      })) {
        if (chunk.type === 'text') first ??= performance.now();
        if (chunk.type === 'usage' && first !== undefined) {
          // Tokens after the first, over the time after it: the generation rate, the prompt's evaluation apart.
          tokens += Math.max(0, chunk.outputTokens - 1);
          generatingMs += performance.now() - first;
        }
      }
      if (first !== undefined) firstTokens.push(first - started);
    }
    firstTokens.sort((a, b) => a - b);
    const result: LocalModelBenchResult = {
      file,
      present: true,
      loadMs,
      threads: engine.threads,
      firstToken: {
        p50Ms: Math.round(firstTokens[Math.floor(firstTokens.length / 2)] ?? NaN),
        maxMs: Math.round(firstTokens[firstTokens.length - 1] ?? NaN),
      },
      tokensPerSecond: round(tokens / (generatingMs / 1000)),
      replies: firstTokens.length,
    };
    console.log(
      `\nlocal model ${file}: loaded in ${loadMs} ms, first token p50 ${result.firstToken!.p50Ms} ms, ` +
        `${result.tokensPerSecond} tokens/s on ${engine.threads} threads`,
    );
    return result;
  } finally {
    await engine.close();
  }
}
