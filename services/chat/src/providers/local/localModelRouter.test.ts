import { ServiceMetrics, createLogger, createServiceApp } from '@kasa/service-kit';
import { eventually, tinyGguf } from '@kasa/test-kit';
import type { Express } from 'express';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createLocalModelRouter } from './localModelRouter';
import { ModelDownloader } from './modelDownloader';

const logger = createLogger({ service: 'chat-test', version: 'test', level: 'silent' });
const MODEL = tinyGguf();

let files: http.Server;
let base: string;
let dir: string;
let downloader: ModelDownloader;
let app: Express;

beforeAll(async () => {
  // Serves the tiny model slowly (40 pieces, 25 ms apart), so that a download is still running when a test looks.
  files = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-length': String(MODEL.length) });
    const size = Math.ceil(MODEL.length / 40);
    let sent = 0;
    const next = () => {
      if (res.destroyed) return;
      const piece = MODEL.subarray(sent, sent + size);
      sent += piece.length;
      if (sent >= MODEL.length) return res.end(piece);
      res.write(piece);
      setTimeout(next, 25);
    };
    next();
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});
afterAll(async () => {
  files.closeAllConnections();
  await new Promise((resolve) => files.close(resolve));
});
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'kasa-models-'));
  downloader = new ModelDownloader({
    modelsDir: dir,
    maxBytes: 10 * 1024 * 1024,
    defaultUrl: `${base}/default/kasa-local.gguf`,
    logger,
  });
  app = createServiceApp({
    logger,
    metrics: new ServiceMetrics('chat-test'),
    readiness: {},
    routes: createLocalModelRouter({ downloader }),
  });
});
afterEach(async () => {
  await downloader.cancel();
  await rm(dir, { recursive: true, force: true });
});

describe('the local model routes', () => {
  it('answers the status of the default model file before anything is fetched', async () => {
    const res = await request(app).get('/api/admin/local-model').expect(200);
    expect(res.body).toEqual({
      state: 'absent',
      url: `${base}/default/kasa-local.gguf`,
      file: 'kasa-local.gguf',
      bytes: 0,
    });
  });

  it('starts a download (202), refuses a second one (409), and cancels it (204)', async () => {
    const url = `${base}/models/tiny.gguf`;
    const started = await request(app).post('/api/admin/local-model').send({ url }).expect(202);
    expect(started.body).toMatchObject({ state: 'downloading', url, file: 'tiny.gguf' });
    const again = await request(app).post('/api/admin/local-model').send({}).expect(409);
    expect(again.body).toMatchObject({ code: expect.any(String), message: expect.stringMatching(/already running/) });
    await eventually(async () => {
      const { body } = await request(app).get('/api/admin/local-model');
      return body.bytes > 0 && body.totalBytes === MODEL.length;
    });
    await request(app).delete('/api/admin/local-model/download').expect(204);
    const after = await request(app).get('/api/admin/local-model').expect(200);
    expect(after.body).toMatchObject({ state: 'absent', url, file: 'tiny.gguf' });
    expect(after.body.bytes).toBeGreaterThan(0);
  });

  it('fetches the default model file when no URL is given, until it is ready', async () => {
    await request(app).post('/api/admin/local-model').expect(202);
    const ready = await eventually(async () => {
      const { body } = await request(app).get('/api/admin/local-model');
      return body.state === 'ready' ? body : undefined;
    });
    expect(ready).toMatchObject({ file: 'kasa-local.gguf', bytes: MODEL.length, totalBytes: MODEL.length });
  });

  it('answers 400 to a body that is not a download request', async () => {
    const bad = await request(app).post('/api/admin/local-model').send({ url: 'ftp://example.org/model.gguf' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^url:/);
    const unknown = await request(app)
      .post('/api/admin/local-model')
      .send({ url: `${base}/a.gguf`, force: true });
    expect(unknown.status).toBe(400);
    const nameless = await request(app)
      .post('/api/admin/local-model')
      .send({ url: `${base}/` });
    expect(nameless.status).toBe(400);
    expect(nameless.body.message).toMatch(/file name/);
  });
});
