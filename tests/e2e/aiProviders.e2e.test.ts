import { eventually } from '@kasa/test-kit';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Locator, Page } from 'playwright-core';
import { seriousAxeViolations } from '../support/axe';
import { TestContexts, launchBrowser } from '../support/browser';
import { FakeOpenAI } from '../support/fakeOpenAI';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { AiProvidersPage } from './pages/AiProvidersPage';
import { AuthPage } from './pages/AuthPage';
import { ChatPage } from './pages/ChatPage';
import { signUpToChat } from './pages/people';

/**
 * AI providers in the browser, the whole story on one running platform: the first-run setup link makes an operator,
 * who connects an OpenAI-compatible server (a fake one) on the setup page's Connect AI step, testing it first; the
 * next reply of a person already signed in elsewhere comes from it, without a restart; the operator removes it in the
 * console and the next reply falls back to the offline notes. Then the console's AI providers section: adding from
 * its dialog, moving, switching off, at 375 and 1280 px, light, dark and right to left, with axe.
 */
const FAKE_TEXT = 'Akwaaba from the fake provider.';
/** The platform's auth database, named so that the setup link can be printed for it. */
const AUTH_DB_NAME = `kasa_auth_ai_${randomUUID().slice(0, 8)}`;
const run = randomUUID().slice(0, 8);
const OPERATOR = { username: `opa_${run}`, email: `opa.${run}@example.com`, password: 'nkrumah-1957' };

let platform: RunningPlatform;
let browser: Browser;
let fake: FakeOpenAI;
const contexts = new TestContexts();

beforeAll(async () => {
  fake = await new FakeOpenAI().start();
  fake.mode = { kind: 'ok', text: FAKE_TEXT };
  // No provider in the environment: the offline notes answer until the operator connects one.
  [platform, browser] = await Promise.all([
    startPlatform({ AUTH_DB_NAME, CHAT_OFFLINE_WORD_DELAY_MS: '5' }),
    launchBrowser(),
  ]);
}, 120_000);

afterAll(async () => {
  await contexts.closeAll();
  await browser?.close();
  await platform?.stop();
  await fake?.stop();
});

/** `npm run kasa -- <argv>` against this platform, as whoever runs Kasa would on its machine. */
async function kasaCommand(...argv: string[]): Promise<string> {
  const command = path.resolve(__dirname, '../../scripts/kasa.js');
  const { stdout } = await promisify(execFile)(process.execPath, [command, ...argv], {
    env: { ...process.env, AUTH_DB_NAME, KASA_PUBLIC_URL: platform.baseUrl, NODE_ENV: 'test' },
  });
  return stdout;
}

/** Sends a message in the person's chat and answers the reply's text and the provider that wrote it. */
async function ask(chat: ChatPage, text: string): Promise<{ text: string; provider: string }> {
  const before = await chat.replies().count();
  await chat.send(text);
  await eventually(async () => (await chat.replies().count()) > before, { timeoutMs: 15_000 });
  expect(await chat.waitForReplyEnd(30_000)).toBe('complete');
  return {
    text: await chat.lastReplyText(),
    provider: (await chat.lastReply().getByTestId('message-provider').innerText()).trim(),
  };
}

async function api(method: string, urlPath: string, token?: string, body?: unknown) {
  const res = await fetch(`${platform.baseUrl}${urlPath}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, any>) : {} };
}

/** A fresh access token of the operator, as signing in gives it. */
async function operatorToken(): Promise<string> {
  const res = await api('POST', '/api/auth/login', undefined, { email: OPERATOR.email, password: OPERATOR.password });
  expect(res.status).toBe(200);
  return res.body.token as string;
}

/** Signs the operator in through the web app and waits for the chat they land on. */
async function signInOperator(page: Page): Promise<void> {
  const auth = new AuthPage(page);
  await auth.open(platform.baseUrl);
  await auth.signIn(OPERATOR);
  await page.waitForURL(`${platform.baseUrl}/chat`);
}

/** Waits for a connection test's outcome and expects it passed (what it says is in the failure otherwise). */
async function expectTestPassed(result: Locator): Promise<void> {
  const done = result.and(result.page().locator('[data-state="ok"], [data-state="failed"]'));
  await done.waitFor({ timeout: 40_000 });
  expect({ state: await result.getAttribute('data-state'), text: await result.innerText() }).toMatchObject({
    state: 'ok',
  });
}

/** The page is no wider than the window (nothing scrolls sideways) and axe finds nothing serious. */
async function checkLayout(page: Page, label: string, width: number): Promise<void> {
  expect({ label, overflow: await page.evaluate((w) => document.documentElement.scrollWidth > w, width) }).toEqual({
    label,
    overflow: false,
  });
  expect({ label, violations: await seriousAxeViolations(page) }).toEqual({ label, violations: [] });
}

describe('AI providers in the browser', () => {
  it('connects a provider on first run, answers from it at once, and falls back when it is removed', async () => {
    // Someone already chatting, on another browser: the offline notes answer them.
    const person = await contexts.newPage(browser);
    await signUpToChat(person, platform.baseUrl);
    const chat = new ChatPage(person);
    const first = await ask(chat, 'What is Kasa?');
    expect(first.provider).toBe('via offline');
    expect(first.text).toContain('offline mode');

    // The setup link makes the person who opens it, once signed up, the operator.
    const link = /(http\S+\/setup\?token=\S+)/.exec(await kasaCommand('setup-link'))?.[1];
    expect(link).toBeDefined();
    const page = await contexts.newPage(browser);
    await page.goto(link!);
    await page.getByRole('link', { name: 'Sign up or sign in' }).click();
    await new AuthPage(page).signUp(OPERATOR);
    await page.waitForURL(`${platform.baseUrl}/setup`);
    await page.getByRole('button', { name: 'Become the operator' }).click();
    await page.getByRole('heading', { name: 'You run this Kasa now' }).waitFor();

    // The Connect AI step follows: the key choice, with an OpenAI-compatible server at the fake's address.
    const ai = new AiProvidersPage(page);
    await ai.connectStep().getByRole('heading', { name: 'Connect AI' }).waitFor();
    await page.waitForURL(`${platform.baseUrl}/setup?step=ai`);
    await ai.connectWithKey({ provider: 'OpenAI-compatible server', baseURL: fake.baseURL, model: 'fake-model' });
    // Saving waits for a test that passed.
    expect(await ai.stepSaveButton().isDisabled()).toBe(true);
    const requestsBefore = fake.requests.length;
    await ai.stepTestButton().click();
    await expectTestPassed(ai.stepTestResult());
    expect(await ai.stepTestResult().innerText()).toMatch(/Connected: fake-model answered in [\d,]+ ms\./);
    expect(await ai.stepTestResult().innerText()).toContain(FAKE_TEXT);
    expect(fake.requests.length).toBeGreaterThan(requestsBefore);
    await ai.stepSaveButton().click();
    await ai
      .connectStep()
      .getByTestId('ai-connected')
      .getByText('openai-compatible is connected: the next reply comes from it.')
      .waitFor();

    // The person's next reply comes from it: same platform, no restart, no new sign-in.
    const second = await ask(chat, 'Tell me something.');
    expect(second.text).toContain(FAKE_TEXT);
    expect(second.provider).toBe('via openai-compatible');

    // The operator's navigation offers the console and "Set up AI", which opens the step again.
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Set up AI' }).click();
    await page.waitForURL(`${platform.baseUrl}/setup?step=ai`);
    await ai.connectStep().getByTestId('ai-chain').getByText('Connected already: openai-compatible.').waitFor();

    // In the console: the provider in the chain, with its kind and model; removing it asks first.
    await nav.getByRole('link', { name: 'Operator console' }).click();
    await ai.section().click();
    await page.waitForURL(`${platform.baseUrl}/admin/providers`);
    const item = ai.provider('openai-compatible');
    await item.waitFor();
    await item.getByText('OpenAI-compatible server').waitFor();
    await item.getByText('fake-model').waitFor();
    expect(await item.getByTestId('key-hint').innerText()).toBe('None');
    await item.getByRole('button', { name: 'Test connection' }).click();
    await expectTestPassed(item.getByTestId('test-result'));
    await item.getByRole('button', { name: 'Remove' }).click();
    const confirm = ai.confirmDialog('openai-compatible');
    await confirm.waitFor();
    // Cancel has focus first, so Enter never removes by accident.
    expect(await confirm.getByRole('button', { name: 'Cancel' }).evaluate((b) => b === document.activeElement)).toBe(
      true,
    );
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await ai.notice().getByText('openai-compatible is removed from the chain.').waitFor();
    await page.getByTestId('providers-empty').waitFor();

    // The next reply falls back to the offline notes.
    const third = await ask(chat, 'And now?');
    expect(third.provider).toBe('via offline');
    expect(third.text).toContain('offline mode');
    expect(third.text).not.toContain(FAKE_TEXT);
  }, 240_000);

  it('adds, orders and switches off providers in the console, at 375 and 1280 px, light, dark and right to left', async () => {
    // What the chain holds already (nothing, when the story above tidied up after itself).
    const before = (
      (await api('GET', '/api/admin/providers', await operatorToken())).body.providers as { name: string }[]
    ).map((provider) => provider.name);
    const page = await contexts.newPage(browser, { viewport: { width: 1280, height: 860 }, colorScheme: 'light' });
    await signInOperator(page);
    const ai = new AiProvidersPage(page);
    await ai.open(platform.baseUrl);

    // Adding from the dialog: the kind prefills its defaults; a test shows what the model said; then Add.
    for (const name of ['lab-one', 'lab-two']) {
      await ai.addButton().click();
      await ai.dialog().waitFor();
      await ai.fillDialog({ kind: 'OpenAI-compatible server', name, baseURL: fake.baseURL, model: 'fake-model' });
      await ai.dialog().getByRole('button', { name: 'Test connection' }).click();
      await expectTestPassed(ai.dialog().getByTestId('test-result'));
      await ai.dialog().getByRole('button', { name: 'Add provider' }).click();
      await ai.notice().getByText(`${name} is in the chain: the next reply can use it.`).waitFor();
    }
    expect(await ai.names()).toEqual([...before, 'lab-one', 'lab-two']);

    // A name taken is refused beside the field, before anything is sent.
    await ai.addButton().click();
    await ai.fillDialog({ kind: 'OpenAI-compatible server', name: 'lab-one', baseURL: fake.baseURL });
    await ai.dialog().getByRole('button', { name: 'Add provider' }).click();
    await ai.dialog().getByText('A provider already has this name. Pick another one.').waitFor();
    await ai.dialog().getByRole('button', { name: 'Cancel' }).click();
    await ai.dialog().waitFor({ state: 'detached' });

    // Moving from the keyboard: the whole order is sent, and focus stays on the button pressed.
    const down = ai.provider('lab-one').getByRole('button', { name: 'Move down' });
    await down.focus();
    await page.keyboard.press('Enter');
    await eventually(
      async () => JSON.stringify(await ai.names()) === JSON.stringify([...before, 'lab-two', 'lab-one']),
    );
    await eventually(() =>
      ai
        .provider('lab-one')
        .getByRole('button', { name: 'Move up' })
        .evaluate((b) => b === document.activeElement),
    );

    // Switched off, it stays in the chain, marked.
    await ai.provider('lab-two').getByRole('button', { name: 'Disable' }).click();
    await ai.provider('lab-two').getByText('Disabled', { exact: true }).waitFor();
    await checkLayout(page, 'console, 1280 px, light', 1280);

    // The Connect AI step on its own, for an operator who comes back to it.
    await page.goto(`${platform.baseUrl}/setup?step=ai`);
    await ai.connectStep().getByRole('heading', { level: 1, name: 'Connect AI' }).waitFor();
    await page.getByTestId('ai-chain').waitFor();
    await checkLayout(page, 'Connect AI, 1280 px, light', 1280);

    // A phone in dark mode (the account keeps its theme: it is saved dark first).
    const dark = await api('PUT', '/api/auth/preferences/theme', await operatorToken(), {
      mode: 'dark',
      colorScheme: 'electric',
      highContrast: false,
      animations: true,
      customSettings: { borderRadius: 8, spacing: 16, fontSize: 14 },
    });
    expect(dark.status).toBe(200);
    const phone = await contexts.newPage(browser, { viewport: { width: 375, height: 812 }, colorScheme: 'dark' });
    await signInOperator(phone);
    const onPhone = new AiProvidersPage(phone);
    await onPhone.open(platform.baseUrl);
    await phone.locator('html.dark').waitFor({ state: 'attached' });
    await onPhone.provider('lab-one').waitFor();
    await checkLayout(phone, 'console, 375 px, dark', 375);
    await onPhone.provider('lab-one').getByRole('button', { name: 'Edit' }).click();
    await onPhone.dialog().waitFor();
    await checkLayout(phone, 'edit dialog, 375 px, dark', 375);
    await onPhone.dialog().getByRole('button', { name: 'Cancel' }).click();
    await phone.goto(`${platform.baseUrl}/setup?step=ai`);
    await onPhone.connectStep().waitFor();
    await phone.getByTestId('ai-chain').waitFor();
    await checkLayout(phone, 'Connect AI, 375 px, dark', 375);

    // Arabic, right to left, on a phone: the operator's language is Arabic now (saved with the account), and the
    // browser opens the console signed in.
    const token = await operatorToken();
    expect((await api('PUT', '/api/auth/preferences/language', token, { language: 'ar' })).status).toBe(200);
    const arabic = await contexts.newPage(browser, { viewport: { width: 375, height: 812 }, locale: 'ar' });
    await arabic.addInitScript((stored: string) => window.localStorage.setItem('kasa_auth_token', stored), token);
    await arabic.goto(`${platform.baseUrl}/admin/providers`);
    await arabic.locator('html[dir="rtl"]').waitFor({ state: 'attached' });
    await arabic.getByRole('heading', { level: 2, name: 'مزوّدو الذكاء الاصطناعي' }).waitFor();
    await arabic.getByTestId('provider').first().waitFor();
    await checkLayout(arabic, 'console, 375 px, Arabic', 375);
    await arabic.goto(`${platform.baseUrl}/setup?step=ai`);
    await arabic.getByRole('heading', { level: 1, name: 'ربط الذكاء الاصطناعي' }).waitFor();
    await arabic.getByTestId('ai-chain').waitFor();
    await checkLayout(arabic, 'Connect AI, 375 px, Arabic', 375);

    // Tidy: back to English, and the providers of this test leave the chain.
    expect((await api('PUT', '/api/auth/preferences/language', token, { language: 'en' })).status).toBe(200);
    for (const name of ['lab-one', 'lab-two'])
      expect((await api('DELETE', `/api/admin/providers/${name}`, token)).status).toBe(204);
  }, 240_000);
});
