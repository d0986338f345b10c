import { eventually } from '@kasa/test-kit';
import { randomUUID } from 'node:crypto';
import zlib from 'node:zlib';
import type { Browser, Page, Route } from 'playwright-core';
import { TestContexts, launchBrowser } from '../support/browser';
import { FakeOpenAI } from '../support/fakeOpenAI';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { AuthPage } from './pages/AuthPage';
import { ChatPage } from './pages/ChatPage';
import { PHONE_VIEWPORT, WIDTHS, isPhone, onScreen, sidewaysOverflow } from './pages/screens';

let browser: Browser;
const contexts = new TestContexts();

beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

afterEach(() => contexts.closeAll());

async function openPage(viewport = { width: 1280, height: 860 }): Promise<Page> {
  return contexts.newPage(browser, { viewport });
}

function newPerson() {
  const id = randomUUID().slice(0, 8);
  return { username: `kofi_${id}`, email: `kofi.${id}@example.com`, password: 'adinkra-sika' };
}

async function signUp(page: Page, baseUrl: string, person = newPerson()) {
  const auth = new AuthPage(page);
  await auth.open(baseUrl);
  await auth.signUp(person);
  await page.waitForURL(`${baseUrl}/chat`);
  await new ChatPage(page).app().waitFor();
  return person;
}

/** Records, in the page, each length the reply being written shows: one entry per render that changed it. */
async function recordLiveReplyLengths(page: Page): Promise<void> {
  await page.evaluate(() => {
    const lengths: number[] = [];
    (window as unknown as { __replyLengths: number[] }).__replyLengths = lengths;
    new MutationObserver(() => {
      const live = document.querySelector(
        '[data-testid="message-assistant"][data-status="streaming"] [data-testid="message-content"]',
      );
      const length = live?.textContent?.length ?? 0;
      if (length > 0 && lengths[lengths.length - 1] !== length) lengths.push(length);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

const liveReplyLengths = (page: Page) =>
  page.evaluate(() => (window as unknown as { __replyLengths: number[] }).__replyLengths);

const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** GET an API path as the signed-in person of `page`: its status and JSON body. */
function apiGet(page: Page, path: string): Promise<{ status: number; body: unknown }> {
  return page.evaluate(async (url) => {
    const res = await fetch(url, { headers: { authorization: `Bearer ${localStorage.getItem('kasa_auth_token')}` } });
    return { status: res.status, body: await res.json().catch(() => null) };
  }, path);
}

async function storedSessionIds(page: Page): Promise<string[]> {
  const { body } = await apiGet(page, '/api/chat/sessions?limit=50');
  return (body as { sessions: Array<{ id: string }> }).sessions.map((session) => session.id);
}

const DAY_MS = 86_400_000;
/** The smallest comfortable touch target (WCAG 2.5.5, Apple's and Google's guidelines): 44 CSS px. */
const TOUCH_PX = 44;
const spaces = (text: string) => text.replace(/\s+/g, ' ');

/** The time a conversation started, as the list shows it for today's and yesterday's. */
const timeOf = (created: Date, locale: string) =>
  new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit' }).format(created);

/** The day a conversation started, as the list shows it for the previous 7 days. */
const dayOf = (created: Date, locale: string) =>
  new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short' }).format(created);

/** The gateway's answer when the chat service does not answer in time (gateway/src/proxy/proxyPolicy.ts). */
const GATEWAY_TIMEOUT = {
  status: 504,
  contentType: 'application/json',
  body: JSON.stringify({
    message: 'Chat service took too long to answer. Please try again.',
    code: 'upstream_timeout',
    requestId: 'e2e-timeout',
  }),
};

/** The GETs that load the list of conversations and one conversation. */
const listAndConversationLoads = (url: URL) => /^\/api\/chat\/sessions(\/[0-9a-f]{24})?$/.test(url.pathname);

describe('the chat with the offline provider', () => {
  let platform: RunningPlatform;

  beforeAll(async () => {
    // No provider configured: every answer comes from the built-in offline provider, a word every 25 ms.
    platform = await startPlatform({ CHAT_OFFLINE_WORD_DELAY_MS: '25' });
  }, 120_000);

  afterAll(async () => {
    await platform?.stop();
  });

  it('asks a signed-out visitor to sign in', async () => {
    const page = await openPage();
    await page.goto(`${platform.baseUrl}/chat`);
    await page.getByRole('heading', { name: 'Authentication Required' }).waitFor();
    const signIn = page.getByRole('link', { name: 'Sign In to Chat' });
    expect(await signIn.getAttribute('href')).toBe('/auth');
    expect(await page.getByTestId('chat-app').count()).toBe(0);
  });

  it('holds a streamed conversation, keeps it across a reload, and manages sessions', async () => {
    const page = await openPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: platform.baseUrl });
    const person = await signUp(page, platform.baseUrl);
    const chat = new ChatPage(page);

    // The signed-in user, live service health and the empty states.
    await chat.userCard().getByText(person.username).waitFor();
    await chat.userCard().getByText('Free plan').waitFor();
    await chat.serviceHealth('voice').waitFor();
    await chat.noSessions().waitFor();
    await chat.greeting().getByText('Akwaaba! I am Kasa.').waitFor();
    expect(await chat.persona('kasa').getAttribute('aria-pressed')).toBe('true');

    // Shift+Enter adds a line; Enter sends.
    await chat.composer().fill('What is Kasa?');
    await chat.composer().press('Shift+Enter');
    await chat.composer().pressSequentially('Tell me about the personas.');
    expect(await chat.composer().inputValue()).toBe('What is Kasa?\nTell me about the personas.');
    expect(await chat.userMessages().count()).toBe(0);

    await recordLiveReplyLengths(page);
    await chat.composer().press('Enter');
    await chat.stopButton().waitFor();
    expect(await chat.composer().isDisabled()).toBe(true);
    expect(await chat.userMessages().last().innerText()).toContain('What is Kasa?\nTell me about the personas.');

    expect(await chat.waitForReplyEnd()).toBe('complete');
    const reply = await chat.lastReplyText();
    expect(reply).toContain('offline mode');
    // Tokens arrived as a stream: the reply was shown growing over many renders before it was complete.
    const lengths = await liveReplyLengths(page);
    expect(lengths.length).toBeGreaterThanOrEqual(3);
    expect(lengths[0]).toBeLessThan(Math.max(...lengths));
    expect(await chat.lastReply().getByTestId('message-provider').innerText()).toBe('via offline');
    await eventually(() => chat.composer().isEnabled(), {
      timeoutMs: 10_000,
      what: 'the composer to be enabled again',
    });

    // The URL names the session, which the sidebar lists under the first message.
    await eventually(async () => chat.sessionIdFromUrl() !== null, {
      timeoutMs: 10_000,
      what: 'the session id in the URL',
    });
    const firstSession = chat.sessionIdFromUrl()!;
    const firstTitle = 'What is Kasa? Tell me about the personas.';
    await chat.sessionLink(firstTitle).waitFor();
    expect(await chat.title().innerText()).toBe(firstTitle);

    // Copy puts the reply on the clipboard.
    await chat.lastReply().getByRole('button', { name: 'Copy', exact: true }).click();
    await chat.lastReply().getByRole('button', { name: 'Copied' }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied.replace(/\s+/g, ' ').trim()).toContain('offline mode');

    // Regenerate asks the service for another answer to the same question: a second version of the reply, in its
    // place (tests/e2e/chatVersions.e2e.test.ts goes through versions in depth).
    await chat.lastReply().getByRole('button', { name: 'Regenerate' }).click();
    await chat.stopButton().waitFor();
    expect(await chat.waitForReplyEnd()).toBe('complete');
    await chat.lastReply().getByRole('group', { name: 'Version 2 of 2' }).waitFor();
    expect(await chat.replies().count()).toBe(1);
    expect(await chat.userMessages().count()).toBe(1);

    // A reload opens the same session with its messages, highlighted in the sidebar.
    await page.reload();
    await chat.lastReply().getByRole('group', { name: 'Version 2 of 2' }).waitFor();
    expect(chat.sessionIdFromUrl()).toBe(firstSession);
    expect(await chat.sessionLink(firstTitle).getAttribute('aria-current')).toBe('page');
    expect(await chat.userMessages().count()).toBe(1);

    // Switching persona starts a new conversation with that persona's greeting.
    await chat.persona('merla').click();
    await page.waitForURL(`${platform.baseUrl}/chat`);
    await chat.greeting().getByText('Hello, I am Merla.').waitFor();
    expect(await chat.title().innerText()).toBe('New chat with Merla');
    expect(await chat.persona('merla').getAttribute('aria-pressed')).toBe('true');
    expect(await chat.replies().count()).toBe(0);

    // The language override travels with the message. On Free, only English can be chosen (other languages are
    // part of Pro, and marked so); Auto-detect still answers in the language a message is written in.
    expect(await chat.languageSelect().locator('option[value="fr"]').isDisabled()).toBe(true);
    expect(await chat.languageSelect().locator('option[value="fr"]').innerText()).toContain('Pro');
    await chat.languageSelect().selectOption('en');
    await page.getByText('Language: English').waitFor();
    const posted = page.waitForRequest((req) => req.method() === 'POST' && req.url().endsWith('/messages'));
    await chat.send('How do I save money each month?');
    expect((await posted).postDataJSON()).toMatchObject({
      content: 'How do I save money each month?',
      language: 'en',
      resumable: true,
    });
    expect(await chat.waitForReplyEnd()).toBe('complete');
    await eventually(async () => chat.sessionIdFromUrl() !== null, {
      timeoutMs: 10_000,
      what: 'the second session in the URL',
    });
    const secondSession = chat.sessionIdFromUrl()!;
    expect(secondSession).not.toBe(firstSession);
    await chat.sessionLink('How do I save money each month?').waitFor();
    expect(await chat.sessionLinks().count()).toBe(2);

    // Search across my messages finds the first conversation and opens it.
    await chat.searchBox().fill('personas');
    const hit = chat.searchResults().getByRole('link', { name: new RegExp(firstTitle.replace('?', '\\?')) });
    await hit.first().waitFor();
    await hit.first().click();
    await page.waitForURL(`${platform.baseUrl}/chat/${firstSession}`);
    // The router changes the URL first and renders the session after, so the previous conversation (with Merla) can
    // still be on screen for a moment: wait for the first session's own title and persona.
    await eventually(async () => (await chat.title().innerText()) === firstTitle, {
      timeoutMs: 10_000,
      what: 'the first session opened from search',
    });
    await eventually(async () => (await chat.persona('kasa').getAttribute('aria-pressed')) === 'true', {
      timeoutMs: 10_000,
      what: "the first session's persona",
    });
    await chat.replies().first().waitFor();
    await chat.searchBox().fill('zzqx-no-such-word');
    await chat.searchResults().getByText('No messages match “zzqx-no-such-word”.').waitFor();
    await chat.searchBox().fill('');

    // Rename in place.
    await chat.rename(firstTitle, 'Kasa basics');
    await chat.sessionLink('Kasa basics').waitFor();
    await eventually(async () => (await chat.title().innerText()) === 'Kasa basics', {
      timeoutMs: 10_000,
      what: 'the renamed title',
    });

    // Delete asks first; Cancel keeps the session, Delete removes it.
    await chat.deleteButton('How do I save money each month?').click();
    await chat.confirmDialog().waitFor();
    await chat.confirmDialog().getByRole('button', { name: 'Cancel' }).click();
    expect(await chat.sessionLinks().count()).toBe(2);
    await chat.deleteButton('How do I save money each month?').click();
    await chat.confirmDialog().getByRole('button', { name: 'Delete' }).click();
    await eventually(async () => (await chat.sessionLinks().count()) === 1, {
      timeoutMs: 10_000,
      what: 'the deleted session to leave the list',
    });
    const gone = await page.evaluate(
      async ({ id }) =>
        (
          await fetch(`/api/chat/sessions/${id}`, {
            headers: { authorization: `Bearer ${localStorage.getItem('kasa_auth_token')}` },
          })
        ).status,
      { id: secondSession },
    );
    expect(gone).toBe(404);

    // Another user cannot open this conversation: the page says it was not found, and so does the API.
    const other = await openPage();
    await signUp(other, platform.baseUrl);
    const otherChat = new ChatPage(other);
    await otherChat.open(platform.baseUrl, firstSession);
    await otherChat.notFound().getByRole('heading', { name: 'Conversation not found' }).waitFor();
    expect(await otherChat.replies().count()).toBe(0);
    const status = await other.evaluate(
      async ({ id }) =>
        (
          await fetch(`/api/chat/sessions/${id}`, {
            headers: { authorization: `Bearer ${localStorage.getItem('kasa_auth_token')}` },
          })
        ).status,
      { id: firstSession },
    );
    expect(status).toBe(404);
    await otherChat.noSessions().waitFor();
  });

  it('shows a failed send inline and sends again with Retry', async () => {
    const page = await openPage();
    await signUp(page, platform.baseUrl);
    const chat = new ChatPage(page);
    // The network drops the first attempt (before it reaches Kasa).
    await page.route('**/api/chat/sessions/*/messages', (route) => route.abort('internetdisconnected'), { times: 1 });

    await chat.send('Which languages does Kasa speak?');
    await chat.sendError().getByText('Could not reach Kasa. Check your connection and try again.').waitFor();
    expect(await chat.composer().isEnabled()).toBe(true);

    await chat.sendError().getByRole('button', { name: 'Retry' }).click();
    expect(await chat.waitForReplyEnd()).toBe('complete');
    expect(await chat.sendError().count()).toBe(0);
    expect(await chat.userMessages().count()).toBe(1);
    await page.reload();
    await chat.replies().first().waitFor();
    expect(await chat.userMessages().count()).toBe(1);
  });

  it('groups conversations by date, each with its time in the interface language and its full title', async () => {
    const page = await openPage();
    await signUp(page, platform.baseUrl);
    const chat = new ChatPage(page);
    // Long enough for the sidebar to cut it short.
    const longTitle = 'Tell me the history of kente weaving in Bonwire, Ghana';
    await chat.send(longTitle);
    expect(await chat.waitForReplyEnd()).toBe('complete');
    await chat.sessionLink(longTitle).waitFor();
    await chat.newChatButton().click();
    await chat.send('Akwaaba');
    expect(await chat.waitForReplyEnd()).toBe('complete');
    await chat.sessionLink('Akwaaba').waitFor();

    // Both are today's, each with the time it started, in a <time> with the machine-readable date.
    expect(await chat.groupHeadings()).toEqual(['Today']);
    expect(await chat.sessionGroup('Today').getByRole('link').count()).toBe(2);
    const dateTime = (await chat.sessionTime(longTitle).getAttribute('datetime'))!;
    const created = new Date(dateTime);
    expect(Math.abs(Date.now() - created.getTime())).toBeLessThan(5 * 60_000);
    const time = (locale: string) => timeOf(created, locale);
    expect(spaces(await chat.sessionTime(longTitle).innerText())).toBe(spaces(time('en')));

    // The title that is cut short shows in full on hover; one that fits has no hover text.
    const cut = await chat.sessionLink(longTitle).evaluate((link) => {
      const text = link.firstElementChild as HTMLElement;
      return text.scrollWidth > text.clientWidth;
    });
    expect(cut).toBe(true);
    await chat.sessionLink(longTitle).hover();
    expect(await chat.sessionLink(longTitle).getAttribute('title')).toBe(longTitle);
    await chat.sessionLink('Akwaaba').hover();
    expect(await chat.sessionLink('Akwaaba').getAttribute('title')).toBeNull();

    // As the days go by, the same conversations move to Yesterday, Previous 7 days, Previous 30 days, their month.
    const later = async (days: number) => {
      await page.clock.setFixedTime(new Date(created.getTime() + days * DAY_MS));
      await page.reload();
      await page.getByTestId('session-item').filter({ hasText: longTitle }).waitFor();
    };
    await later(1);
    expect(await chat.groupHeadings()).toEqual(['Yesterday']);
    expect(spaces(await chat.sessionTime(longTitle).innerText())).toBe(spaces(time('en')));
    await later(3);
    expect(await chat.groupHeadings()).toEqual(['Previous 7 days']);
    const day = (locale: string) => dayOf(created, locale);
    expect(await chat.sessionTime('Akwaaba').innerText()).toBe(day('en'));
    await later(12);
    expect(await chat.groupHeadings()).toEqual(['Previous 30 days']);
    await later(70);
    const month = (locale: string) =>
      new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric' }).format(created);
    expect(await chat.groupHeadings()).toEqual([month('en')]);
    expect(await chat.sessionGroup(month('en')).getByRole('link').count()).toBe(2);

    // In French, the headings and dates are French.
    await page.getByTestId('language-picker').click();
    await page.locator('[data-locale]').filter({ hasText: 'Français' }).click();
    let headings: string[] = [];
    await eventually(async () => (headings = await chat.groupHeadings()).join() === month('fr'), {
      timeoutMs: 10_000,
      what: `the month heading in French (${month('fr')})`,
      context: () => `headings: ${JSON.stringify(headings)}`,
    });
    await later(0);
    expect(await chat.groupHeadings()).toEqual(['Aujourd’hui']);
    const frenchTime = page.getByTestId('session-item').filter({ hasText: longTitle }).locator('time');
    expect(spaces(await frenchTime.innerText())).toBe(spaces(time('fr')));
  }, 60_000);

  it('shows skeletons while the list and the conversation load, then their content', async () => {
    const page = await openPage();
    await signUp(page, platform.baseUrl);
    const chat = new ChatPage(page);
    await chat.send('Show me a skeleton');
    expect(await chat.waitForReplyEnd()).toBe('complete');
    await eventually(async () => chat.sessionIdFromUrl() !== null, { what: 'the session id in the URL' });

    // The next load's list and conversation are held back until the skeletons have been seen.
    const held: Route[] = [];
    let holding = true;
    const loads = listAndConversationLoads;
    await page.route(loads, (route) => {
      if (holding && route.request().method() === 'GET') held.push(route);
      else return route.continue();
    });
    await page.reload();
    await chat.sessionsSkeleton().waitFor();
    await chat.conversationSkeleton().waitFor();
    expect(await chat.sessionsRegion().getAttribute('aria-busy')).toBe('true');
    expect(await chat.messagesRegion().getAttribute('aria-busy')).toBe('true');
    expect(await chat.noSessions().count()).toBe(0);
    await eventually(async () => held.length >= 2, { what: 'the list and the conversation to be asked for' });

    holding = false;
    await Promise.all(held.map((route) => route.continue()));
    await page.unroute(loads);
    await chat.sessionLink('Show me a skeleton').waitFor();
    await chat.replies().first().waitFor();
    expect(await chat.sessionsSkeleton().count()).toBe(0);
    expect(await chat.conversationSkeleton().count()).toBe(0);
    expect(await chat.sessionsRegion().getAttribute('aria-busy')).toBe('false');
    expect(await chat.messagesRegion().getAttribute('aria-busy')).toBe('false');
  });

  it('marks the searched words in the results, whatever their case and accents, and only as text', async () => {
    const page = await openPage();
    await signUp(page, platform.baseUrl);
    const chat = new ChatPage(page);
    await chat.send('Yorùbá and Yoruba proverbs, please');
    expect(await chat.waitForReplyEnd()).toBe('complete');
    await chat.newChatButton().click();
    const hostile = '<b>kente</b> cloth <img src=x onerror="window.__injected=1">';
    await chat.send(hostile);
    expect(await chat.waitForReplyEnd()).toBe('complete');

    await chat.searchBox().fill('yorùbá');
    const proverbs = chat.searchHits().filter({ has: page.locator('span', { hasText: 'proverbs, please' }) });
    await proverbs.waitFor();
    // The title and the excerpt: both spellings marked, as written.
    expect(await proverbs.locator('mark').allInnerTexts()).toEqual(['Yorùbá', 'Yoruba', 'Yorùbá', 'Yoruba']);

    await chat.searchBox().fill('KENTE');
    const kente = chat.searchHits().filter({ has: page.locator('span', { hasText: 'cloth' }) });
    await kente.waitFor();
    expect(await kente.locator('mark').allInnerTexts()).toEqual(['kente', 'kente']);
    // The message's markup is shown as the text it is, never run.
    expect(await kente.locator('b, img').count()).toBe(0);
    expect(await kente.locator('span').innerText()).toContain('<b>kente</b> cloth <img');
    expect(await page.evaluate(() => (window as unknown as { __injected?: number }).__injected)).toBeUndefined();
  });

  it('leaves no empty conversation when the page is reloaded before the first message is stored', async () => {
    const page = await openPage();
    await signUp(page, platform.baseUrl);
    const chat = new ChatPage(page);
    await chat.noSessions().waitFor();

    // The first message's request never gets through: the session is created, its message is not.
    const created = page.waitForResponse(
      (res) => res.request().method() === 'POST' && new URL(res.url()).pathname === '/api/chat/sessions',
    );
    const sent = page.waitForRequest((req) => req.method() === 'POST' && req.url().includes('/messages'));
    const held: Route[] = [];
    await page.route('**/api/chat/sessions/*/messages', (route) => void held.push(route));
    await chat.send('Are you there?');
    const session = (await (await created).json()) as { id: string };
    await sent;
    // Until the message is stored, the page names no session and the sidebar lists none.
    expect(chat.sessionIdFromUrl()).toBeNull();
    expect(await chat.sessionLinks().count()).toBe(0);

    await page.reload();
    // The reload dropped the message's request; it never reaches Kasa.
    await Promise.all(held.map((route) => route.abort().catch(() => undefined)));
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await chat.greeting().waitFor();
    await chat.noSessions().waitFor();
    // The empty session is gone from the service too, so no other page or device lists it.
    let stored: unknown;
    await eventually(async () => (stored = await apiGet(page, `/api/chat/sessions/${session.id}`)).status === 404, {
      timeoutMs: 10_000,
      what: 'the empty session to be deleted',
      context: () => `the session: ${JSON.stringify(stored)}`,
    });
    expect(await storedSessionIds(page)).toEqual([]);
    expect(await chat.sessionLinks().count()).toBe(0);

    // The next first message makes a conversation as usual.
    await chat.send('Are you there now?');
    expect(await chat.waitForReplyEnd()).toBe('complete');
    await chat.sessionLink('Are you there now?').waitFor();
    await eventually(async () => chat.sessionIdFromUrl() !== null, { what: 'the session id in the URL' });
    expect(await storedSessionIds(page)).toEqual([chat.sessionIdFromUrl()]);
  });

  it('deletes the empty session of a first message that failed when the person starts another chat', async () => {
    const page = await openPage();
    await signUp(page, platform.baseUrl);
    const chat = new ChatPage(page);
    const created = page.waitForResponse(
      (res) => res.request().method() === 'POST' && new URL(res.url()).pathname === '/api/chat/sessions',
    );
    await page.route('**/api/chat/sessions/*/messages', (route) => route.abort('internetdisconnected'), { times: 1 });
    await chat.send('Is anyone listening?');
    const session = (await (await created).json()) as { id: string };
    await chat.sendError().waitFor();
    expect(await chat.sessionLinks().count()).toBe(0);

    await chat.newChatButton().click();
    await eventually(async () => (await apiGet(page, `/api/chat/sessions/${session.id}`)).status === 404, {
      timeoutMs: 10_000,
      what: 'the abandoned empty session to be deleted',
    });
    await chat.noSessions().waitFor();
  });

  it.each(WIDTHS)(
    'says that a gateway timeout (504) is the service being slow, not the connection, at %s',
    async (_width, viewport) => {
      const page = await openPage(viewport);
      await signUp(page, platform.baseUrl);
      const chat = new ChatPage(page);
      const slow = 'Chat service took too long to answer. Please try again.';

      // The chat service does not answer the message in time: the gateway answers 504 for it.
      await page.route('**/api/chat/sessions/*/messages', (route) => route.fulfill(GATEWAY_TIMEOUT), { times: 1 });
      await chat.send('Which languages does Kasa speak?');
      await chat.sendError().getByText(slow).waitFor();
      expect(await chat.sendError().innerText()).not.toMatch(/connection/i);
      const retry = chat.sendError().getByRole('button', { name: 'Retry' });
      expect(await onScreen(retry)).toBe('on screen');
      // On a phone, Retry and Dismiss are big enough for a thumb.
      if (isPhone(viewport)) {
        const dismiss = chat.sendError().getByRole('button', { name: 'Dismiss' });
        expect((await retry.boundingBox())!.height).toBeGreaterThanOrEqual(TOUCH_PX);
        expect((await dismiss.boundingBox())!.height).toBeGreaterThanOrEqual(TOUCH_PX);
      }
      await retry.click();
      expect(await chat.waitForReplyEnd()).toBe('complete');
      expect(await chat.sendError().count()).toBe(0);
      await eventually(async () => chat.sessionIdFromUrl() !== null, { what: 'the session id in the URL' });

      // The list of conversations and the conversation time out too: each says so where it would have been.
      await page.route(listAndConversationLoads, (route) =>
        route.request().method() === 'GET' ? route.fulfill(GATEWAY_TIMEOUT) : route.continue(),
      );
      await page.reload();
      const conversationFailure = chat.messagesRegion().getByRole('alert');
      await conversationFailure.getByText(`Could not load this conversation: ${slow}`).waitFor({ timeout: 15_000 });
      expect(await onScreen(conversationFailure)).toBe('on screen');
      await chat.showSidebar();
      const listFailure = chat.sessionsRegion().getByRole('alert');
      await listFailure.getByText(`Could not load your conversations: ${slow}`).waitFor({ timeout: 15_000 });
      expect(await onScreen(listFailure)).toBe('on screen');
      expect(await conversationFailure.innerText()).not.toMatch(/connection/i);
      expect(await listFailure.innerText()).not.toMatch(/connection/i);
      expect(await sidewaysOverflow(page)).toBe(0);

      // Once the service answers again, Retry brings the list back.
      await page.unroute(listAndConversationLoads);
      await listFailure.getByRole('button', { name: 'Retry' }).click();
      await chat.sessionLink('Which languages does Kasa speak?').waitFor();
      expect(await listFailure.count()).toBe(0);
    },
    60_000,
  );

  // The list's behaviours that the tests above check at 1280 px, walked once in one page at 375 px, where the list
  // is in a drawer opened with the Chats toggle (and closed by a reload, a conversation or New chat).
  it('shows the conversations in the drawer at 375 px: date groups and times, full titles, marked search hits, skeletons, no empty conversation after a quick reload', async () => {
    const page = await openPage(PHONE_VIEWPORT);
    await signUp(page, platform.baseUrl);
    const chat = new ChatPage(page);
    const longTitle = 'Tell me the history of kente weaving in Bonwire, Ghana';
    await chat.send(longTitle);
    expect(await chat.waitForReplyEnd()).toBe('complete');
    await eventually(async () => chat.sessionIdFromUrl() !== null, { what: 'the first session id in the URL' });
    await chat.startNewChat();
    await page.waitForURL(`${platform.baseUrl}/chat`);
    await chat.send('Akwaaba');
    expect(await chat.waitForReplyEnd()).toBe('complete');
    await eventually(async () => chat.sessionIdFromUrl() !== null, { what: 'the second session id in the URL' });
    const sessionId = chat.sessionIdFromUrl()!;

    // Today's group, each conversation with the time it started; the long title is whole on two lines (a phone has
    // no hover to show it), nothing of it cut.
    await chat.showSidebar();
    await chat.sessionLink(longTitle).waitFor();
    expect(await chat.groupHeadings()).toEqual(['Today']);
    expect(await chat.sessionGroup('Today').getByRole('link').count()).toBe(2);
    const created = new Date((await chat.sessionTime(longTitle).getAttribute('datetime'))!);
    expect(Math.abs(Date.now() - created.getTime())).toBeLessThan(5 * 60_000);
    expect(spaces(await chat.sessionTime(longTitle).innerText())).toBe(spaces(timeOf(created, 'en')));
    expect(await onScreen(chat.sessionTime(longTitle))).toBe('on screen');
    expect(await onScreen(chat.sessionTime('Akwaaba'))).toBe('on screen');
    const title = await chat.sessionTitle(longTitle).evaluate((text) => ({
      text: (text as HTMLElement).innerText,
      lines: Math.round(text.clientHeight / parseFloat(getComputedStyle(text).lineHeight)),
      cut: { across: text.scrollWidth - text.clientWidth, down: text.scrollHeight - text.clientHeight },
    }));
    expect(title).toEqual({ text: longTitle, lines: 2, cut: { across: expect.any(Number), down: expect.any(Number) } });
    expect(title.cut.across).toBeLessThanOrEqual(1);
    expect(title.cut.down).toBeLessThanOrEqual(1);
    await chat.sessionLink(longTitle).hover();
    expect(await chat.sessionLink(longTitle).getAttribute('title')).toBeNull();
    await chat.sessionLink('Akwaaba').hover();
    expect(await chat.sessionLink('Akwaaba').getAttribute('title')).toBeNull();
    expect(await sidewaysOverflow(page)).toBe(0);

    // Search marks the words found, whatever their case, in sight in the drawer; a hit opens its conversation and
    // closes the drawer.
    await chat.searchBox().fill('KENTE');
    const kente = chat.searchHits().filter({ has: page.locator('span', { hasText: 'weaving in Bonwire' }) });
    await kente.waitFor();
    expect(await kente.locator('mark').allInnerTexts()).toEqual(['kente', 'kente']);
    expect(await onScreen(kente.locator('mark').first())).toBe('on screen');
    await kente.click();
    await chat.sidebar().waitFor({ state: 'hidden' });
    await eventually(async () => (await chat.title().innerText()) === longTitle, {
      what: 'the conversation opened from search',
    });
    const firstSession = chat.sessionIdFromUrl()!;
    expect(firstSession).not.toBe(sessionId);

    // A reload shows skeletons while the list and the conversation load: the conversation's at once, the list's in
    // the drawer.
    const held: Route[] = [];
    let holding = true;
    await page.route(listAndConversationLoads, (route) => {
      if (holding && route.request().method() === 'GET') held.push(route);
      else return route.continue();
    });
    await page.reload();
    await chat.conversationSkeleton().waitFor();
    expect(await onScreen(chat.conversationSkeleton())).toBe('on screen');
    expect(await chat.messagesRegion().getAttribute('aria-busy')).toBe('true');
    await chat.showSidebar();
    await chat.sessionsSkeleton().waitFor();
    expect(await onScreen(chat.sessionsSkeleton())).toBe('on screen');
    expect(await chat.sessionsRegion().getAttribute('aria-busy')).toBe('true');
    expect(await chat.noSessions().count()).toBe(0);
    await eventually(async () => held.length >= 2, { what: 'the list and the conversation to be asked for' });
    holding = false;
    await Promise.all(held.map((route) => route.continue()));
    await page.unroute(listAndConversationLoads);
    await chat.sessionLink(longTitle).waitFor();
    expect(await chat.sessionsSkeleton().count()).toBe(0);
    expect(await chat.sessionsRegion().getAttribute('aria-busy')).toBe('false');
    await page.keyboard.press('Escape');
    await chat.sidebar().waitFor({ state: 'hidden' });
    await chat.replies().first().waitFor();
    expect(await chat.conversationSkeleton().count()).toBe(0);
    expect(await chat.messagesRegion().getAttribute('aria-busy')).toBe('false');

    // A new chat whose first message is not stored before a reload leaves no empty conversation in the drawer.
    await chat.startNewChat();
    await page.waitForURL(`${platform.baseUrl}/chat`);
    const createdSession = page.waitForResponse(
      (res) => res.request().method() === 'POST' && new URL(res.url()).pathname === '/api/chat/sessions',
    );
    const sent = page.waitForRequest((req) => req.method() === 'POST' && req.url().includes('/messages'));
    const unsent: Route[] = [];
    await page.route('**/api/chat/sessions/*/messages', (route) => void unsent.push(route));
    await chat.send('Are you there?');
    const empty = (await (await createdSession).json()) as { id: string };
    await sent;
    await page.reload();
    await Promise.all(unsent.map((route) => route.abort().catch(() => undefined)));
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await chat.greeting().waitFor();
    await eventually(async () => (await apiGet(page, `/api/chat/sessions/${empty.id}`)).status === 404, {
      timeoutMs: 10_000,
      what: 'the empty session to be deleted',
    });
    await chat.showSidebar();
    await chat.sessionLink('Akwaaba').waitFor();
    const listed = await chat.sessionLinks().allInnerTexts();
    expect(listed).toHaveLength(2);
    expect(listed).toEqual(
      expect.arrayContaining([expect.stringContaining('Akwaaba'), expect.stringContaining(longTitle)]),
    );
    expect((await storedSessionIds(page)).sort()).toEqual([firstSession, sessionId].sort());

    // As the days go by, the conversations move to Yesterday, then Previous 7 days with their day instead of time.
    const later = async (days: number) => {
      await page.clock.setFixedTime(new Date(created.getTime() + days * DAY_MS));
      await page.reload();
      await chat.showSidebar();
      await page.getByTestId('session-item').filter({ hasText: 'Akwaaba' }).waitFor();
    };
    await later(1);
    expect(await chat.groupHeadings()).toEqual(['Yesterday']);
    expect(spaces(await chat.sessionTime(longTitle).innerText())).toBe(spaces(timeOf(created, 'en')));
    expect(await onScreen(page.getByTestId('session-group').locator('h3').first())).toBe('on screen');
    await later(3);
    expect(await chat.groupHeadings()).toEqual(['Previous 7 days']);
    expect(await chat.sessionTime('Akwaaba').innerText()).toBe(dayOf(created, 'en'));
    expect(await onScreen(chat.sessionTime('Akwaaba'))).toBe('on screen');
  }, 90_000);

  it('folds the sidebar behind a toggle on a phone', async () => {
    const page = await openPage({ width: 375, height: 740 });
    await signUp(page, platform.baseUrl);
    const chat = new ChatPage(page);
    await chat.composer().waitFor();
    expect(await chat.sidebar().isVisible()).toBe(false);
    expect(await chat.sidebarToggle().getAttribute('aria-expanded')).toBe('false');

    await chat.sidebarToggle().click();
    await chat.sidebar().waitFor();
    expect(await chat.sidebarToggle().getAttribute('aria-expanded')).toBe('true');
    await chat.noSessions().waitFor();
    // Nothing overflows the phone's width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    await chat.sidebarToggle().click();
    await chat.sidebar().waitFor({ state: 'hidden' });
  });

  // The whole first load's bytes on the wire are held to their budget in tests/e2e/delivery.test.ts; this holds
  // the chat remote's entry, which every visit of /chat fetches before anything of the chat can run.
  it("keeps the chat remote's entry within 30 KB gzip", async () => {
    const page = await openPage();
    const entry = await page.request.get(`${platform.baseUrl}/remotes/chat/remoteEntry.js`, {
      headers: { 'accept-encoding': 'identity' },
    });
    expect(entry.status()).toBe(200);
    const gzip = zlib.gzipSync(await entry.body()).length;
    console.log(`chat remoteEntry.js: ${(gzip / 1024).toFixed(1)} KB gzip`);
    expect(gzip).toBeLessThanOrEqual(30 * 1024);
  });
});

describe('the chat with a slow provider', () => {
  let platform: RunningPlatform;
  const fake = new FakeOpenAI();
  const fullText = Array.from({ length: 60 }, (_, i) => `word${i + 1}`).join(' ');

  beforeAll(async () => {
    await fake.start();
    fake.mode = { kind: 'ok', text: fullText, delayMs: 120 };
    platform = await startPlatform({
      CHAT_PROVIDERS: 'slowfake',
      SLOWFAKE_BASE_URL: fake.baseURL,
      SLOWFAKE_MODEL: 'slow-model',
    });
  }, 120_000);

  afterAll(async () => {
    await platform?.stop();
    await fake.stop();
  });

  /** Waits until the reply being written shows at least `words` words. */
  async function waitForWords(page: Page, words: number) {
    await page.waitForFunction(
      (count) => {
        const live = document.querySelector(
          '[data-testid="message-assistant"][data-status="streaming"] [data-testid="message-content"]',
        );
        return (live?.textContent ?? '').split(/\s+/).filter((w) => /^word\d+$/.test(w)).length >= count;
      },
      words,
      { timeout: 15_000, polling: 50 },
    );
  }

  it('stops a reply with the Stop button, which cancels the provider call', async () => {
    const page = await openPage();
    await signUp(page, platform.baseUrl);
    const chat = new ChatPage(page);

    await chat.send('Count slowly for me.');
    await waitForWords(page, 3);
    const requests = fake.requests.length;
    await chat.stopButton().click();

    expect(await chat.waitForReplyEnd(10_000)).toBe('stopped');
    expect(await chat.lastReply().getByTestId('message-status').innerText()).toBe('Stopped');
    expect(await chat.lastReply().getByTestId('message-provider').innerText()).toBe('via slowfake');
    const stoppedText = await chat.lastReplyText();
    expect(wordCount(stoppedText)).toBeGreaterThanOrEqual(3);
    expect(wordCount(stoppedText)).toBeLessThan(60);
    expect(fullText.startsWith(stoppedText)).toBe(true);
    // The provider's request was cancelled, not left to run to the end.
    const call = fake.requests[requests - 1]!;
    await eventually(async () => call.closedAt !== undefined, {
      timeoutMs: 3_000,
      what: 'the provider call to be cancelled',
    });
    await eventually(() => chat.composer().isEnabled(), {
      timeoutMs: 10_000,
      what: 'the composer to be enabled again',
    });

    // It stays stopped after a reload.
    await page.reload();
    await chat.replies().first().waitFor();
    expect(await chat.lastReply().getAttribute('data-status')).toBe('stopped');
    expect(await chat.lastReplyText()).toBe(stoppedText);
  });

  it.each([
    ['1280 px', { width: 1280, height: 700 }],
    ['375 px', PHONE_VIEWPORT],
  ])(
    'stops following the reply when scrolled up, and Jump to latest follows it again, at %s',
    async (_width, viewport) => {
      const page = await openPage(viewport);
      await signUp(page, platform.baseUrl);
      const chat = new ChatPage(page);
      // A question long enough for the conversation to scroll.
      await chat.send(Array.from({ length: 40 }, (_, i) => `Line ${i + 1} of a long question.`).join('\n'));
      await waitForWords(page, 3);
      expect(await chat.messagesRegion().evaluate((el) => el.scrollHeight - el.clientHeight)).toBeGreaterThan(300);

      // At the bottom, the view follows the reply as it grows.
      await waitForWords(page, 6);
      expect(await chat.distanceFromBottom()).toBeLessThan(100);
      expect(await chat.jumpToLatest().count()).toBe(0);

      // Scrolled up, it stays where the person is reading and offers to jump to the latest.
      await chat.messagesRegion().evaluate((el) => el.scrollTo({ top: 0 }));
      await chat.jumpToLatest().waitFor();
      // Over the conversation, above the composer: in sight, nothing covering it; on a phone, big enough for a thumb.
      expect(await onScreen(chat.jumpToLatest())).toBe('on screen');
      if (isPhone(viewport)) expect((await chat.jumpToLatest().boundingBox())!.height).toBeGreaterThanOrEqual(TOUCH_PX);
      const words = wordCount(await chat.lastReplyText());
      await waitForWords(page, words + 4);
      expect(await chat.messagesRegion().evaluate((el) => el.scrollTop)).toBe(0);
      expect(await chat.jumpToLatest().isVisible()).toBe(true);

      // Jump to latest: at the bottom again, the button gone, and following the reply again.
      await chat.jumpToLatest().click();
      await chat.jumpToLatest().waitFor({ state: 'detached' });
      expect(await chat.distanceFromBottom()).toBeLessThan(100);
      await waitForWords(page, words + 8);
      expect(await chat.distanceFromBottom()).toBeLessThan(100);

      await chat.stopButton().click();
      expect(await chat.waitForReplyEnd(10_000)).toBe('stopped');
    },
  );

  it('follows a reply after a reload in the middle of it, and finds the session again', async () => {
    const page = await openPage();
    await signUp(page, platform.baseUrl);
    const chat = new ChatPage(page);

    await chat.send('Count slowly again.');
    await waitForWords(page, 5);
    await eventually(async () => chat.sessionIdFromUrl() !== null, {
      timeoutMs: 10_000,
      what: 'the session id in the URL',
    });
    const sessionId = chat.sessionIdFromUrl()!;
    const before = wordCount(await chat.lastReplyText());

    await page.reload();
    expect(chat.sessionIdFromUrl()).toBe(sessionId);
    // The text so far comes back at once and goes on growing; the reply can still be stopped.
    await waitForWords(page, before);
    await chat.stopButton().waitFor();
    expect(await chat.waitForReplyEnd(20_000)).toBe('complete');
    expect(await chat.lastReplyText()).toBe(fullText);
    expect(await chat.userMessages().count()).toBe(1);
    await eventually(() => chat.composer().isEnabled(), {
      timeoutMs: 10_000,
      what: 'the composer to be enabled again',
    });

    // The sidebar lists it; a fresh page opens it from there.
    await chat.newChatButton().click();
    await page.waitForURL(`${platform.baseUrl}/chat`);
    await chat.sessionLink('Count slowly again.').click();
    await page.waitForURL(`${platform.baseUrl}/chat/${sessionId}`);
    await chat.replies().first().waitFor();
    expect(await chat.lastReplyText()).toBe(fullText);
  });
});
