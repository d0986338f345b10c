import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { closeAtTeardown } from './leftovers';

/** Debian's chromium, driven headless by playwright-core (no browser download). */
export function findChromium(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
    Boolean,
  ) as string[];
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found)
    throw new Error('Chromium was not found: install it with `apt-get install chromium` or set CHROMIUM_PATH');
  return found;
}

/** The shell's saved guidance state (frontends/shell/src/tours/guidanceState.ts): every tour already seen. */
const ALL_TOURS_SEEN = JSON.stringify({ hasSeenWelcome: true, completedTours: ['welcome', 'chat', 'developer'] });

/**
 * Debian's chromium, headless. Every new context speaks English (`locale: 'en-US'`, so the web app's language,
 * negotiated from the browser's languages, is English and tests can name its English text) unless the test asks for
 * another locale. The welcome tour starts by itself 2 s after a first visit to / and covers the page with its
 * backdrop, so by default every new context starts with the tours marked as seen (unless the page has its own
 * guidance state). Tests of the tours themselves pass `{ guidedTours: true }`. `args` adds command-line switches
 * (e.g. a fake microphone that plays a file: `--use-fake-device-for-media-stream`).
 */
export async function launchBrowser(options: { guidedTours?: boolean; args?: string[] } = {}): Promise<Browser> {
  const browser = await launchChromium(options.args);
  browser.once(
    'disconnected',
    closeAtTeardown('a browser', () => browser.close()),
  );
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args: Parameters<Browser['newContext']>) => {
    const [contextOptions, ...rest] = args;
    const context = await newContext({ locale: 'en-US', ...contextOptions }, ...rest);
    if (options.guidedTours) return context;
    await context.addInitScript((seen: string) => {
      if (!window.localStorage.getItem('kasa_guidance')) window.localStorage.setItem('kasa_guidance', seen);
    }, ALL_TOURS_SEEN);
    return context;
  };
  return browser;
}

function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: findChromium(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}

/** The size of a desktop window in the browser tests. */
export const DESKTOP_VIEWPORT = { width: 1280, height: 860 };

/**
 * The browser contexts a test file opens: each page in a context of its own (its own storage, so its own person),
 * a desktop window unless the options say otherwise, all closed after each test (`afterEach(() => contexts.closeAll())`).
 */
export class TestContexts {
  private readonly open: BrowserContext[] = [];

  async newPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
    const context = await browser.newContext({ viewport: DESKTOP_VIEWPORT, ...options });
    this.open.push(context);
    return context.newPage();
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.open.splice(0).map((context) => context.close()));
  }
}
