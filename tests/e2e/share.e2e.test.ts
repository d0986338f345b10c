import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { seriousAxeViolations } from '../support/axe';
import { TestContexts, launchBrowser } from '../support/browser';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { AuthPage } from './pages/AuthPage';
import { ChatPage } from './pages/ChatPage';
import { WIDTHS, isPhone, onScreen, sidewaysOverflow, type Viewport } from './pages/screens';

let browser: Browser;
let platform: RunningPlatform;
const contexts = new TestContexts();

beforeAll(async () => {
  [browser, platform] = await Promise.all([launchBrowser(), startPlatform({ CHAT_OFFLINE_WORD_DELAY_MS: '5' })]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
});

afterEach(() => contexts.closeAll());

/** The smallest comfortable touch target on a phone (WCAG 2.5.5): 44 CSS px. */
const TOUCH_PX = 44;

async function openPage(options: { clipboard?: boolean; viewport?: Viewport } = {}): Promise<Page> {
  const page = await contexts.newPage(browser, options.viewport ? { viewport: options.viewport } : {});
  if (options.clipboard)
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: platform.baseUrl });
  return page;
}

/** Signs a new person up and holds a one-question conversation; returns the chat page. */
async function conversationOf(page: Page, question: string): Promise<ChatPage> {
  const id = randomUUID().slice(0, 8);
  const auth = new AuthPage(page);
  await auth.open(platform.baseUrl);
  await auth.signUp({ username: `esi_${id}`, email: `esi.${id}@example.com`, password: 'adinkra-sika' });
  await page.waitForURL(`${platform.baseUrl}/chat`);
  const chat = new ChatPage(page);
  await chat.app().waitFor();
  await chat.send(question);
  await chat.waitForReplyEnd();
  return chat;
}

describe('sharing a conversation as a read-only link', () => {
  // On a phone the Share button stays in the conversation's header, beside its title (the conversations are in a
  // drawer, but sharing is about the conversation on screen).
  it.each(WIDTHS)(
    'gives a link that someone without an account reads, until the owner stops sharing, at %s',
    async (_width, viewport) => {
      const owner = await openPage({ clipboard: true, viewport });
      await conversationOf(owner, 'How much does the Pro plan cost?');

      const shareButton = owner.getByTestId('share-button');
      expect(await onScreen(shareButton)).toBe('on screen');
      if (isPhone(viewport)) expect((await shareButton.boundingBox())!.height).toBeGreaterThanOrEqual(TOUCH_PX);
      await shareButton.click();
      const dialog = owner.getByTestId('share-dialog');
      await dialog.getByRole('heading', { name: 'Share this conversation' }).waitFor();
      await dialog.getByRole('button', { name: 'Create link' }).click();
      const linkBox = dialog.getByTestId('share-link');
      await linkBox.waitFor();
      // The dialog, its link and its buttons fit the screen.
      for (const part of [dialog, linkBox, dialog.getByRole('button', { name: 'Copy link' })])
        expect(await onScreen(part)).toBe('on screen');
      expect(await sidewaysOverflow(owner)).toBe(0);
      const link = await linkBox.inputValue();
      expect(link).toMatch(new RegExp(`^${platform.baseUrl}/share/[A-Za-z0-9_-]{22}$`));
      expect(await dialog.getByTestId('share-count').textContent()).toMatch(/^2 messages are shared/);
      await dialog.getByRole('button', { name: 'Copy link' }).click();
      await dialog.getByText('Copied').waitFor();
      expect(await owner.evaluate(() => navigator.clipboard.readText())).toBe(link);
      expect(await seriousAxeViolations(owner)).toEqual([]);

      // A reader: a fresh browser with no account.
      const reader = await openPage({ viewport });
      await reader.goto(link);
      await reader.getByTestId('shared-messages').waitFor();
      expect(await onScreen(reader.getByTestId('shared-user'))).toBe('on screen');
      expect(await sidewaysOverflow(reader)).toBe(0);
      expect(await reader.getByTestId('shared-user').allTextContents()).toEqual([
        expect.stringContaining('How much does the Pro plan cost?'),
      ]);
      expect(await reader.getByTestId('shared-assistant').textContent()).toContain('Pro costs $29 per month');
      await reader.getByRole('link', { name: 'Start your own conversation' }).waitFor();
      expect(await reader.title()).toContain('– Kasa');
      // Read-only: nothing to write with.
      expect(await new ChatPage(reader).composer().count()).toBe(0);
      expect(await seriousAxeViolations(reader)).toEqual([]);

      // Escape closes the dialog and gives focus back to the Share button; stopping sharing kills the link.
      await owner.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      expect(await owner.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('share-button');
      await owner.getByTestId('share-button').click();
      const stop = dialog.getByRole('button', { name: 'Stop sharing' });
      await stop.waitFor();
      expect(await onScreen(stop)).toBe('on screen');
      await stop.click();
      await dialog.getByTestId('share-stopped').waitFor();
      await dialog.getByRole('button', { name: 'Create link' }).waitFor();

      await reader.reload();
      await reader.getByTestId('shared-gone').waitFor();
      expect(await reader.getByRole('heading', { level: 1 }).textContent()).toBe('This link does not work');
      expect(await onScreen(reader.getByRole('heading', { level: 1 }))).toBe('on screen');
    },
  );

  it('says plainly that a link that never existed does not work', async () => {
    const reader = await openPage();
    await reader.goto(`${platform.baseUrl}/share/${'A'.repeat(22)}`);
    await reader.getByTestId('shared-gone').waitFor();
    expect(await seriousAxeViolations(reader)).toEqual([]);
  });
});
