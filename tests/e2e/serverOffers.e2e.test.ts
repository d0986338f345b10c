import type { Browser, Page } from 'playwright-core';
import { seriousAxeViolations } from '../support/axe';
import { DESKTOP_VIEWPORT, TestContexts, launchBrowser } from '../support/browser';
import { FakeOpenAI, fakeProviderEnv } from '../support/fakeOpenAI';
import { FakeSpeechProvider } from '../support/fakeSpeechProvider';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { ChatPage } from './pages/ChatPage';
import { NavBar } from './pages/NavBar';
import { signUpToChat } from './pages/people';
import { PricingPage } from './pages/PricingPage';
import { PHONE_VIEWPORT, sidewaysOverflow } from './pages/screens';

// The pricing page and the chat's upgrade notes say which Pro and Enterprise features this server cannot deliver now
// (GET /api/chat/capabilities and /api/voice/status): first on a server without any AI provider, then on one with a
// provider that sees images and a speech-to-text provider, where nothing is missing.

const IMAGES = 'Images in messages — not on this server yet: it needs an AI provider that sees images';
const VOICE_MESSAGES = 'Voice messages (speech to text) — not on this server yet';
const DOCUMENTS = 'Answers about your documents — quoted from the document until an AI provider is connected';
const NOTES = 'This server answers from built-in notes until its operator connects an AI provider.';

let browser: Browser;
/** Launched once for the file, while the first platform starts. */
let launching: Promise<Browser>;
const contexts = new TestContexts();

beforeAll(() => {
  launching = launchBrowser();
});

afterAll(async () => {
  await (await launching.catch(() => undefined))?.close();
});

afterEach(() => contexts.closeAll());

/** Opens /pricing and waits until the plans are shown and the server has said what it offers. */
async function openPricing(page: Page, baseUrl: string): Promise<PricingPage> {
  const pricing = new PricingPage(page);
  await pricing.open(baseUrl);
  await page.locator('[data-server-state="settled"]').waitFor();
  return pricing;
}

/** The lines of a plan's card that say what this server cannot deliver now. */
const gapLines = (pricing: PricingPage, plan: 'free' | 'pro' | 'enterprise') =>
  pricing.plan(plan).locator('[data-gap]').allTextContents();

describe('on a server without an AI provider', () => {
  let platform: RunningPlatform;

  beforeAll(async () => {
    [platform, browser] = await Promise.all([startPlatform({ CHAT_OFFLINE_WORD_DELAY_MS: '5' }), launching]);
  }, 120_000);

  afterAll(async () => {
    await platform?.stop();
  });

  it.each([
    ['1280 px', 'light', DESKTOP_VIEWPORT],
    ['1280 px', 'dark', DESKTOP_VIEWPORT],
    ['375 px', 'light', PHONE_VIEWPORT],
    ['375 px', 'dark', PHONE_VIEWPORT],
  ] as const)(
    'the pricing page at %s (%s) says images and voice messages are not offered here yet',
    async (_width, colorScheme, viewport) => {
      const page = await contexts.newPage(browser, { viewport, colorScheme });
      const pricing = await openPricing(page, platform.baseUrl);
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(
        colorScheme === 'dark',
      );

      for (const plan of ['pro', 'enterprise'] as const) {
        const card = pricing.plan(plan);
        await card.getByRole('heading', { name: 'On this server now', level: 3 }).waitFor();
        expect(await gapLines(pricing, plan)).toEqual([IMAGES, DOCUMENTS, VOICE_MESSAGES]);
        // Said before choosing: the plan's button is described by the same lines.
        expect(await pricing.planButton(plan).getAttribute('aria-describedby')).toBe(`plan-${plan}-server`);
      }
      // Free promises none of these; what works shows as before.
      expect(await gapLines(pricing, 'free')).toEqual([]);
      await pricing.plan('pro').getByText('Voice conversations (speech in and out)').waitFor();
      expect(await page.getByTestId('server-notes').textContent()).toBe(NOTES);
      expect(await sidewaysOverflow(page)).toBe(0);
      expect(await seriousAxeViolations(page)).toEqual([]);
    },
  );

  it('shows what is missing before a Pro checkout, and Not now leaves the plan as it was', async () => {
    const page = await contexts.newPage(browser);
    await signUpToChat(page, platform.baseUrl);

    // The chat's notes for a Free person promise only what this server delivers.
    const chat = new ChatPage(page);
    const voiceNote = chat.voiceUpgrade();
    await page.locator('[data-testid="voice-upgrade"][data-offered="partly"]').waitFor();
    expect(await voiceNote.textContent()).toBe(
      'Replies read aloud are part of the Pro plan. Voice messages are not on this server yet. See plans and upgrade',
    );
    await chat.attachLocked().click();
    await chat.attachmentsUpgrade().getByText('Images are not on this server yet.', { exact: false }).waitFor();
    expect(await chat.attachmentsUpgrade().textContent()).toContain(
      'until an AI provider is connected, answers about them quote the document',
    );

    const pricing = await openPricing(page, platform.baseUrl);
    await pricing.planButton('pro').click();
    const confirm = pricing.upgradeConfirm();
    await confirm.getByRole('heading', { name: 'Before you pay' }).waitFor();
    expect(await confirm.locator('[data-gap]').allTextContents()).toEqual([IMAGES, DOCUMENTS, VOICE_MESSAGES]);
    await confirm.getByText(NOTES).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Not now: no checkout, still Free.
    await confirm.getByRole('button', { name: 'Not now' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await pricing.planButton('pro').textContent()).toBe('Upgrade to Pro');
    expect(await new NavBar(page).tierBadge().textContent()).toBe('Free');

    // Continue to payment: the checkout goes on as before.
    await pricing.upgrade('pro');
    await page.waitForURL(/\/billing\/success\?reference=/);
    await page.getByTestId('billing-plan').getByText('Pro').waitFor();
  });
});

describe('on a server with an AI provider that sees images, and speech to text', () => {
  let platform: RunningPlatform;
  const provider = new FakeOpenAI();
  const speech = new FakeSpeechProvider({ heard: 'Hello', transcriptionDelayMs: 0 });

  beforeAll(async () => {
    await Promise.all([provider.start(), speech.start()]);
    [platform, browser] = await Promise.all([
      startPlatform({
        ...fakeProviderEnv(provider),
        FAKE_VISION: 'true',
        OPENAI_API_KEY: 'sk-fake-speech',
        OPENAI_BASE_URL: speech.baseURL,
      }),
      launching,
    ]);
  }, 120_000);

  afterAll(async () => {
    await platform?.stop();
    await Promise.all([provider.stop(), speech.stop()]);
  });

  it('shows the plans as they are, and a Pro upgrade goes straight to the checkout', async () => {
    // The server says so itself: otherwise the lines below would be missing for another reason.
    const ask = async (path: string) => (await fetch(`${platform.baseUrl}${path}`)).json();
    expect(await ask('/api/chat/capabilities')).toMatchObject({ aiConnected: true, images: true, documents: 'ai' });
    expect(await ask('/api/voice/status')).toMatchObject({ transcription: { status: 'operational' } });

    const page = await contexts.newPage(browser);
    await signUpToChat(page, platform.baseUrl);
    const chat = new ChatPage(page);
    await page.locator('[data-testid="voice-upgrade"][data-offered="all"]').waitFor();
    expect(await chat.voiceUpgrade().textContent()).toBe('Voice is part of the Pro plan. See plans and upgrade');

    const pricing = await openPricing(page, platform.baseUrl);
    for (const plan of ['free', 'pro', 'enterprise'] as const) expect(await gapLines(pricing, plan)).toEqual([]);
    expect(await page.getByRole('heading', { name: 'On this server now' }).count()).toBe(0);
    expect(await page.getByTestId('server-notes').count()).toBe(0);
    expect(await pricing.planButton('pro').getAttribute('aria-describedby')).toBeNull();

    await pricing.planButton('pro').click();
    await pricing.plan('pro').getByRole('button', { name: 'Processing...' }).waitFor();
    expect(await pricing.upgradeConfirm().count()).toBe(0);
    await page.waitForURL(/\/billing\/success\?reference=/);
  });
});
