import { createLogger } from '@kasa/service-kit';
import { eventually, writeTinyGguf } from '@kasa/test-kit';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LocalModelEngine, type LocalChunk, type LocalGeneration } from '../src/providers/local/localModelEngine';

const logger = createLogger({ service: 'chat-test', version: 'test', level: 'silent' });
let dir: string;
let engine: LocalModelEngine;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'kasa-local-model-'));
  await writeTinyGguf(path.join(dir, 'tiny.gguf'));
  await writeTinyGguf(path.join(dir, 'plain.gguf'), { chatTemplate: false, seed: 11 });
  engine = new LocalModelEngine({
    modelsDir: dir,
    sequences: 2,
    queueLength: 2,
    threads: 1,
    contextTokens: 512,
    logger,
  });
});
afterAll(async () => {
  await engine.close();
  await rm(dir, { recursive: true, force: true });
});

const ask = (extra: Partial<LocalGeneration> = {}): LocalGeneration => ({
  model: 'tiny.gguf',
  system: 'You are Kasa, a helpful assistant.',
  messages: [
    { role: 'user', content: 'Hello! Ɛte sɛn?' },
    { role: 'assistant', content: 'Hello, I am well.' },
    { role: 'user', content: 'Tell me a story.' },
  ],
  signal: new AbortController().signal,
  ...extra,
});

async function collect(stream: AsyncIterable<LocalChunk>): Promise<LocalChunk[]> {
  const chunks: LocalChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

const textOf = (chunks: LocalChunk[]) =>
  chunks.flatMap((chunk) => (chunk.type === 'text' ? [chunk.text] : [])).join('');

/** A generation read one chunk at a time, stopped by its own controller. */
function open(extra: Partial<LocalGeneration> = {}) {
  const stop = new AbortController();
  const iterator = engine.generate(ask({ signal: stop.signal, ...extra }))[Symbol.asyncIterator]();
  return {
    stop,
    next: async () => (await iterator.next()).value as LocalChunk | undefined,
    /** Reads until a chunk of `type` comes (answers it), or the end (undefined). */
    async until(type: LocalChunk['type']) {
      for (;;) {
        const { value, done } = await iterator.next();
        if (done) return undefined;
        if (value.type === type) return value;
      }
    },
    rest: async () => {
      const chunks: LocalChunk[] = [];
      for (;;) {
        const { value, done } = await iterator.next();
        if (done) return chunks;
        chunks.push(value);
      }
    },
  };
}

describe('the local model engine, on a tiny GGUF model', () => {
  it('loads the model on first use, saying the request waits meanwhile, and streams its text and counts', async () => {
    const chunks = await collect(engine.generate(ask({ maxTokens: 12 })));
    expect(chunks.slice(0, 2)).toEqual([
      { type: 'queued', position: 1 },
      { type: 'queued', position: 0 },
    ]);
    expect(chunks[2]).toMatchObject({ type: 'text' });
    expect(textOf(chunks).length).toBeGreaterThan(0);
    const usage = chunks[chunks.length - 1];
    expect(usage).toMatchObject({ type: 'usage', outputTokens: 12, finishReason: 'length' });
    expect((usage as { inputTokens: number }).inputTokens).toBeGreaterThan(10);
    expect(engine.state()).toMatchObject({ model: path.join(dir, 'tiny.gguf'), running: 0, waiting: 0 });
  });

  it('honours the max-token limit and the same seed gives the same text', async () => {
    const one = await collect(engine.generate(ask({ maxTokens: 5, temperature: 0.8, seed: 42 })));
    expect(one[0]).toMatchObject({ type: 'text' }); // loaded and free: no wait
    const two = await collect(engine.generate(ask({ maxTokens: 5, temperature: 0.8, seed: 42 })));
    expect(one[one.length - 1]).toMatchObject({ type: 'usage', outputTokens: 5, finishReason: 'length' });
    expect(textOf(one)).toBe(textOf(two));
  });

  it('stops within a second of its signal', async () => {
    const generation = open();
    expect(await generation.until('text')).toBeDefined();
    const stopped = Date.now();
    generation.stop.abort(new Error('the person stopped'));
    await expect(generation.rest()).rejects.toThrow('the person stopped');
    expect(Date.now() - stopped).toBeLessThan(1_000);
    await eventually(() => engine.state().running === 0, { what: 'the generation ended' });
  });

  it('lines up a third request, tells it its place, and runs it when a sequence is free', async () => {
    const first = open();
    const second = open();
    await Promise.all([first.until('text'), second.until('text')]);
    const third = open({ maxTokens: 4 });
    expect(await third.next()).toEqual({ type: 'queued', position: 1 });
    expect(engine.state()).toMatchObject({ running: 2, waiting: 1 });
    first.stop.abort(new Error('done with it'));
    expect(await third.next()).toEqual({ type: 'queued', position: 0 });
    const rest = await third.rest();
    expect(textOf(rest).length).toBeGreaterThan(0);
    expect(rest[rest.length - 1]).toMatchObject({ type: 'usage', outputTokens: 4 });
    second.stop.abort();
    await first.rest().catch(() => undefined);
    await second.rest().catch(() => undefined);
  });

  it('refuses one request more than its queue holds at once, and moves the others up when one leaves', async () => {
    const running = [open(), open()];
    await Promise.all(running.map((r) => r.until('text')));
    const waiting = [open({ maxTokens: 2 }), open({ maxTokens: 2 })];
    expect(await waiting[0]!.next()).toEqual({ type: 'queued', position: 1 });
    expect(await waiting[1]!.next()).toEqual({ type: 'queued', position: 2 });
    const started = Date.now();
    await expect(collect(engine.generate(ask()))).rejects.toMatchObject({ code: 'queue_full' });
    expect(Date.now() - started).toBeLessThan(100);
    waiting[0]!.stop.abort(new Error('changed my mind'));
    await expect(waiting[0]!.rest()).rejects.toThrow('changed my mind');
    expect(await waiting[1]!.next()).toEqual({ type: 'queued', position: 1 });
    for (const r of running) r.stop.abort();
    await Promise.all(running.map((r) => r.rest().catch(() => undefined)));
    const rest = await waiting[1]!.rest();
    expect(rest[0]).toEqual({ type: 'queued', position: 0 });
    expect(rest[rest.length - 1]).toMatchObject({ type: 'usage', outputTokens: 2 });
  });

  it('swaps to another model file, one without a chat template, once the running replies end', async () => {
    const chunks = await collect(engine.generate(ask({ model: 'plain.gguf', maxTokens: 6 })));
    expect(textOf(chunks).length).toBeGreaterThan(0);
    expect(engine.state().model).toBe(path.join(dir, 'plain.gguf'));
    await engine.warm('tiny.gguf');
    expect(engine.state().model).toBe(path.join(dir, 'tiny.gguf'));
  });

  it('refuses a missing file, a name that leaves the models folder, and a file over the size limit', async () => {
    await expect(collect(engine.generate(ask({ model: 'missing.gguf' })))).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(collect(engine.generate(ask({ model: '../tiny.gguf' })))).rejects.toMatchObject({
      code: 'bad_name',
    });
    const small = new LocalModelEngine({ modelsDir: dir, maxModelBytes: 1_000, logger });
    await expect(collect(small.generate(ask()))).rejects.toMatchObject({ code: 'too_large' });
    await small.close();
  });
});
