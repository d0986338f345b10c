import { createLogger } from '@kasa/service-kit';
import { eventually, tinyGguf } from '@kasa/test-kit';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_MODEL_URL, ModelDownloader, fileNameOf, type ModelDownloaderOptions } from './modelDownloader';

const logger = createLogger({
  service: 'chat-test',
  version: 'test',
  level: process.env.DEBUG_LOG ? 'debug' : 'silent',
});
const MODEL = tinyGguf();

/** What a test's server does with one request; `range` is the Range header it was sent. */
type Handler = (req: http.IncomingMessage, res: http.ServerResponse, range: string | undefined) => void;

let server: http.Server;
let base: string;
let handler: Handler;
const ranges: (string | undefined)[] = [];
let dir: string;
const downloaders: ModelDownloader[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    ranges.push(req.headers.range);
    handler(req, res, req.headers.range);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(async () => {
  ranges.length = 0;
  dir = await mkdtemp(path.join(os.tmpdir(), 'kasa-models-'));
});
afterEach(async () => {
  await Promise.all(downloaders.splice(0).map((d) => d.cancel()));
  await rm(dir, { recursive: true, force: true });
});

function downloader(options: Partial<ModelDownloaderOptions> = {}): ModelDownloader {
  const made = new ModelDownloader({ modelsDir: dir, maxBytes: 10 * 1024 * 1024, retryDelayMs: 0, logger, ...options });
  downloaders.push(made);
  return made;
}

/** Sends `body[from..]` in `pieces` writes `gapMs` apart (206 with Content-Range when `from` > 0). */
function serve(res: http.ServerResponse, body: Buffer, { from = 0, pieces = 1, gapMs = 0, cutAt = Infinity } = {}) {
  res.writeHead(from > 0 ? 206 : 200, {
    'content-type': 'application/octet-stream',
    'content-length': String(body.length - from),
    ...(from > 0 ? { 'content-range': `bytes ${from}-${body.length - 1}/${body.length}` } : {}),
  });
  const rest = body.subarray(from);
  const size = Math.ceil(rest.length / pieces);
  let sent = 0;
  const next = () => {
    if (res.destroyed) return; // the client went away
    if (from + sent >= cutAt) return res.destroy();
    const piece = rest.subarray(sent, Math.min(sent + size, rest.length, cutAt - from));
    sent += piece.length;
    // The last piece ends the response at once: the client may send its next request on this connection.
    if (sent >= rest.length) return res.end(piece);
    res.write(piece);
    setTimeout(next, gapMs);
  };
  next();
}

/** Honours `Range: bytes=N-` like a file server. */
const rangeOf = (range: string | undefined) => Number(/^bytes=(\d+)-$/.exec(range ?? '')?.[1] ?? 0);

describe('ModelDownloader', () => {
  it('names the default model file and reports it absent until it is fetched', async () => {
    expect(fileNameOf(DEFAULT_MODEL_URL)).toBe('qwen2.5-1.5b-instruct-q4_k_m.gguf');
    expect(await downloader().status()).toEqual({
      state: 'absent',
      url: DEFAULT_MODEL_URL,
      file: 'qwen2.5-1.5b-instruct-q4_k_m.gguf',
      bytes: 0,
    });
  });

  it('fetches a model file into the models folder, reporting its progress', async () => {
    handler = (_req, res) => serve(res, MODEL, { pieces: 8, gapMs: 40 });
    const models = downloader();
    const url = `${base}/models/tiny.gguf`;
    expect(await models.start(url)).toMatchObject({ state: 'downloading', url, file: 'tiny.gguf' });
    const midway = await eventually(async () => {
      const status = await models.status();
      return status.bytes > 0 && status.bytes < MODEL.length ? status : undefined;
    });
    expect(midway).toMatchObject({ state: 'downloading', totalBytes: MODEL.length });
    await models.settled();
    expect(await models.status()).toEqual({
      state: 'ready',
      url,
      file: 'tiny.gguf',
      bytes: MODEL.length,
      totalBytes: MODEL.length,
    });
    expect((await readFile(path.join(dir, 'tiny.gguf'))).equals(MODEL)).toBe(true);
    expect(await readdir(dir)).toEqual(['tiny.gguf']);
  });

  it('continues a cut download from where it stopped with a Range request', async () => {
    const cutAt = Math.floor(MODEL.length / 2);
    handler = (_req, res, range) =>
      range ? serve(res, MODEL, { from: rangeOf(range), pieces: 4 }) : serve(res, MODEL, { pieces: 16, cutAt });
    const models = downloader({ retries: 1 });
    await models.start(`${base}/tiny.gguf`);
    await models.settled();
    expect(await models.status()).toMatchObject({ state: 'ready', bytes: MODEL.length });
    expect((await readFile(path.join(dir, 'tiny.gguf'))).equals(MODEL)).toBe(true);
    expect(ranges).toHaveLength(2);
    expect(ranges[0]).toBeUndefined();
    const resumedFrom = rangeOf(ranges[1]);
    expect(resumedFrom).toBeGreaterThan(0);
    expect(resumedFrom).toBeLessThanOrEqual(cutAt);
  });

  it('keeps what it fetched when the download fails, and the next start resumes it', async () => {
    const cutAt = Math.floor(MODEL.length / 3);
    handler = (_req, res, range) =>
      range ? serve(res, MODEL, { from: rangeOf(range) }) : serve(res, MODEL, { pieces: 12, cutAt });
    const models = downloader({ retries: 0 });
    const url = `${base}/tiny.gguf`;
    await models.start(url);
    await models.settled();
    const failed = await models.status();
    expect(failed).toMatchObject({ state: 'failed', url, file: 'tiny.gguf' });
    expect(failed.bytes).toBeGreaterThan(0);
    await models.start();
    await models.settled();
    expect(ranges[1]).toBe(`bytes=${failed.bytes}-`);
    expect((await readFile(path.join(dir, 'tiny.gguf'))).equals(MODEL)).toBe(true);
  });

  it('starts over when the server ignores the Range request', async () => {
    await writeFile(path.join(dir, 'tiny.gguf.part'), MODEL.subarray(0, 1000));
    handler = (_req, res) => serve(res, MODEL);
    const models = downloader();
    await models.start(`${base}/tiny.gguf`);
    await models.settled();
    expect(ranges).toEqual(['bytes=1000-']);
    expect((await readFile(path.join(dir, 'tiny.gguf'))).equals(MODEL)).toBe(true);
  });

  it('refuses a file that is not a GGUF model, and leaves nothing behind', async () => {
    const page = Buffer.from('<!doctype html><title>Sign in</title>'.repeat(50));
    handler = (_req, res) => serve(res, page, { pieces: 4 });
    const models = downloader();
    await models.start(`${base}/tiny.gguf`);
    await models.settled();
    expect(await models.status()).toMatchObject({ state: 'failed', bytes: 0, error: expect.stringMatching(/GGUF/) });
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses a file over the size limit before fetching it', async () => {
    handler = (_req, res) => serve(res, MODEL, { pieces: 4, gapMs: 50 });
    const models = downloader({ maxBytes: 1_000 });
    await models.start(`${base}/tiny.gguf`);
    await models.settled();
    expect(await models.status()).toMatchObject({ state: 'failed', error: expect.stringMatching(/larger than/) });
    expect(await readdir(dir)).toEqual([]);
  });

  it('stops a download that makes no progress', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-length': String(MODEL.length) });
      res.write(MODEL.subarray(0, 100)); // and then nothing
    };
    const models = downloader({ stallMs: 200, retries: 0 });
    await models.start(`${base}/tiny.gguf`);
    await models.settled();
    expect(await models.status()).toMatchObject({ state: 'failed', bytes: 100, error: 'no progress for 200 ms' });
  });

  it('runs one download at a time, and a cancelled one keeps its partial file', async () => {
    handler = (_req, res) => serve(res, MODEL, { pieces: 50, gapMs: 40 });
    const models = downloader();
    await models.start(`${base}/tiny.gguf`);
    await expect(models.start(`${base}/other.gguf`)).rejects.toMatchObject({ status: 409 });
    await eventually(async () => (await models.status()).bytes > 0);
    await models.cancel();
    const status = await models.status();
    expect(status).toMatchObject({ state: 'absent', file: 'tiny.gguf' });
    expect(status.bytes).toBeGreaterThan(0);
    expect(await readdir(dir)).toEqual(['tiny.gguf.part']);
  });

  it('refuses a URL that does not end with a file name', async () => {
    await expect(downloader().start(`${base}/`)).rejects.toMatchObject({ status: 400 });
    await expect(downloader().start(`${base}/models/..%2F..%2Fetc`)).rejects.toMatchObject({ status: 400 });
  });
});
