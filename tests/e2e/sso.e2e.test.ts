import type { AuthResponse, TeamResponse } from '@kasa/contracts';
import { connectDatabase, createLogger } from '@kasa/service-kit';
import type { Connection } from 'mongoose';
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { TestContexts, launchBrowser } from '../support/browser';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { startTestIdp, type TestIdp } from '../support/testIdp';
import { AuthPage } from './pages/AuthPage';
import { DeveloperPage } from './pages/DeveloperPage';

/**
 * Single sign-on in the browser, against a real OpenID provider (tests/support/oidcProvider.mjs): the team's owner sets
 * it up in the developer portal's Team tab; a person of the team's domain signs in from the sign-in page through the
 * provider's own login and consent pages and lands in the chat, in the team; a refusal is said in plain words.
 */
const run = randomUUID().slice(0, 8);
const authDbName = `kasa_auth_sso_e2e_${run}`;
const DOMAIN = `acme-${run}.test`;
const CLIENT = { client_id: `kasa-${run}`, client_secret: `secret-${randomUUID()}` };
const PASSWORD = 'adinkra-sso';
const logger = createLogger({ service: 'sso-e2e', version: 'test', level: 'silent' });

let platform: RunningPlatform;
let browser: Browser;
let idp: TestIdp;
let authDb: Connection;
/** The public origin (WEB_ORIGIN): the provider sends people back there, where the start's cookie lives. */
let origin: string;
const contexts = new TestContexts();

async function api<T>(
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${platform.baseUrl}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => ({}))) as T };
}

beforeAll(async () => {
  [platform, browser] = await Promise.all([
    startPlatform({ AUTH_DB_NAME: authDbName, SSO_ALLOW_HTTP_ISSUERS: 'true' }),
    launchBrowser(),
  ]);
  origin = `http://localhost:${platform.ports.gateway}`;
  idp = await startTestIdp([{ ...CLIENT, redirect_uris: [`${origin}/api/auth/sso/callback`] }]);
  authDb = await connectDatabase({ url: process.env.MONGO_URL!, dbName: authDbName, logger, maxAttempts: 3 });
}, 120_000);

afterAll(async () => {
  await idp?.stop();
  await authDb?.dropDatabase().catch(() => undefined);
  await authDb?.close();
  await browser?.close();
  await platform?.stop();
});

afterEach(() => contexts.closeAll());

async function openPage(): Promise<Page> {
  return contexts.newPage(browser, { viewport: { width: 1280, height: 860 } });
}

describe('single sign-on in the web app', () => {
  it('lets the owner set it up in the Team tab and a person of the domain sign in through the provider', async () => {
    // The owner: an Enterprise account (sold by sales: set in the database) with a team.
    const ownerEmail = `owner.${run}@owners-${run}.test`;
    const registered = await api<AuthResponse>('POST', '/api/auth/register', {
      username: `owner_${run}`,
      email: ownerEmail,
      password: PASSWORD,
    });
    expect(registered.status).toBe(201);
    await authDb.collection('users').updateOne({ email: ownerEmail }, { $set: { subscriptionTier: 'enterprise' } });
    const team = await api<TeamResponse>('POST', '/api/developer/team', { name: 'Acme' }, registered.body.token);
    expect(team.status).toBe(201);

    const ownerPage = await openPage();
    const auth = new AuthPage(ownerPage);
    await auth.open(origin);
    await auth.signIn({ email: ownerEmail, password: PASSWORD });
    await ownerPage.waitForURL(`${origin}/chat`);
    const portal = new DeveloperPage(ownerPage);
    await portal.open(origin, 'team');
    const section = ownerPage.getByTestId('team-sso');
    await section.getByRole('heading', { name: 'Single sign-on (SSO)' }).waitFor();
    await section.getByTestId('sso-redirect-uri').getByText(`${origin}/api/auth/sso/callback`).waitFor();
    await section.getByLabel('Issuer URL').fill(idp.issuer);
    await section.getByLabel('Client ID').fill(CLIENT.client_id);
    await section.getByLabel('Client secret').fill(CLIENT.client_secret);
    await section.getByLabel('Email domains (separated by commas)').fill(DOMAIN);
    await section.getByRole('button', { name: 'Save single sign-on' }).click();
    await section.getByTestId('sso-saved').waitFor();
    await section.getByPlaceholder('Stored: leave empty to keep it').waitFor();

    // A person of the domain, from the sign-in page, through the provider's own pages.
    const email = `ama.${run}@${DOMAIN}`;
    const page = await openPage();
    await page.goto(`${origin}/auth`);
    await page.getByRole('button', { name: 'Sign in with your organisation (SSO)' }).click();
    await page.getByLabel('Work email').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.toString().startsWith(idp.issuer));
    await page.locator('input[name="login"]').fill(email);
    await page.locator('input[name="password"]').fill('anything');
    await page.locator('button[type="submit"]').click();
    // The provider's consent page, then back to Kasa.
    await page.locator('button[type="submit"]').click();
    await page.waitForURL(`${origin}/chat`);

    const account = await authDb.collection('users').findOne({ email });
    expect(account?.teamId).toBe(team.body.team.id);
  });

  it('says in plain words why a sign-in was refused, with a way back', async () => {
    const page = await openPage();
    await page.goto(`${origin}/auth/sso/callback?error=wrong_audience`);
    await page.getByRole('heading', { name: 'Single sign-on did not work' }).waitFor();
    await page.getByRole('alert').getByText('answered for another application').waitFor();
    // The reason leaves the address bar; "Try again" goes back to the sign-in page.
    expect(new URL(page.url()).search).toBe('');
    await page.getByRole('link', { name: 'Try again' }).click();
    await page.waitForURL(`${origin}/auth`);
  });
});
