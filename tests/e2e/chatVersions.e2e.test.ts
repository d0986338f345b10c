import { eventually } from '@kasa/test-kit';
import type { Browser, Page } from 'playwright-core';
import { seriousAxeViolations } from '../support/axe';
import { TestContexts, launchBrowser } from '../support/browser';
import { FakeOpenAI, fakeProviderEnv } from '../support/fakeOpenAI';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { ChatPage } from './pages/ChatPage';
import { signUpToChat } from './pages/people';
import { MessageVersions } from './pages/MessageVersions';

/**
 * Editing a message and regenerating an answer in the chat, in real Chromium against the built platform, with a fake
 * AI provider whose answers (and the prompts it receives) the test controls: edit, the new answer, back to version 1
 * with the arrows, regenerate to 2/2, and a reload that keeps the chosen branch — on a desktop and a phone.
 */
let browser: Browser;
let platform: RunningPlatform;
const provider = new FakeOpenAI();
const contexts = new TestContexts();

beforeAll(async () => {
  await provider.start();
  [browser, platform] = await Promise.all([launchBrowser(), startPlatform(fakeProviderEnv(provider))]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
  await provider.stop();
});

afterEach(() => contexts.closeAll());

async function signedIn(viewport: { width: number; height: number }): Promise<Page> {
  const page = await contexts.newPage(browser, { viewport });
  await signUpToChat(page, platform.baseUrl);
  return page;
}

/** What the provider was last asked, without the system prompt. */
const lastPrompt = () =>
  provider.requests
    .at(-1)!
    .body.messages.filter((m) => m.role !== 'system')
    .map((m) => `${m.role}: ${String(m.content)}`);

describe.each([
  ['a desktop', { width: 1280, height: 860 }],
  ['a phone', { width: 375, height: 740 }],
])('versions of messages on %s', (_label, viewport) => {
  it('edits a message, goes back to version 1, regenerates to 2/2, and keeps that branch across a reload', async () => {
    const page = await signedIn(viewport);
    const chat = new ChatPage(page);
    const versions = new MessageVersions(page);

    provider.mode = { kind: 'ok', text: 'Accra is the capital of Ghana.', delayMs: 10 };
    await chat.send('What is the capital of Ghana?');
    expect(await chat.waitForReplyEnd()).toBe('complete');
    await eventually(async () => chat.sessionIdFromUrl() !== null, { timeoutMs: 10_000, what: 'the session URL' });
    const question = versions.userMessage();
    expect(await versions.counter(question)).toBeNull();

    // Edit opens an inline editor on the message; Escape leaves it unchanged and gives focus back to Edit.
    await versions.editButton(question).click();
    await versions.editField(question).waitFor();
    expect(await versions.editField(question).inputValue()).toBe('What is the capital of Ghana?');
    expect((await versions.focused()).tag).toBe('textarea');
    await versions.editField(question).press('Escape');
    await versions.editor(question).waitFor({ state: 'detached' });
    expect((await versions.focused()).label).toBe('Edit');
    expect(await versions.textOf(question)).toBe('What is the capital of Ghana?');

    // Save sends the new text: its answer replaces the old one in the view.
    provider.mode = { kind: 'ok', text: 'Lomé is the capital of Togo.', delayMs: 10 };
    await versions.editButton(question).click();
    await versions.editField(question).fill('What is the capital of Togo?');
    await versions.editor(question).getByRole('button', { name: 'Save' }).click();
    await chat.stopButton().waitFor();
    expect(await chat.waitForReplyEnd()).toBe('complete');
    expect(lastPrompt()).toEqual(['user: What is the capital of Togo?']);
    await eventually(async () => (await versions.counter(versions.userMessage())) === '2/2', {
      timeoutMs: 10_000,
      what: 'the edited message to show 2/2',
    });
    expect(await versions.textOf(versions.userMessage())).toBe('What is the capital of Togo?');
    expect(await versions.textOf(versions.reply())).toBe('Lomé is the capital of Togo.');
    expect(await chat.userMessages().count()).toBe(1);
    expect(await chat.replies().count()).toBe(1);
    expect(await versions.next(versions.userMessage()).isDisabled()).toBe(true);

    // Back to version 1 with the arrows: the first question and its own answer; focus stays on the arrows.
    await versions.previous(versions.userMessage()).click();
    await eventually(async () => (await versions.counter(versions.userMessage())) === '1/2', {
      timeoutMs: 10_000,
      what: 'version 1 of the question',
    });
    expect(await versions.textOf(versions.userMessage())).toBe('What is the capital of Ghana?');
    expect(await versions.textOf(versions.reply())).toBe('Accra is the capital of Ghana.');
    expect((await versions.focused()).group).toBe('Version 1 of 2');

    // Regenerate asks the service for another version of this answer: 2/2, and the prompt is this branch only.
    provider.mode = { kind: 'ok', text: 'Accra, on the Gulf of Guinea, is the capital.', delayMs: 10 };
    await versions.regenerate(versions.reply()).click();
    await chat.stopButton().waitFor();
    expect(await chat.waitForReplyEnd()).toBe('complete');
    expect(lastPrompt()).toEqual(['user: What is the capital of Ghana?']);
    await eventually(async () => (await versions.counter(versions.reply())) === '2/2', {
      timeoutMs: 10_000,
      what: 'the regenerated answer to show 2/2',
    });
    expect(await versions.textOf(versions.reply())).toBe('Accra, on the Gulf of Guinea, is the capital.');
    expect(await chat.replies().count()).toBe(1);

    // A reload shows the branch chosen: question version 1 of 2, answer version 2 of 2.
    await page.reload();
    await versions.reply().getByTestId('message-versions').waitFor();
    expect(await versions.counter(versions.userMessage())).toBe('1/2');
    expect(await versions.textOf(versions.userMessage())).toBe('What is the capital of Ghana?');
    expect(await versions.counter(versions.reply())).toBe('2/2');
    expect(await versions.textOf(versions.reply())).toBe('Accra, on the Gulf of Guinea, is the capital.');

    // The earlier answer is one arrow away.
    await versions.previous(versions.reply()).click();
    await eventually(async () => (await versions.counter(versions.reply())) === '1/2', {
      timeoutMs: 10_000,
      what: 'the first answer',
    });
    expect(await versions.textOf(versions.reply())).toBe('Accra is the capital of Ghana.');

    // The arrows, Edit and the editor are labelled and keyboard-operable: nothing serious for axe to find, editing
    // included.
    expect(await seriousAxeViolations(page)).toEqual([]);
    await versions.editButton(versions.userMessage()).click();
    await versions.editField(versions.userMessage()).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await versions.editor(versions.userMessage()).getByRole('button', { name: 'Cancel' }).click();
    await versions.editor(versions.userMessage()).waitFor({ state: 'detached' });

    // Everything fits the screen: nothing scrolls sideways, and on a phone the arrows are big enough to tap.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    if (viewport.width < 500) {
      const box = await versions.previous(versions.reply()).boundingBox();
      expect(box?.height).toBeGreaterThanOrEqual(44);
      expect(box?.width).toBeGreaterThanOrEqual(44);
    }
  });
});
