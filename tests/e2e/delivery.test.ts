/**
 * The web app as a browser receives it from the platform: the manifest and icons are linked and load, nothing the
 * page asks for is missing, and a first visit's JavaScript stays within its budget in bytes on the wire.
 */
import type { Browser, Page, Response } from 'playwright-core';
import { FIRST_LOAD_WIRE_BUDGET, READY, describeFirstLoad, measureFirstLoad } from '../bench/delivery';
import { launchBrowser } from '../support/browser';
import { ChatClient } from '../support/chatClient';
import { startPlatform, type RunningPlatform } from '../support/platform';

let browser: Browser;
let platform: RunningPlatform;

beforeAll(async () => {
  [browser, platform] = await Promise.all([launchBrowser(), startPlatform()]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
});

/** Opens `/` in a fresh context and collects every response that failed (4xx/5xx) while it loaded. */
async function openHome(): Promise<{ page: Page; failed: Response[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const failed: Response[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(response);
  });
  await page.goto(platform.baseUrl, { waitUntil: 'networkidle' });
  await READY.home(page);
  return { page, failed };
}

describe('the shell page', () => {
  it('links the web app manifest, which loads with its icons', async () => {
    const { page } = await openHome();
    try {
      const href = await page.locator('link[rel="manifest"]').getAttribute('href');
      expect(href).toBe('/manifest.webmanifest');
      const manifest = await page.evaluate(async (url) => {
        const res = await fetch(url);
        return { status: res.status, type: res.headers.get('content-type'), body: await res.json() };
      }, href!);
      expect(manifest.status).toBe(200);
      expect(manifest.type).toMatch(/^application\/manifest\+json/);
      expect(manifest.body).toMatchObject({ name: 'Kasa', start_url: '/', display: 'standalone' });
      const icons = (manifest.body as { icons: Array<{ src: string }> }).icons.map((icon) => icon.src);
      const statuses = await page.evaluate(
        (urls) => Promise.all(urls.map(async (url) => [url, (await fetch(url)).status] as const)),
        icons,
      );
      expect(statuses).toEqual(icons.map((url) => [url, 200]));
    } finally {
      await page.context().close();
    }
  });

  it('has a favicon that loads, and no request of the page answered with an error', async () => {
    const { page, failed } = await openHome();
    try {
      const icons = await page
        .locator('link[rel~="icon"], link[rel="apple-touch-icon"]')
        .evaluateAll((links) => links.map((link) => (link as HTMLLinkElement).href));
      expect(icons.map((url) => new URL(url).pathname)).toEqual(
        expect.arrayContaining(['/favicon.ico', '/favicon.svg']),
      );
      // Headless Chromium does not fetch favicons by itself: ask for each one, and for /favicon.ico, which
      // browsers request whatever the page says.
      const statuses = await page.evaluate(
        (urls) =>
          Promise.all(
            urls.map(async (url) => {
              const res = await fetch(url);
              return [new URL(url).pathname, res.status, res.headers.get('content-type')] as const;
            }),
          ),
        [...icons, new URL('/favicon.ico', platform.baseUrl).href],
      );
      for (const [pathname, status, type] of statuses) {
        expect({ pathname, status }).toEqual({ pathname, status: 200 });
        expect(type).toMatch(/^image\//);
      }
      expect(failed.map((response) => `${response.status()} ${response.url()}`)).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});

describe('first-load JavaScript on the wire', () => {
  it('stays within 200 KB for / and for /chat signed in, sent compressed', async () => {
    const client = new ChatClient(platform.baseUrl);
    const token = await client.signUp('delivery');
    await client.dispatcher.close();
    const home = await measureFirstLoad(browser, platform.baseUrl, '/', { ready: READY.home });
    const chat = await measureFirstLoad(browser, platform.baseUrl, '/chat', { token, ready: READY.chat });
    console.log(`${describeFirstLoad(home)}\n${describeFirstLoad(chat)}`);
    for (const load of [home, chat]) {
      expect(load.files.length).toBeGreaterThan(0);
      // Every script of any size comes compressed (a tiny one may not be worth a compressed copy).
      const uncompressed = load.files.filter((f) => f.encoding === 'identity' && f.decodedBytes > 2048);
      expect(uncompressed.map((f) => f.url)).toEqual([]);
      expect(load.wireBytes).toBeLessThanOrEqual(FIRST_LOAD_WIRE_BUDGET);
    }
    expect(chat.files.some((f) => f.url.startsWith('/remotes/chat/'))).toBe(true);
  });
});
