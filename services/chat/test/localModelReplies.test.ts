import { ServiceMetrics, isDatabaseReady } from '@kasa/service-kit';
import { eventually, writeTinyGguf } from '@kasa/test-kit';
import type { Express } from 'express';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createApp } from '../src/app';
import { createChatComponents, type ChatComponents } from '../src/chatComponents';
import { readConfig } from '../src/config';
import { LocalModelEngine, type LocalGeneration } from '../src/providers/local/localModelEngine';
import { makePdf } from './attachmentFixtures';
import { LocalModelProvider } from '../src/providers/local/localModelProvider';
import { TestEnvironment, logger, parseSse, userHeaders } from './support';

const env = new TestEnvironment('localmodel');
const generations: LocalGeneration[] = [];
let dir: string;
let engine: LocalModelEngine;
let chat: ChatComponents;
let app: Express;
let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  await env.start();
  dir = await mkdtemp(path.join(os.tmpdir(), 'kasa-local-replies-'));
  await writeTinyGguf(path.join(dir, 'tiny.gguf'));
  // One sequence: a second reply waits for the first.
  engine = new LocalModelEngine({ modelsDir: dir, sequences: 1, queueLength: 4, threads: 1, logger });
  await engine.warm('tiny.gguf');
  const config = readConfig({
    CHAT_OFFLINE_WORD_DELAY_MS: '0',
    // Generous: a loaded machine may pause a reply of a few thousand tokens for a while.
    CHAT_PROVIDER_FIRST_TOKEN_TIMEOUT_MS: '10000',
    CHAT_PROVIDER_IDLE_TIMEOUT_MS: '10000',
    CHAT_PROVIDERS: 'local',
    LOCAL_MODEL: 'tiny.gguf',
  });
  const metrics = new ServiceMetrics('chat-test');
  chat = createChatComponents({
    db: env.db,
    bus: env.bus,
    logger,
    metrics,
    settings: config,
    // The real engine, with what it is asked to generate kept for the tests to read.
    localModels: (settings) =>
      new LocalModelProvider(settings, {
        generate: (generation) => {
          generations.push(generation);
          return engine.generate(generation);
        },
      }),
    operators: { isOperator: async () => false },
  });
  await chat.personas.seed();
  app = createApp({
    logger,
    metrics,
    readiness: { database: () => isDatabaseReady(env.db), broker: () => env.bus.isConnected() },
    isShuttingDown: () => false,
    ...chat,
    heartbeatMs: 15_000,
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  chat.chain.shutdown();
  await chat.attachmentProcessor.close();
  await engine.close();
  await env.stop();
  await rm(dir, { recursive: true, force: true });
});

type SseEvent = { event?: string; data?: unknown };

/** Sends a message with a streamed reply; `events` fills as they come, `ended` resolves with all of them. */
function streamReply(sessionId: string, headers: Record<string, string>, content: string) {
  const events: SseEvent[] = [];
  const req = http.request(`${baseUrl}/api/chat/sessions/${sessionId}/messages`, {
    method: 'POST',
    headers: { ...headers, accept: 'text/event-stream', 'content-type': 'application/json' },
  });
  req.on('error', () => undefined); // hanging up is part of some tests
  const ended = new Promise<SseEvent[]>((resolve) => {
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
        const complete = body.lastIndexOf('\n\n');
        if (complete < 0) return;
        const fresh = parseSse(body.slice(0, complete + 2)).filter((e) => e.event);
        events.push(...fresh);
        body = body.slice(complete + 2);
      });
      res.on('close', () => resolve(events));
    });
  });
  req.end(JSON.stringify({ role: 'user', content, type: 'text' }));
  return { events, ended, hangUp: () => req.destroy() };
}

async function newSession(headers: Record<string, string>): Promise<string> {
  const created = await request(server)
    .post('/api/chat/sessions')
    .set(headers)
    .send({ personaId: 'kasa', title: 'Local model' })
    .expect(201);
  return created.body.id as string;
}

describe('web chat replies from the local model', () => {
  it('tells a reply waiting for the local model its place in line, then streams it', async () => {
    const first = userHeaders('pro');
    const second = userHeaders('pro');
    const [firstSession, secondSession] = await Promise.all([newSession(first), newSession(second)]);

    const running = streamReply(firstSession, first, 'Tell me a long story.');
    await eventually(() => running.events.some((e) => e.event === 'token'), { what: 'the first reply streams' });
    const waiting = streamReply(secondSession, second, 'And one for me.');
    await eventually(() => waiting.events.some((e) => e.event === 'queued'), {
      what: 'the second reply is queued',
      context: () => JSON.stringify({ waiting: waiting.events.slice(0, 3), engine: engine.state() }),
    });
    running.hangUp(); // its turn ends: the next one's comes

    const events = await waiting.ended;
    const names = events.map((e) => e.event);
    expect(events.filter((e) => e.event === 'queued').map((e) => e.data)).toEqual([{ position: 1 }, { position: 0 }]);
    expect(names.indexOf('queued')).toBe(0);
    expect(names.lastIndexOf('queued')).toBeLessThan(names.indexOf('meta'));
    expect(names.indexOf('meta')).toBeLessThan(names.indexOf('token'));
    expect(names[names.length - 1]).toBe('done');
    expect(events.find((e) => e.event === 'meta')?.data).toMatchObject({ provider: 'local', model: 'tiny.gguf' });
    expect(events[events.length - 1]?.data).toMatchObject({ status: 'complete', provider: 'local' });
  });

  it('answers a question about an attached PDF from the document’s text', async () => {
    const headers = userHeaders('pro');
    const pdf = await request(server)
      .post('/api/chat/attachments?name=report.pdf')
      .set(headers)
      .set('content-type', 'application/octet-stream')
      .send(makePdf(['Cocoa exports rose.', 'The budget owner is Ama Mensah.']))
      .expect(201);
    const sessionId = await newSession(headers);
    const res = await request(server)
      .post(`/api/chat/sessions/${sessionId}/messages`)
      .set(headers)
      .send({ role: 'user', content: 'Who is the budget owner?', type: 'text', attachmentIds: [pdf.body.id] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ provider: 'local', model: 'tiny.gguf', status: 'complete' });
    // The model was given the document's text with the question (the tiny model's answer itself is gibberish).
    const prompt = JSON.stringify(generations.at(-1));
    expect(prompt).toContain('The budget owner is Ama Mensah.');
    expect(prompt).toContain('report.pdf');
    expect(prompt).toContain('Who is the budget owner?');
  });
});
