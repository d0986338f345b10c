/**
 * Web delivery benchmark (ARCHITECTURE.md, "Budgets", web): the JavaScript a first visit downloads, in bytes
 * actually transferred (compressed, as the gateway serves the build's brotli or gzip copies), for `/` signed out and
 * `/chat` signed in, against the real platform (services and gateway from their built output, the embedded
 * database) in headless Chromium. Budget ≤ 200 KB each. The largest contentful paint of the same visits is
 * reported beside it (budget of `/chat` signed in ≤ 1.5 s; `/` is measured by tests/bench/web.js).
 *
 * Bytes come from the DevTools protocol: `Network.loadingFinished.encodedDataLength` of every script response (the
 * response's headers and its body as received, before decoding), the figure DevTools shows as "transferred".
 * Each visit is in a fresh browser context (empty cache), like a first visit.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { ChatClient } from '../support/chatClient';
import { startPlatform, type RunningPlatform } from '../support/platform';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startEmbeddedMongo } = require('../../scripts/embedded-mongo') as {
  startEmbeddedMongo: (o: { dataDir: string }) => Promise<{ url: string; stop: () => Promise<void> }>;
};

/** First-load JavaScript on the wire, per page (ARCHITECTURE.md). */
export const FIRST_LOAD_WIRE_BUDGET = 200 * 1024;

export interface WireFile {
  /** Path (and query) of the script. */
  url: string;
  /** Content-Encoding it came with: br, gzip or identity. */
  encoding: string;
  /** Bytes transferred: headers plus the body as sent. */
  wireBytes: number;
  /** The body once decoded. */
  decodedBytes: number;
}

export interface FirstLoad {
  path: string;
  files: WireFile[];
  /** Sum of `wireBytes` over every script of the visit. */
  wireBytes: number;
  decodedBytes: number;
  /** Largest contentful paint of the visit, ms after navigation start. */
  lcpMs: number;
}

interface PendingScript {
  url: string;
  encoding: string;
}

/**
 * Opens `baseUrl + path` in a fresh context of `browser` (empty cache; `token` stored first, as a signed-in person's
 * browser holds it), waits for `ready`, and returns every script the visit transferred with its bytes on the wire.
 */
export async function measureFirstLoad(
  browser: Browser,
  baseUrl: string,
  pagePath: string,
  options: { token?: string; ready: (page: Page) => Promise<unknown> },
): Promise<FirstLoad> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  try {
    if (options.token) {
      await context.addInitScript((token) => localStorage.setItem('kasa_auth_token', token), options.token);
    }
    await context.addInitScript(() => {
      (globalThis as unknown as { __kasaLcp: number }).__kasaLcp = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries())
          (globalThis as unknown as { __kasaLcp: number }).__kasaLcp = entry.startTime;
      }).observe({ type: 'largest-contentful-paint', buffered: true });
    });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const scripts = new Map<string, PendingScript>();
    const files: WireFile[] = [];
    const unfinished = new Set<string>();
    cdp.on('Network.responseReceived', (event) => {
      const { response, type, requestId } = event;
      if (type !== 'Script' && !/javascript/.test(response.mimeType)) return;
      const headers = Object.fromEntries(Object.entries(response.headers).map(([k, v]) => [k.toLowerCase(), v]));
      const url = new URL(response.url);
      scripts.set(requestId, {
        url: url.pathname + url.search,
        encoding: String(headers['content-encoding'] ?? 'identity'),
      });
      unfinished.add(requestId);
    });
    cdp.on('Network.loadingFinished', (event) => {
      const script = scripts.get(event.requestId);
      if (!script) return;
      unfinished.delete(event.requestId);
      files.push({ ...script, wireBytes: event.encodedDataLength, decodedBytes: 0 });
    });
    cdp.on('Network.loadingFailed', (event) => unfinished.delete(event.requestId));
    await cdp.send('Network.enable');

    await page.goto(`${baseUrl}${pagePath}`, { waitUntil: 'networkidle' });
    await options.ready(page);
    const deadline = Date.now() + 10_000;
    while (unfinished.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));

    // Decoded sizes from the page's own resource timings (same origin, so they are exposed).
    const decoded = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => e as PerformanceResourceTiming)
        .map((e) => ({ url: new URL(e.name).pathname + new URL(e.name).search, bytes: e.decodedBodySize })),
    );
    for (const file of files) file.decodedBytes = decoded.find((d) => d.url === file.url)?.bytes ?? 0;
    const lcpMs = await page.evaluate(() => (globalThis as unknown as { __kasaLcp: number }).__kasaLcp);
    return {
      path: pagePath,
      files,
      wireBytes: files.reduce((sum, f) => sum + f.wireBytes, 0),
      decodedBytes: files.reduce((sum, f) => sum + f.decodedBytes, 0),
      lcpMs: Math.round(lcpMs),
    };
  } finally {
    await context.close();
  }
}

/** What a signed-out `/` and a signed-in `/chat` show once rendered. */
export const READY = {
  home: (page: Page) =>
    page.getByRole('heading', { name: 'Your Voice. Your AI. Your World.' }).waitFor({ timeout: 15_000 }),
  chat: (page: Page) => page.getByRole('textbox', { name: /^Message / }).waitFor({ timeout: 15_000 }),
};

/** One line per file, largest first, for a report. */
export function describeFirstLoad(load: FirstLoad): string {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  return [
    `${load.path}: ${kb(load.wireBytes)} of JavaScript on the wire (${kb(load.decodedBytes)} decoded) in ${load.files.length} scripts`,
    ...load.files
      .slice()
      .sort((a, b) => b.wireBytes - a.wireBytes)
      .map(
        (f) => `  ${kb(f.wireBytes).padStart(9)} ${f.encoding.padEnd(8)} ${kb(f.decodedBytes).padStart(9)}  ${f.url}`,
      ),
  ].join('\n');
}

export interface DeliveryBenchResult {
  home: FirstLoad;
  chat: FirstLoad;
}

export async function runDeliveryBench(): Promise<DeliveryBenchResult> {
  let mongo: { url: string; stop: () => Promise<void> } | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-bench-db-'));
  if (!process.env.MONGO_URL) {
    mongo = await startEmbeddedMongo({ dataDir });
    process.env.MONGO_URL = mongo.url;
  }
  let platform: RunningPlatform | undefined;
  let browser: Browser | undefined;
  try {
    platform = await startPlatform({ LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error' });
    browser = await launchBrowser();
    const client = new ChatClient(platform.baseUrl);
    const token = await client.signUp('bench');
    await client.dispatcher.close();
    const home = await measureFirstLoad(browser, platform.baseUrl, '/', { ready: READY.home });
    const chat = await measureFirstLoad(browser, platform.baseUrl, '/chat', { token, ready: READY.chat });
    if (process.env.BENCH_VERBOSE) console.log(`${describeFirstLoad(home)}\n${describeFirstLoad(chat)}`);
    return { home, chat };
  } finally {
    await browser?.close();
    await platform?.stop();
    await mongo?.stop();
    if (mongo) delete process.env.MONGO_URL;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
