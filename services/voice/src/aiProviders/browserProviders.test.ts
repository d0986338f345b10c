import type { ProviderSettings } from '@kasa/ai-providers';
import type { Logger } from '@kasa/service-kit';
import { eventually } from '@kasa/test-kit';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BrowserProviders } from './browserProviders';

// The chat service's `GET /internal/ai-providers`, answered as its contract says by a small local server: the edge
// of the voice service's world in these tests (the real chat service is exercised by the platform tests).
class ChatList {
  answer: { status: number; body?: unknown } | 'hang' = { status: 200, body: { version: 0, providers: [] } };
  requests = 0;
  private server?: http.Server;

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  serve(version: number, providers: unknown[]): void {
    this.answer = { status: 200, body: { version, providers } };
  }

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      this.requests++;
      if (req.url !== '/internal/ai-providers' || this.answer === 'hang') {
        if (this.answer !== 'hang') res.writeHead(404).end();
        return;
      }
      res.writeHead(this.answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(this.answer.body ?? { message: 'unavailable' }));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

const openai = {
  name: 'console-openai',
  kind: 'openai',
  apiKey: 'sk-browser',
  baseURL: 'https://proxy.example/v1',
  model: 'gpt-4o-mini',
  personaModels: {},
  extra: {},
  vision: true,
};

const fakeLogger = () => {
  const logger = { warn: jest.fn(), info: jest.fn(), error: jest.fn(), debug: jest.fn() };
  return logger as typeof logger & Logger;
};

const chat = new ChatList();
const running: BrowserProviders[] = [];
beforeAll(() => chat.start());
afterAll(() => chat.stop());
afterEach(() => running.splice(0).forEach((sync) => sync.stop()));

function follow(options: { intervalMs?: number; retryMs?: { initial: number; max: number }; timeoutMs?: number } = {}) {
  const applied: { providers: ProviderSettings[]; version: number }[] = [];
  const logger = fakeLogger();
  const sync = new BrowserProviders({
    chatServiceUrl: chat.url,
    logger,
    apply: (providers, version) => applied.push({ providers, version }),
    ...options,
  });
  running.push(sync);
  return { sync, applied, logger };
}

describe('BrowserProviders', () => {
  it('applies each new version once, with the keys, leaving out entries it does not understand', async () => {
    const { sync, applied } = follow();
    chat.serve(3, [openai, { ...openai, name: 'future', kind: 'a-kind-chat-learned-later' }]);
    expect(await sync.refresh()).toBe(true);
    expect(await sync.refresh()).toBe(true);
    expect(applied).toEqual([
      {
        version: 3,
        providers: [
          {
            name: 'console-openai',
            kind: 'openai',
            apiKey: 'sk-browser',
            baseURL: 'https://proxy.example/v1',
            model: 'gpt-4o-mini',
            personaModels: {},
            extra: {},
            vision: true,
          },
        ],
      },
    ]);
    chat.serve(4, []);
    await sync.refresh();
    expect(applied.map((a) => a.version)).toEqual([3, 4]);
    expect(applied[1]!.providers).toEqual([]);
    expect(sync.appliedVersion).toBe(4);
  });

  it('keeps what it has when chat fails or answers something else, warning once per run of failures', async () => {
    const { sync, applied, logger } = follow();
    chat.serve(7, [openai]);
    await sync.refresh();
    chat.answer = { status: 503 };
    expect(await sync.refresh()).toBe(false);
    chat.answer = { status: 200, body: { providers: 'not a list' } };
    expect(await sync.refresh()).toBe(false);
    expect(applied).toHaveLength(1);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(logger.warn.mock.calls)).not.toContain('sk-browser');
    chat.serve(7, [openai]);
    expect(await sync.refresh()).toBe(true);
    expect(logger.info).toHaveBeenCalledWith(expect.anything(), expect.stringMatching(/can be read again/));
    chat.answer = { status: 500 };
    await sync.refresh();
    expect(logger.warn).toHaveBeenCalledTimes(2);
    expect(applied).toHaveLength(1);
  });

  it('gives up on a fetch after its timeout', async () => {
    const { sync, applied } = follow({ timeoutMs: 200 });
    chat.answer = 'hang';
    const started = Date.now();
    expect(await sync.refresh()).toBe(false);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(applied).toEqual([]);
  });

  it('retries the first fetch until chat answers, then follows it on its backstop timer', async () => {
    chat.answer = { status: 503 };
    const before = chat.requests;
    const { sync, applied } = follow({ retryMs: { initial: 20, max: 40 }, intervalMs: 100 });
    sync.start();
    await eventually(() => chat.requests - before >= 3, { what: 'the first fetch retried' });
    expect(applied).toEqual([]);
    chat.serve(1, [openai]);
    await eventually(() => applied.length === 1, { what: 'version 1 applied' });
    chat.serve(2, []);
    await eventually(() => applied.length === 2, { what: 'version 2 applied by the backstop' });
    expect(applied[1]).toEqual({ version: 2, providers: [] });
  });

  it('folds calls made during a fetch into one more fetch after it', async () => {
    const { sync, applied } = follow();
    chat.serve(10, []);
    const before = chat.requests;
    const calls = [sync.refresh(), sync.refresh(), sync.refresh(), sync.refresh()];
    expect(await Promise.all(calls)).toEqual([true, true, true, true]);
    expect(chat.requests - before).toBe(2);
    expect(applied.map((a) => a.version)).toEqual([10]);
  });
});
