import { eventually } from '@kasa/test-kit';
import { randomUUID } from 'node:crypto';
import type { Browser, Locator, Page } from 'playwright-core';
import { seriousAxeViolations } from '../support/axe';
import { TestContexts, launchBrowser } from '../support/browser';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { AuthPage } from './pages/AuthPage';
import { ChatPage } from './pages/ChatPage';
import { NavBar } from './pages/NavBar';

// The chat held in one hand: a composer pinned at the bottom of the screen, the conversations in a drawer, the
// personas in one row, nothing wider than the screen and controls big enough for a thumb.

const SCREENS = [
  { name: '375×740', width: 375, height: 740 },
  { name: '390×844', width: 390, height: 844 },
  { name: '768×1024', width: 768, height: 1024 },
];
type Screen = (typeof SCREENS)[number];

/** The smallest comfortable touch target (WCAG 2.5.5, Apple's and Google's guidelines): 44 CSS px. */
const TOUCH_PX = 44;

let platform: RunningPlatform;
let browser: Browser;
const contexts = new TestContexts();

beforeAll(async () => {
  // The built-in offline provider answers every message, a word every 2 ms.
  [platform, browser] = await Promise.all([startPlatform({ CHAT_OFFLINE_WORD_DELAY_MS: '2' }), launchBrowser()]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
});

afterEach(() => contexts.closeAll());

async function openPage(screen: Screen, options: { locale?: string } = {}): Promise<Page> {
  return contexts.newPage(browser, { viewport: { width: screen.width, height: screen.height }, ...options });
}

async function signUp(page: Page): Promise<ChatPage> {
  const id = randomUUID().slice(0, 8);
  const auth = new AuthPage(page);
  await auth.open(platform.baseUrl);
  await auth.signUp({ username: `ama_${id}`, email: `ama.${id}@example.com`, password: 'adinkra-sika' });
  await page.waitForURL(`${platform.baseUrl}/chat`);
  const chat = new ChatPage(page);
  await chat.composer().waitFor();
  return chat;
}

/** Sends a message and waits until its reply is complete. */
async function converse(chat: ChatPage, text: string) {
  const before = await chat.replies().count();
  await chat.send(text);
  await chat.replies().nth(before).waitFor();
  expect(await chat.waitForReplyEnd()).toBe('complete');
}

/** A long message with a long unbroken word (a link) in it, the kind that pushes a narrow layout sideways. */
const longMessage = (n: number) =>
  `Message ${n}: ${'Tell me about the personas and the languages Kasa speaks, and how voice works. '.repeat(5)}` +
  `https://example.com/${'kente-'.repeat(25)}${n}`;

/**
 * How wide the page is (the screen's width when nothing overflows), else what reaches past the screen's edge, to
 * say what to fix: elements outside the screen that no scrolling box of theirs clips.
 */
const pageWidth = (page: Page) =>
  page.evaluate(() => {
    const width = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
    if (width <= window.innerWidth) return window.innerWidth;
    const clipped = (el: Element) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        if (getComputedStyle(p).overflowX !== 'visible') return true;
      }
      return false;
    };
    const culprits = Array.from(document.querySelectorAll<HTMLElement>('body *'))
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return (r.right > window.innerWidth + 1 || r.left < -1) && !clipped(el);
      })
      .slice(0, 8)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className)} ${el.getAttribute('data-testid') ?? ''}`);
    return `${document.documentElement.scrollWidth}/${document.body.scrollWidth} px: ${culprits.join(' | ')}`;
  });

async function expectClosed(chat: ChatPage) {
  await chat.sidebar().waitFor({ state: 'hidden' });
  expect(await chat.phoneToggle().getAttribute('aria-expanded')).toBe('false');
  expect(await chat.drawerBackdrop().count()).toBe(0);
  await eventually(async () => (await chat.focus()).onToggle, { what: 'focus back on the Chats toggle' });
  expect((await chat.inertState()).count).toBe(0);
}

async function openDrawer(chat: ChatPage) {
  await chat.phoneToggle().click();
  await chat.sidebar().waitFor();
  await eventually(async () => (await chat.focus()).inSidebar, { what: 'focus inside the drawer' });
}

describe.each(SCREENS)('the chat on a $name screen', (screen) => {
  it('keeps the composer pinned at the bottom while the conversation scrolls, with nothing wider than the screen', async () => {
    const page = await openPage(screen);
    const chat = await signUp(page);

    // The personas take one row, however many there are: a row that scrolls sideways, not a grid.
    await chat.persona('dokta').waitFor({ state: 'attached' });
    const personas = await chat.personaBoxes();
    expect(personas).toHaveLength(6);
    const tops = personas.map((box) => box.top);
    expect(Math.max(...tops) - Math.min(...tops)).toBeLessThanOrEqual(1);
    const row = (await chat.personaPicker().boundingBox())!;
    expect(row.height).toBeLessThan(personas[0]!.height * 2);

    // Primary controls are big enough for a thumb.
    const targets = {
      'Chats toggle': chat.phoneToggle(),
      'New chat': chat.phoneNewChatButton(),
      persona: chat.persona('kasa'),
      'message field': chat.composer(),
      'reply language': chat.languageSelect(),
      Send: chat.sendButton(),
    };
    const small: string[] = [];
    for (const [name, target] of Object.entries(targets)) {
      const box = (await target.boundingBox())!;
      if (box.height < TOUCH_PX || box.width < TOUCH_PX) small.push(`${name}: ${box.width}×${box.height}`);
    }
    expect(small).toEqual([]);

    for (let n = 1; n <= 4; n += 1) await converse(chat, longMessage(n));

    // The conversation is longer than its room, so it scrolls; the page does not.
    const messages = chat.messagesRegion();
    expect(await messages.evaluate((el) => el.scrollHeight > el.clientHeight + 200)).toBe(true);
    expect(await pageWidth(page)).toBe(screen.width);
    expect(await messages.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

    const composer = (await chat.composerForm().boundingBox())!;
    expect(composer.y).toBeGreaterThanOrEqual(0);
    expect(composer.y + composer.height).toBeLessThanOrEqual(screen.height);

    // Scrolling the conversation back to its start, then past its end, moves neither the composer nor the page.
    await messages.hover();
    await page.mouse.wheel(0, -20_000);
    await eventually(async () => (await messages.evaluate((el) => el.scrollTop)) === 0, {
      what: 'the conversation scrolled to its start',
    });
    expect(await chat.composerForm().boundingBox()).toEqual(composer);
    await page.mouse.wheel(0, 40_000);
    await eventually(async () => (await chat.distanceFromBottom()) < 2, { what: 'the conversation at its end' });
    await page.mouse.wheel(0, 2_000);
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(await chat.composerForm().boundingBox()).toEqual(composer);
    expect(await pageWidth(page)).toBe(screen.width);
  }, 90_000);

  it('keeps the conversations in a drawer: toggle, backdrop, Escape, a conversation or New chat close it, and focus follows', async () => {
    const page = await openPage(screen);
    const chat = await signUp(page);
    await converse(chat, 'What is Kasa?');
    await page.waitForURL(/\/chat\/[0-9a-f]{24}$/);
    const sessionId = chat.sessionIdFromUrl()!;
    await chat.phoneNewChatButton().click();
    await page.waitForURL(`${platform.baseUrl}/chat`);

    expect(await chat.sidebar().isVisible()).toBe(false);
    expect(await chat.phoneToggle().getAttribute('aria-expanded')).toBe('false');

    // The toggle opens it from the inline-start edge, over a backdrop; focus moves in and the rest is inert.
    await openDrawer(chat);
    expect(await chat.focus()).toMatchObject({ inSidebar: true, text: 'Hide chats' });
    expect(await chat.sidebarToggle().getAttribute('aria-expanded')).toBe('true');
    await chat.drawerBackdrop().waitFor();
    await eventually(async () => Math.round((await chat.sidebar().boundingBox())!.x) === 0, {
      what: 'the drawer against the left edge',
    });
    const drawer = (await chat.sidebar().boundingBox())!;
    expect(drawer.width).toBeLessThan(screen.width - TOUCH_PX);
    expect(Math.round(drawer.height)).toBe(screen.height);
    expect(await chat.inertState()).toEqual({
      count: expect.any(Number),
      composer: true,
      navigation: true,
      sidebar: false,
    });
    expect((await chat.drawerCloseButton().boundingBox())!.height).toBeGreaterThanOrEqual(TOUCH_PX);
    expect((await chat.newChatButton().boundingBox())!.height).toBeGreaterThanOrEqual(TOUCH_PX);
    expect((await chat.sessionLink('What is Kasa?').boundingBox())!.height).toBeGreaterThanOrEqual(TOUCH_PX);
    expect(await pageWidth(page)).toBe(screen.width);
    // Tab and Shift+Tab never reach the page behind it.
    for (let press = 0; press < 24; press += 1) {
      await page.keyboard.press(press < 16 ? 'Tab' : 'Shift+Tab');
      const focus = await chat.focus();
      expect({ press, behind: focus.behind }).toEqual({ press, behind: false });
    }
    await chat.drawerCloseButton().focus();

    // Escape closes it.
    await page.keyboard.press('Escape');
    await expectClosed(chat);

    // A tap on the backdrop beside it closes it.
    await openDrawer(chat);
    await page.mouse.click(screen.width - 10, Math.round(screen.height / 2));
    await expectClosed(chat);

    // So does its own Hide chats button.
    await openDrawer(chat);
    await chat.drawerCloseButton().click();
    await expectClosed(chat);

    // Choosing a conversation opens it and closes the drawer.
    await openDrawer(chat);
    await chat.sessionLink('What is Kasa?').click();
    await page.waitForURL(`${platform.baseUrl}/chat/${sessionId}`);
    await expectClosed(chat);
    await chat.userMessages().getByText('What is Kasa?').waitFor();

    // New chat in the drawer starts one and closes it.
    await openDrawer(chat);
    await chat.newChatButton().click();
    await page.waitForURL(`${platform.baseUrl}/chat`);
    await expectClosed(chat);
    await chat.greeting().waitFor();
  }, 90_000);
});

describe('the chat on a 375 px phone', () => {
  const phone = SCREENS[0]!;

  it('has no serious accessibility violation, with the drawer closed or open', async () => {
    const page = await openPage(phone);
    const chat = await signUp(page);
    await converse(chat, longMessage(1));
    await page.waitForLoadState('networkidle');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await openDrawer(chat);
    await chat.sessionLinks().first().waitFor();
    await page.waitForTimeout(300); // the drawer's slide-in has ended
    expect(await seriousAxeViolations(page)).toEqual([]);
  }, 90_000);

  it('opens the drawer from the right in Arabic', async () => {
    const page = await openPage(phone);
    await signUp(page);
    // The account's language is Arabic (as if picked in another browser): the page follows it after a reload.
    const token = await page.evaluate(() => window.localStorage.getItem('kasa_auth_token'));
    const preference = (init?: RequestInit) =>
      fetch(`${platform.baseUrl}/api/auth/preferences/language`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      });
    // Signing up saved this browser's English first; Arabic replaces it.
    await eventually(async () => ((await (await preference()).json()) as { language?: string }).language === 'en', {
      what: "the account's first language saved",
    });
    expect((await preference({ method: 'PUT', body: JSON.stringify({ language: 'ar' }) })).ok).toBe(true);
    await page.reload();
    const chat = new ChatPage(page);
    await chat.app().waitFor();
    await eventually(() => page.evaluate(() => document.documentElement.dir === 'rtl'), {
      what: 'the page in Arabic, right to left',
    });
    await chat.phoneToggle().click();
    const drawer = page.locator('aside');
    await drawer.waitFor();
    await eventually(
      async () => {
        const box = (await drawer.boundingBox())!;
        return Math.round(box.x + box.width) === phone.width && box.x > TOUCH_PX;
      },
      { what: 'the drawer against the right edge' },
    );
    expect(await pageWidth(page)).toBe(phone.width);
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
    await eventually(async () => (await chat.focus()).onToggle, { what: 'focus back on the toggle' });
  }, 60_000);
});

/**
 * A phone with a notch and a home indicator, iPhone X-sized: what env(safe-area-inset-*) resolves to there, in CSS
 * px (the status bar above, the home indicator below).
 */
const NOTCHED = { name: '375×812 with a notch', width: 375, height: 812, insets: { top: 44, bottom: 34 } };

/** Where the content drawn inside an element begins and ends: the top of its highest and the bottom of its lowest box. */
const contentExtent = (locator: Locator) =>
  locator.evaluate((root) => {
    const boxes = Array.from(root.querySelectorAll('*'))
      .map((el) => el.getBoundingClientRect())
      .filter((box) => box.width > 0 && box.height > 0);
    return { top: Math.min(...boxes.map((box) => box.top)), bottom: Math.max(...boxes.map((box) => box.bottom)) };
  });

describe('the chat on a notched phone', () => {
  it('keeps the navigation bar below the status bar and the composer above the home indicator', async () => {
    const { insets } = NOTCHED;
    const page = await openPage(NOTCHED);
    // Chromium has no notch of its own: the DevTools protocol sets the insets a notched phone's browser reports.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setSafeAreaInsetsOverride', { insets: { ...insets, left: 0, right: 0 } });
    const chat = await signUp(page);

    // Without viewport-fit=cover an iPhone keeps the page inside the safe area and env(safe-area-inset-*) is 0.
    expect(await page.locator('meta[name="viewport"]').getAttribute('content')).toMatch(/(^|,)\s*viewport-fit=cover/);
    expect(
      await page.evaluate(() => {
        const probe = document.createElement('div');
        probe.style.padding = 'env(safe-area-inset-top) 0 env(safe-area-inset-bottom)';
        document.body.append(probe);
        const { paddingTop, paddingBottom } = getComputedStyle(probe);
        probe.remove();
        return { top: paddingTop, bottom: paddingBottom };
      }),
    ).toEqual({ top: `${insets.top}px`, bottom: `${insets.bottom}px` });

    // The navigation bar's background runs up under the status bar; its links and buttons start below it.
    const nav = new NavBar(page);
    await nav.menuToggle().waitFor();
    expect((await contentExtent(nav.root)).top).toBeGreaterThanOrEqual(insets.top);
    expect((await nav.menuToggle().boundingBox())!.y).toBeGreaterThanOrEqual(insets.top);

    // The composer is the bottom of the screen: its padding takes the home indicator's strip, its field and buttons
    // end above it.
    const form = chat.composerForm();
    const box = (await form.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(NOTCHED.height);
    expect(await form.evaluate((el) => parseFloat(getComputedStyle(el).paddingBottom))).toBeGreaterThanOrEqual(
      insets.bottom,
    );
    expect((await contentExtent(form)).bottom).toBeLessThanOrEqual(NOTCHED.height - insets.bottom);
  }, 60_000);
});
