/**
 * The web app as a browser receives it from the platform: the manifest and icons are linked and load, nothing the
 * page asks for is missing, a first visit's JavaScript stays within its budget in bytes on the wire, and the shell
 * and its remotes run on one copy of each shared module.
 */
import type { Browser, Page, Response } from 'playwright-core';
import { FIRST_LOAD_WIRE_BUDGET, READY, describeFirstLoad, measureFirstLoad } from '../bench/delivery';
import { launchBrowser } from '../support/browser';
import { ChatClient } from '../support/chatClient';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { DeveloperPage } from './pages/DeveloperPage';
import { NavBar } from './pages/NavBar';
import { signUpToChat } from './pages/people';

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

/** One version of a shared module as the page's federation runtime registered it. */
interface SharedVersion {
  version: string;
  /** The frontend whose copy it is. */
  from: string;
  loaded: boolean;
  /** The frontends that took this copy. */
  useIn: string[];
}

/**
 * The federation runtime's view of the page: which frontends have started (the shell and each remote loaded so
 * far) and, for each package, every version registered in their share scopes, with the frontends that took it. A
 * frontend that bundles a copy of its own is missing from `useIn` (and, at another version, adds an entry).
 */
function sharedModules(page: Page, packages: string[]) {
  return page.evaluate((names): { frontends: string[]; modules: Record<string, SharedVersion[]> } => {
    type Entry = { version: string; from: string; loaded?: boolean; lib?: unknown; useIn?: string[] };
    type ShareScopes = Record<string, Record<string, Record<string, Entry>>>;
    const federation = (
      globalThis as unknown as {
        __FEDERATION__?: { __SHARE__: Record<string, ShareScopes>; __INSTANCES__: Array<{ name: string }> };
      }
    ).__FEDERATION__;
    if (!federation) return { frontends: [], modules: {} };
    const modules: Record<string, SharedVersion[]> = {};
    for (const name of names) {
      // Each frontend's share scope map points at the same scope objects: count each entry once.
      const entries = new Set<Entry>();
      for (const scopes of Object.values(federation.__SHARE__))
        for (const scope of Object.values(scopes))
          for (const entry of Object.values(scope[name] ?? {})) entries.add(entry);
      modules[name] = [...entries].map((entry) => ({
        version: entry.version,
        from: entry.from,
        loaded: Boolean(entry.loaded || entry.lib),
        useIn: [...(entry.useIn ?? [])].sort(),
      }));
    }
    return { frontends: federation.__INSTANCES__.map((instance) => instance.name).sort(), modules };
  }, packages);
}

describe('shared modules', () => {
  it('loads one copy of @kasa/ui, react and react-dom, the shell’s, and the chat and developer remotes use it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await signUpToChat(page, platform.baseUrl);
      // Within the page (no reload), so the developer remote joins the runtime the chat remote is already in.
      await new NavBar(page).link('Developer').click();
      await new DeveloperPage(page).app().waitFor();

      // Who takes each one: the remotes render into the shell's React root, so only the shell calls react-dom.
      const users: Record<string, string[]> = {
        '@kasa/ui': ['shell', 'chat', 'developer'],
        react: ['shell', 'chat', 'developer'],
        'react-dom': ['shell'],
      };
      const { frontends, modules } = await sharedModules(page, Object.keys(users));
      expect(frontends).toEqual(expect.arrayContaining(['shell', 'chat', 'developer']));
      for (const [name, useIn] of Object.entries(users)) {
        // A second copy of @kasa/ui would give a remote's components a theme context of their own, not the shell's.
        const loaded = (modules[name] ?? []).filter((version) => version.loaded);
        expect({ name, loaded }).toEqual({
          name,
          loaded: [
            {
              version: expect.any(String),
              from: 'shell',
              loaded: true,
              useIn: expect.arrayContaining(useIn),
            },
          ],
        });
      }
    } finally {
      await context.close();
    }
  });
});
