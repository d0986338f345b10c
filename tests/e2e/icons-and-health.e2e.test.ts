import { eventually } from '@kasa/test-kit';
import type { Browser, Page } from 'playwright-core';
import { TestContexts, launchBrowser } from '../support/browser';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { ChatPage } from './pages/ChatPage';
import { signUpToChat } from './pages/people';
import { DeveloperPage } from './pages/DeveloperPage';
import { pictographsOn } from './pages/pictographs';

/**
 * What the web app shows on the platform's own (offline) defaults: SVG icons and no emoji on the main pages, the
 * chat sidebar's health list in the terms of what people use, and the portal telling operators that no AI
 * provider is configured. At desktop and phone widths.
 */
let platform: RunningPlatform;
let browser: Browser;
const contexts = new TestContexts();

const WIDTHS = [
  ['1280 px', { width: 1280, height: 800 }],
  ['375 px', { width: 375, height: 812 }],
] as const;

beforeAll(async () => {
  [platform, browser] = await Promise.all([startPlatform(), launchBrowser()]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
});

afterEach(() => contexts.closeAll());

async function signedInPage(viewport: { width: number; height: number }): Promise<Page> {
  const page = await contexts.newPage(browser, { viewport });
  await signUpToChat(page, platform.baseUrl);
  return page;
}

/** The chat sidebar, opened first where it folds away (phones). */
async function openSidebar(page: Page, chat: ChatPage) {
  await chat.app().waitFor();
  if ((await chat.sidebarToggle().isVisible()) && !(await chat.sidebar().isVisible()))
    await chat.sidebarToggle().click();
  await chat.sidebar().waitFor();
}

describe.each(WIDTHS)('at %s', (_name, viewport) => {
  it('shows no emoji pictograph on /, /chat and /developer, and draws persona avatars as SVG', async () => {
    const page = await signedInPage(viewport);
    const chat = new ChatPage(page);

    await chat.greeting().waitFor();
    const avatars = page.getByTestId('persona-avatar');
    // The personas render in more than one commit (seen: 2 of them at the first one on a busy machine).
    await eventually(async () => (await avatars.count()) >= 6, {
      timeoutMs: 15_000,
      what: 'six persona avatars',
    });
    expect(await page.locator('[data-testid="persona-avatar"] svg').count()).toBe(await avatars.count());
    await openSidebar(page, chat);
    expect({ page: '/chat', pictographs: await pictographsOn(page) }).toEqual({ page: '/chat', pictographs: [] });

    await page.goto(platform.baseUrl);
    await page.getByRole('heading', { name: 'Your Voice. Your AI. Your World.' }).waitFor();
    expect({ page: '/', pictographs: await pictographsOn(page) }).toEqual({ page: '/', pictographs: [] });

    const portal = new DeveloperPage(page);
    await portal.open(platform.baseUrl);
    await portal.overviewPersonas().first().waitFor();
    expect({ page: '/developer', pictographs: await pictographsOn(page) }).toEqual({
      page: '/developer',
      pictographs: [],
    });
  });

  it('lists Voice, Video, Translation, Maps & Geo and the AI providers in the chat sidebar, from real signals', async () => {
    const page = await signedInPage(viewport);
    const chat = new ChatPage(page);
    await openSidebar(page, chat);
    const list = page.getByTestId('service-health').getByRole('listitem');
    await list.first().waitFor();
    const names = await list.evaluateAll((items) => items.map((li) => li.firstElementChild?.textContent ?? ''));
    expect(names).toEqual(['Voice Service', 'Video Service', 'Translation', 'Maps & Geo', 'AI providers']);
    expect(await page.getByTestId('service-health').innerText()).not.toMatch(/Accounts|Status\b|Chat\b/);

    // On the offline defaults: eSpeak NG speaks, translation and answers lack an AI provider. Right after the
    // platform starts, voice's first heartbeats may still be on their way: the list refreshes until they arrive.
    let shown = '';
    await eventually(
      async () => {
        await page.reload();
        await openSidebar(page, chat);
        await chat.serviceHealth('ai').waitFor();
        shown = await page.getByTestId('service-health').innerText();
        return (
          /Voice Service\s*healthy/.test(shown) &&
          /AI providers\s*degraded/.test(shown) &&
          /Translation\s*degraded/.test(shown)
        );
      },
      {
        timeoutMs: 60_000,
        intervalMs: 2_000,
        what: 'voice healthy, translation and AI providers degraded',
        context: () => shown,
      },
    );
  }, 90_000);
});

it('tells operators on the portal’s Services tab that no AI provider is configured', async () => {
  const page = await signedInPage(WIDTHS[0][1]);
  const portal = new DeveloperPage(page);
  await portal.open(platform.baseUrl, 'services');
  await eventually(
    async () => {
      const card = page.getByTestId('service-ai-providers');
      if ((await card.count()) === 0) {
        await portal.panel().getByRole('button', { name: 'Refresh' }).click();
        return false;
      }
      return (await card.innerText()).includes('no AI provider configured');
    },
    { timeoutMs: 45_000, intervalMs: 2_000 },
  );
  const card = page.getByTestId('service-ai-providers');
  await card.getByRole('heading', { name: 'AI providers' }).waitFor();
  expect(await card.locator('[data-state]').getAttribute('data-state')).toBe('degraded');
}, 90_000);
