import { eventually } from '@kasa/test-kit';
import { randomUUID } from 'node:crypto';
import zlib from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { FakeOpenAI } from '../support/fakeOpenAI';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { AuthPage } from './pages/AuthPage';
import { ChatPage } from './pages/ChatPage';

let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

async function openPage(viewport = { width: 1280, height: 860 }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  contexts.push(context);
  return context.newPage();
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
    await chat.serviceHealth('chat').getByText('healthy').waitFor();
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

    // Regenerate asks again: a second reply to the same question.
    await chat.lastReply().getByRole('button', { name: 'Regenerate' }).click();
    await chat.stopButton().waitFor();
    expect(await chat.waitForReplyEnd()).toBe('complete');
    expect(await chat.replies().count()).toBe(2);
    expect(await chat.userMessages().count()).toBe(2);

    // A reload opens the same session with its messages, highlighted in the sidebar.
    await page.reload();
    await chat.replies().nth(1).waitFor();
    expect(chat.sessionIdFromUrl()).toBe(firstSession);
    expect(await chat.sessionLink(firstTitle).getAttribute('aria-current')).toBe('page');
    expect(await chat.userMessages().count()).toBe(2);

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
    await chat.replies().nth(1).waitFor();
    expect(await chat.persona('kasa').getAttribute('aria-pressed')).toBe('true');
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

  it('loads /chat within the JavaScript budget (shell plus the chat remote)', async () => {
    const page = await openPage();
    await signUp(page, platform.baseUrl);
    const token = await page.evaluate(() => localStorage.getItem('kasa_auth_token'));

    // A first visit: a fresh context (empty cache) that already holds the token.
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    contexts.push(context);
    await context.addInitScript((value) => localStorage.setItem('kasa_auth_token', value), token!);
    const fresh = await context.newPage();
    const scripts = new Map<string, Promise<Buffer>>();
    fresh.on('response', (response) => {
      if (response.request().resourceType() === 'script')
        scripts.set(new URL(response.url()).pathname, response.body());
    });
    await fresh.goto(`${platform.baseUrl}/chat`, { waitUntil: 'networkidle' });
    await new ChatPage(fresh).composer().waitFor();

    const sizes = await Promise.all(
      [...scripts].map(async ([path, body]) => ({ path, gzip: zlib.gzipSync(await body).length })),
    );
    const total = sizes.reduce((sum, file) => sum + file.gzip, 0);
    const remoteEntry = sizes.find((file) => file.path === '/remotes/chat/remoteEntry.js');
    console.log(
      [
        `/chat first load: ${(total / 1024).toFixed(1)} KB gzip in ${sizes.length} scripts; ` +
          `chat remoteEntry.js ${((remoteEntry?.gzip ?? 0) / 1024).toFixed(1)} KB gzip`,
        ...sizes.map((file) => `  ${(file.gzip / 1024).toFixed(1).padStart(6)} KB  ${file.path}`),
      ].join('\n'),
    );
    expect(remoteEntry).toBeDefined();
    expect(remoteEntry!.gzip).toBeLessThanOrEqual(30 * 1024);
    expect(total).toBeLessThanOrEqual(200 * 1024);
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
