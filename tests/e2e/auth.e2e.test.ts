import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { AuthPage } from './pages/AuthPage';
import { NavBar } from './pages/NavBar';

let platform: RunningPlatform;
let browser: Browser;
let page: Page;
/** The platform's auth database, named here so that the operator command can be run against it. */
const AUTH_DB_NAME = `kasa_auth_e2e_${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  [platform, browser] = await Promise.all([startPlatform({ AUTH_DB_NAME }), launchBrowser()]);
}, 120_000);

/** `npm run kasa -- <argv>` against this platform (what an operator runs on the machine Kasa runs on). */
async function kasaCommand(...argv: string[]): Promise<string> {
  const command = path.resolve(__dirname, '../../scripts/kasa.js');
  const { stdout } = await promisify(execFile)(process.execPath, [command, ...argv], {
    env: { ...process.env, AUTH_DB_NAME, KASA_PUBLIC_URL: platform.baseUrl, NODE_ENV: 'test' },
  });
  return stdout;
}

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
});

beforeEach(async () => {
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
});

afterEach(async () => {
  await page.context().close();
});

const TOKEN_KEY = 'kasa_auth_token';
const storedToken = () => page.evaluate((key) => window.localStorage.getItem(key), TOKEN_KEY);

describe('signing up, in and out in a real browser', () => {
  it('signs up through the UI, lands on /chat, stays signed in after a reload, and logs out', async () => {
    const id = randomUUID().slice(0, 8);
    const person = { username: `efua_${id}`, email: `efua.${id}@example.com`, password: 'yaa-asantewaa' };
    const nav = new NavBar(page);

    await page.goto(platform.baseUrl);
    await page.getByRole('heading', { name: 'Your Voice. Your AI. Your World.' }).waitFor();
    await nav.signInButton().waitFor();

    const auth = new AuthPage(page);
    await auth.open(platform.baseUrl);
    await auth.signUp(person);

    await page.waitForURL(`${platform.baseUrl}/chat`);
    await page.getByTestId('chat-user').getByText(person.username).waitFor();
    expect(await storedToken()).toBeTruthy();
    await nav.logoutButton().waitFor();
    await nav.chatLink().waitFor();

    await page.reload();
    await page.getByTestId('chat-user').getByText(person.username).waitFor();
    expect(page.url()).toBe(`${platform.baseUrl}/chat`);

    const token = await storedToken();
    await nav.logoutButton().click();
    await page.waitForURL(`${platform.baseUrl}/`);
    await nav.signInButton().waitFor();
    expect(await storedToken()).toBeNull();
    expect(await nav.chatLink().count()).toBe(0);

    // The server revoked the token: it no longer works even if someone kept a copy.
    const me = await fetch(`${platform.baseUrl}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(401);

    // And /chat now asks to sign in.
    await page.goto(`${platform.baseUrl}/chat`);
    await page.getByText('Authentication Required').waitFor();
  });

  it('shows the spec toasts for bad input and for a wrong password', async () => {
    const auth = new AuthPage(page);
    await auth.open(platform.baseUrl);
    await auth.signUp({ username: 'abena', email: 'abena@example.com', password: 'secret1', confirm: 'secret2' });
    const toast = page.getByTestId('toast');
    await toast.getByText('Password Mismatch').waitFor();
    await toast.getByText('Passwords do not match').waitFor();

    await auth.signUp({ username: 'abena', email: 'abena@example.com', password: '12345' });
    await toast.getByText('Weak Password').waitFor();
    await toast.getByText('Password must be at least 6 characters long').waitFor();
    expect(await toast.count()).toBe(1);

    await auth.signIn({ email: `nobody.${randomUUID().slice(0, 8)}@example.com`, password: 'whatever' });
    await toast.getByText('Login Failed').waitFor();
    await toast.getByText('Invalid email or password').waitFor();
    expect(page.url()).toBe(`${platform.baseUrl}/auth`);
  });

  it('signs out by itself when the stored token is no longer valid', async () => {
    await page.goto(platform.baseUrl);
    await page.evaluate((key) => window.localStorage.setItem(key, 'not-a-valid-token'), TOKEN_KEY);
    await page.goto(`${platform.baseUrl}/chat`);
    await page.getByText('Authentication Required').waitFor();
    expect(await storedToken()).toBeNull();
  });
});

describe('the first-run setup link', () => {
  it('makes the person who opens it, after signing up, the operator; then it is used up', async () => {
    const printed = await kasaCommand('setup-link');
    const link = /(http\S+\/setup\?token=\S+)/.exec(printed)?.[1];
    expect(link).toBeDefined();

    // Signed out: the page asks to sign up or in first, and the secret leaves the address bar.
    await page.goto(link!);
    await page.getByRole('heading', { name: 'Set up this Kasa' }).waitFor();
    await page.waitForURL(`${platform.baseUrl}/setup`);
    await page.getByRole('link', { name: 'Sign up or sign in' }).click();
    const id = randomUUID().slice(0, 8);
    await new AuthPage(page).signUp({
      username: `opa_${id}`,
      email: `opa.${id}@example.com`,
      password: 'nkrumah-1957',
    });

    // Back on the setup page, signed in, with the link kept for this tab.
    await page.waitForURL(`${platform.baseUrl}/setup`);
    await page.getByRole('button', { name: 'Become the operator' }).click();
    await page.getByRole('heading', { name: 'You run this Kasa now' }).waitFor();
    expect(await kasaCommand('operators')).toContain(`opa.${id}@example.com`);

    // The link works once; opened again it says what to do.
    await page.goto(link!);
    await page.getByRole('button', { name: 'Become the operator' }).click();
    await page
      .getByRole('alert')
      .getByText(/not valid any more/)
      .waitFor();
    expect(await kasaCommand('setup-link')).toMatch(/already has an operator/);
  });
});
