import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { startPlatform, type RunningPlatform } from '../support/platform';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

async function openLanding(platform: RunningPlatform): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(platform.baseUrl);
  await page.getByRole('heading', { name: 'Your Voice. Your AI. Your World.' }).waitFor();
  return page;
}

describe('the landing page with a working voice service', () => {
  let platform: RunningPlatform;
  beforeAll(async () => {
    platform = await startPlatform();
  }, 120_000);
  afterAll(async () => platform?.stop());

  it('has six feature cards, the three steps of How Kasa Works and the closing calls to action', async () => {
    const page = await openLanding(platform);
    try {
      const features = page.getByRole('region', { name: 'Everything you need to talk with AI' });
      expect(await features.getByRole('heading', { level: 3 }).count()).toBe(6);
      const how = page.getByRole('region', { name: 'How Kasa Works' });
      expect(await how.getByRole('listitem').count()).toBe(3);
      const closing = page.getByRole('region', { name: /Ready to hear Kasa/ });
      for (const name of ['Try Chat Interface', 'Try Developer Portal']) {
        expect(await closing.getByRole('link', { name }).getAttribute('href')).toBe('/welcome');
      }
    } finally {
      await page.context().close();
    }
  });

  it('speaks a sample sentence through the voice service', async () => {
    const page = await openLanding(platform);
    try {
      const demo = page.getByTestId('voice-demo');
      await demo.getByRole('button', { name: 'Play sample' }).waitFor();
      await demo.getByLabel('Voice').selectOption({ label: 'Swahili (sw)' });
      const synthesized = page.waitForResponse(
        (res) => res.url().endsWith('/api/voice/synthesize') && res.request().method() === 'POST',
      );
      const audioFetched = page.waitForResponse((res) => res.url().includes('/api/voice/audio/'));
      await demo.getByRole('button', { name: 'Play sample' }).click();
      const synthesis = await synthesized;
      expect(synthesis.status()).toBe(201);
      expect(JSON.parse(synthesis.request().postData()!)).toMatchObject({ language: 'sw' });
      const audio = await audioFetched;
      expect([200, 206]).toContain(audio.status());
      expect(audio.headers()['content-type']).toMatch(/^audio\//);
      await demo
        .getByTestId('voice-demo-status')
        .getByText(/Playing/)
        .waitFor();
    } finally {
      await page.context().close();
    }
  });
});

describe('the landing page without a speech engine', () => {
  let platform: RunningPlatform;
  beforeAll(async () => {
    // No engine at all: neither the system program nor the one from npm.
    platform = await startPlatform({ VOICE_ESPEAK_BIN: '/nonexistent/espeak-ng', VOICE_PACKAGED_ENGINES: 'false' });
  }, 120_000);
  afterAll(async () => platform?.stop());

  it('says the demo cannot speak instead of offering a button that fails', async () => {
    const page = await openLanding(platform);
    try {
      const demo = page.getByTestId('voice-demo');
      await demo.getByText(/cannot speak/).waitFor();
      expect(await demo.getByRole('button', { name: 'Play sample' }).count()).toBe(0);
    } finally {
      await page.context().close();
    }
  });
});
