import { eventually } from '@kasa/test-kit';
import type { Browser, Page } from 'playwright-core';
import { seriousAxeViolations } from '../support/axe';
import { TestContexts, launchBrowser } from '../support/browser';
import { ChatClient } from '../support/chatClient';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { ChatPage } from './pages/ChatPage';
import { MessageVersions } from './pages/MessageVersions';
import { NAV_MENUS, NavBar } from './pages/NavBar';
import { insideWindow, onScreen, smallTargets } from './pages/screens';

// The chat holds the screen as an app does, on a phone and on a desktop, left to right and right to left, light and
// dark: the navigation bar, the conversation's header and the composer stay put while only the conversation (and the
// sidebar) scroll; no footer under it; controls big enough for a thumb on a phone; menus inside the window.

const SCREENS = [
  { name: '375×812', width: 375, height: 812, phone: true },
  { name: '1280×900', width: 1280, height: 900, phone: false },
];

const LOOKS = [
  { name: 'English, light', language: 'en', browserLocale: 'en-US', mode: 'light', dir: 'ltr' },
  { name: 'English, dark', language: 'en', browserLocale: 'en-US', mode: 'dark', dir: 'ltr' },
  { name: 'Arabic, light', language: 'ar', browserLocale: 'ar', mode: 'light', dir: 'rtl' },
  { name: 'Arabic, dark', language: 'ar', browserLocale: 'ar', mode: 'dark', dir: 'rtl' },
] as const;
type Look = (typeof LOOKS)[number];

/** A conversation's title in English, too long for the sidebar: cut short, it must keep its start in Arabic too. */
const LONG_TITLE = 'Planning a week of travel from Accra to Kumasi and Cape Coast with the family';
const TURNS = 8;

let platform: RunningPlatform;
let browser: Browser;
const contexts = new TestContexts();
let client: ChatClient;
let token: string;
let sessionId: string;

beforeAll(async () => {
  // The built-in offline provider answers every message, a word every 2 ms.
  [platform, browser] = await Promise.all([startPlatform({ CHAT_OFFLINE_WORD_DELAY_MS: '2' }), launchBrowser()]);
  // One person with a conversation much longer than any screen, held over the API.
  client = new ChatClient(platform.baseUrl);
  token = await client.signUp('ama');
  ({ id: sessionId } = await client.json<{ id: string }>('POST', '/api/chat/sessions', token, {
    personaId: 'kasa',
    title: LONG_TITLE,
  }));
  for (let turn = 1; turn <= TURNS; turn += 1) {
    // The last questions are short: their editor is taller than they are, and opens past the conversation's edge.
    const content =
      turn >= TURNS - 1
        ? `Question ${turn}: what is Kasa?`
        : `Question ${turn}: ${'Tell me about the personas and the languages Kasa speaks, and how voice works. '.repeat(3)}`;
    const outcome = await client.streamTurn(token, sessionId, { content });
    if (!outcome.done) throw new Error(`turn ${turn}: ${outcome.status} ${outcome.error ?? ''}`);
  }
}, 180_000);

afterAll(async () => {
  await client?.dispatcher.close();
  await browser?.close();
  await platform?.stop();
});

afterEach(() => contexts.closeAll());

/** Saves the person's interface language and theme on their account, as the settings would: every load follows them. */
async function saveLook(look: Look) {
  await client.json('PUT', '/api/auth/preferences/language', token, { language: look.language });
  await client.json('PUT', '/api/auth/preferences/theme', token, {
    mode: look.mode,
    colorScheme: 'electric',
    highContrast: false,
    animations: true,
    customSettings: { borderRadius: 8, spacing: 16, fontSize: 14 },
  });
}

/** Opens the long conversation, signed in, and waits until it shows in the look's language and theme. */
async function openConversation(screen: (typeof SCREENS)[number], look: Look): Promise<{ page: Page; chat: ChatPage }> {
  await saveLook(look);
  const page = await contexts.newPage(browser, {
    viewport: { width: screen.width, height: screen.height },
    locale: look.browserLocale,
    colorScheme: look.mode,
  });
  await page.addInitScript((value) => localStorage.setItem('kasa_auth_token', value), token);
  const chat = new ChatPage(page);
  await chat.open(platform.baseUrl, sessionId);
  await chat.app().waitFor();
  await eventually(async () => (await chat.replies().count()) === TURNS, { what: `the ${TURNS} replies shown` });
  await eventually(
    () =>
      page.evaluate(
        ({ dir, mode }) => document.documentElement.dir === dir && document.documentElement.classList.contains(mode),
        { dir: look.dir, mode: look.mode },
      ),
    { what: `the page in ${look.name}` },
  );
  await page.waitForLoadState('networkidle');
  return { page, chat };
}

/** How far the document itself can scroll, beyond the window (0 when only the page's own parts scroll). */
const documentOverflow = (page: Page) =>
  page.evaluate(() => document.scrollingElement!.scrollHeight - window.innerHeight);

describe.each(SCREENS)('the chat on a $name screen', (screen) => {
  it.each(LOOKS)(
    'holds the screen in $name: only the conversation scrolls, targets fit a thumb, menus stay in the window',
    async (look) => {
      const { page, chat } = await openConversation(screen, look);

      // The document fits the window, with no footer under the chat.
      expect(await documentOverflow(page)).toBeLessThanOrEqual(0);
      expect(await page.getByRole('contentinfo').count()).toBe(0);

      // The conversation is longer than its room: the wheel scrolls it, not the page, and the composer stays put.
      const messages = chat.messagesScroller();
      expect(await messages.evaluate((el) => el.scrollHeight > el.clientHeight + 200)).toBe(true);
      const composer = chat.composerBox();
      expect(await onScreen(composer)).toBe('on screen');
      const composerBox = await composer.boundingBox();
      const before = await messages.evaluate((el) => el.scrollTop);
      await messages.hover();
      await page.mouse.wheel(0, -600);
      await eventually(async () => (await messages.evaluate((el) => el.scrollTop)) < before, {
        what: 'the conversation scrolled up',
      });
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      expect(await composer.boundingBox()).toEqual(composerBox);
      expect(await onScreen(composer)).toBe('on screen');
      expect(await documentOverflow(page)).toBeLessThanOrEqual(0);

      // A thumb reaches every control in sight on a phone, with the drawer shut and open.
      if (screen.phone) {
        await messages.evaluate((el) => (el.scrollTop = el.scrollHeight));
        expect(await smallTargets(page.locator('body'))).toEqual([]);
        await chat.phoneToggle().click();
        await chat.sidebarPanel().waitFor();
        await chat
          .sidebarPanel()
          .evaluate((drawer) => Promise.all(drawer.getAnimations().map((animation) => animation.finished)));
        expect(await smallTargets(chat.sidebarPanel())).toEqual([]);
        await page.keyboard.press('Escape');
        await chat.sidebarPanel().waitFor({ state: 'hidden' });
      }

      // Every menu of the navigation bar opens inside the window, each of its entries too.
      const nav = new NavBar(page);
      for (const menu of NAV_MENUS) {
        const panel = await nav.openMenu(menu);
        expect({ menu, at: await insideWindow(panel) }).toEqual({ menu, at: 'inside' });
        if (menu === 'language-picker') {
          const choices = await nav.languageChoices().all();
          expect(choices).toHaveLength(9);
          for (const choice of choices) {
            const locale = await choice.getAttribute('data-locale');
            expect({ locale, at: await onScreen(choice) }).toEqual({ locale, at: 'on screen' });
          }
        }
        await page.keyboard.press('Escape');
        await panel.waitFor({ state: 'hidden' });
      }
      if (screen.phone) {
        await nav.foldToggle().click();
        expect(await insideWindow(nav.foldedMenu())).toBe('inside');
        expect(await documentOverflow(page)).toBeLessThanOrEqual(0);
        await nav.foldToggle().click();
        await nav.foldedMenu().waitFor({ state: 'hidden' });
      }

      expect(await seriousAxeViolations(page)).toEqual([]);
    },
    90_000,
  );
});

describe('the chat on a 375×812 phone', () => {
  it('keeps Save and Cancel in sight when a message near the composer is edited', async () => {
    const { page } = await openConversation(SCREENS[0]!, LOOKS[0]);
    const versions = new MessageVersions(page);
    // A short question whose Edit is at the bottom of the conversation's room, just above the composer.
    const question = versions.userMessage(TURNS - 2);
    await versions.editAction(question).evaluate((el) => el.scrollIntoView({ block: 'end' }));
    await versions.editAction(question).click();
    const actions = versions.editorActions(question);
    await actions.first().waitFor();
    expect(await actions.count()).toBe(2);
    for (const action of await actions.all()) {
      expect({ action: await action.innerText(), at: await onScreen(action) }).toEqual({
        action: await action.innerText(),
        at: 'on screen',
      });
    }
    expect(await smallTargets(question)).toEqual([]);
    expect(await documentOverflow(page)).toBeLessThanOrEqual(0);
    await page.keyboard.press('Escape');
    await versions.editor(question).waitFor({ state: 'detached' });
  }, 60_000);
});

describe('the chat on a 1280×900 screen', () => {
  it('shows all six personas, and an English title cut at its end in Arabic', async () => {
    const { chat } = await openConversation(SCREENS[1]!, LOOKS[2]);
    await chat.personaRow().getByTestId('persona-dokta').waitFor();
    const row = (await chat.personaRow().boundingBox())!;
    const personas = await chat.personaBoxes(chat.personaRow());
    expect(personas).toHaveLength(6);
    const clipped = personas.filter((box) => box.left < row.x - 0.5 || box.right > row.x + row.width + 0.5);
    expect(clipped).toEqual([]);

    // The title is longer than its row: what shows is its start, and the ellipsis is at its end (on the right).
    const cut = await chat.sessionTitleOf(sessionId).evaluate((span) => {
      const text = span.firstChild!;
      const range = document.createRange();
      range.setStart(text, 0);
      range.setEnd(text, 1);
      const first = range.getBoundingClientRect();
      const box = span.getBoundingClientRect();
      return {
        truncated: span.scrollWidth > span.clientWidth,
        direction: getComputedStyle(span).direction,
        firstLetterInSight: first.left >= box.left - 0.5 && first.right <= box.right + 0.5,
      };
    });
    expect(cut).toEqual({ truncated: true, direction: 'ltr', firstLetterInSight: true });
  }, 60_000);
});
