import { eventually } from '@kasa/test-kit';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { seriousAxeViolations } from '../support/axe';
import { TestContexts, launchBrowser } from '../support/browser';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { AdminConsole } from './pages/AdminConsole';
import { AuthPage } from './pages/AuthPage';
import { signUpToChat } from './pages/people';

/**
 * The operator console through the built platform in the browser: an operator (named in KASA_OPERATOR_EMAILS) finds a
 * person, suspends them (their next call is refused), restores them, changes their plan with a reason, turns an
 * Enterprise inquiry into a contract, adds and removes an operator, and finds all of it in the audit log, filtered and
 * exported as CSV; anyone else who opens /admin gets the not-found page and never the console's code.
 */
const run = randomUUID().slice(0, 8);
const OPERATOR_EMAIL = `operator.${run}@example.com`;
const OPERATOR_PASSWORD = 'adinkra-sika';

let platform: RunningPlatform;
let operator: Account;
let browser: Browser;
const contexts = new TestContexts();

interface Account {
  id: string;
  username: string;
  email: string;
  token: string;
}

beforeAll(async () => {
  [platform, browser] = await Promise.all([startPlatform({ KASA_OPERATOR_EMAILS: OPERATOR_EMAIL }), launchBrowser()]);
  // Suspensions reach the gateway over its broadcast queue: wait until it listens.
  await eventually(
    async () => {
      const ready = await fetch(`http://127.0.0.1:${platform.ports.admin}/readyz`).catch(() => undefined);
      const body = (await ready?.json().catch(() => undefined)) as { info?: { revocationFeed?: string } } | undefined;
      return body?.info?.revocationFeed === 'connected';
    },
    { timeoutMs: 15_000 },
  );
  // The account whose e-mail KASA_OPERATOR_EMAILS names: an operator from its first request.
  operator = await register('operator', OPERATOR_EMAIL);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
});

afterEach(() => contexts.closeAll());

async function api(method: string, path: string, credential?: string, body?: unknown) {
  const res = await fetch(`${platform.baseUrl}${path}`, {
    method,
    headers: {
      ...(credential ? { authorization: `Bearer ${credential}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: Record<string, any> = {};
  try {
    json = text ? (JSON.parse(text) as Record<string, any>) : {};
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: json };
}

async function register(prefix: string, email?: string): Promise<Account> {
  const id = randomUUID().slice(0, 8);
  const person = {
    username: `${prefix}_${id}`,
    email: email ?? `${prefix}.${id}@example.com`,
    password: email ? OPERATOR_PASSWORD : 'akwaaba-123',
  };
  const res = await api('POST', '/api/auth/register', undefined, person);
  expect(res.status).toBe(201);
  return { id: res.body.user.id, username: person.username, email: person.email, token: res.body.token };
}

/** Signs the operator in through the web app, as they would, and waits for the chat they land on. */
async function signInOperator(page: Page): Promise<void> {
  const auth = new AuthPage(page);
  await auth.open(platform.baseUrl);
  await auth.signIn({ email: OPERATOR_EMAIL, password: OPERATOR_PASSWORD });
  await page.waitForURL(`${platform.baseUrl}/chat`);
}

/** Which /remotes/<name>/ the page has fetched code from. */
function remotesFetched(page: Page): Set<string> {
  const names = new Set<string>();
  page.on('request', (request) => {
    const match = /\/remotes\/([a-z0-9-]+)\//.exec(new URL(request.url()).pathname);
    if (match) names.add(match[1]!);
  });
  return names;
}

describe('the operator console', () => {
  it('is the not-found page to a signed-out visitor and to a person who is not an operator', async () => {
    const visitor = await contexts.newPage(browser);
    const visitorRemotes = remotesFetched(visitor);
    await visitor.goto(`${platform.baseUrl}/admin/audit`);
    await visitor.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    expect(await visitor.getByTestId('admin-app').count()).toBe(0);

    const page = await contexts.newPage(browser, { viewport: { width: 375, height: 812 } });
    const remotes = remotesFetched(page);
    await signUpToChat(page, platform.baseUrl);
    await page.goto(`${platform.baseUrl}/admin`);
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    expect(await page.getByTestId('admin-app').count()).toBe(0);
    expect(await page.getByText('Operator console').count()).toBe(0);
    expect([...visitorRemotes, ...remotes]).not.toContain('admin');
    // The API agrees: every /api/admin route is a 404 to them.
    const token = (await page.evaluate(() => localStorage.getItem('kasa_auth_token')))!;
    expect((await api('GET', '/api/admin/people', token)).status).toBe(404);
  });

  it('finds, suspends, restores and re-plans a person, grants Enterprise, and shows it all in the audit log', async () => {
    const ama = await register('ama');
    const key = await api('POST', '/api/developer/keys', ama.token, { name: 'Ama bot' });
    expect(key.status).toBe(201);
    const secret: string = key.body.secret ?? key.body.key?.secret;
    const kofi = await register('kofi');
    const inquiry = await api('POST', '/api/billing/checkout', kofi.token, {
      planId: 'enterprise',
      inquiry: { company: `Osu Works ${run}`, seats: 12, phone: '+233 20 000 0000', message: 'A team of twelve.' },
    });
    expect(inquiry.status).toBe(202);
    const inquiryId: string = inquiry.body.inquiryId;

    const page = await contexts.newPage(browser);
    await signInOperator(page);
    const admin = new AdminConsole(page);

    // The shell offers the console to an operator.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Operator console' }).click();
    await page.waitForURL(`${platform.baseUrl}/admin`);
    await admin.app().getByRole('heading', { level: 1, name: 'Operator console' }).waitFor();
    await eventually(async () => (await page.title()) === 'Operator console · Kasa');

    // People: a search that matches nobody says so; Ama is found by her e-mail address.
    await admin.search(`nobody-${run}`);
    await page.getByTestId('people-empty').getByText(`Nobody matches “nobody-${run}”`).waitFor();
    await admin.openPerson(ama.email, ama.id);
    expect(page.url()).toContain(`/admin/people/${ama.id}?q=`);
    const person = admin.person(ama.id);
    await person.getByText(ama.email).waitFor();
    expect(await person.getByTestId('person-plan').innerText()).toBe('Free');
    await person.getByTestId('person-keys').getByText('Ama bot').waitFor();
    expect(await person.getByTestId('person-last-sign-in').innerText()).toBeTruthy();
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Suspend: a reason is required; then her next call, by token or by key, is refused.
    await person.getByRole('button', { name: 'Suspend' }).click();
    const suspend = admin.dialog(`Suspend ${ama.username}?`);
    await suspend.getByRole('button', { name: 'Suspend' }).click();
    await suspend.getByText('Say why: a reason is required.').waitFor();
    await suspend.getByLabel('Reason (required)').fill('Sending spam through the API');
    await suspend.getByRole('button', { name: 'Suspend' }).click();
    await admin.notice().getByText(`${ama.username} is suspended`).waitFor();
    await person.getByText(/^Suspended since /).waitFor();
    await person.getByText('Reason: Sending spam through the API').waitFor();
    await eventually(async () => (await api('GET', '/api/auth/me', ama.token)).status === 401, { timeoutMs: 1_000 });
    expect((await api('GET', '/api/personas', secret)).status).toBe(401);

    // Suspending oneself is refused with the console's own words (the API's 409).
    await admin.openPerson(OPERATOR_EMAIL, operator.id);
    await admin.person(operator.id).getByRole('button', { name: 'Suspend' }).click();
    const self = admin.dialog(`Suspend ${operator.username}?`);
    await self.getByLabel('Reason (required)').fill('Testing');
    await self.getByRole('button', { name: 'Suspend' }).click();
    await self.getByTestId('action-error').getByText('You cannot suspend yourself.').waitFor();
    await self.getByRole('button', { name: 'Cancel' }).click();
    await self.waitFor({ state: 'detached' });

    // Restore: the reason is optional; her token works again.
    await admin.openPerson(ama.email, ama.id);
    await person.getByRole('button', { name: 'Restore' }).click();
    const restore = admin.dialog(`Restore ${ama.username}?`);
    await restore.getByLabel('Reason (optional)').fill('Promised to stop');
    await restore.getByRole('button', { name: 'Restore' }).click();
    await admin.notice().getByText(`${ama.username} is restored.`).waitFor();
    await person.getByText('Active: they can sign in and use their keys.').waitFor();
    await eventually(async () => (await api('GET', '/api/personas', secret)).status === 200, { timeoutMs: 2_000 });

    // Change plan: with a reason, confirmed in a dialog.
    const plan = admin.planForm();
    await plan.getByLabel('New plan').selectOption('pro');
    await plan.getByRole('button', { name: 'Change plan…' }).click();
    await plan.getByText('Say why: a reason is required.').waitFor();
    await plan.getByLabel('Reason (required)').fill('Community partner, a year of Pro');
    await plan.getByRole('button', { name: 'Change plan…' }).click();
    const confirmPlan = admin.dialog(`Move ${ama.username} from Free to Pro?`);
    await confirmPlan.getByText('“Community partner, a year of Pro”').waitFor();
    await confirmPlan.getByRole('button', { name: 'Change plan' }).click();
    await admin.notice().getByText(`${ama.username} is now on Pro.`).waitFor();
    await eventually(async () => (await person.getByTestId('person-plan').innerText()) === 'Pro');

    // Sales: Kofi's inquiry becomes an Enterprise contract with the seats agreed.
    await admin.openSection('Sales');
    expect(page.url()).toBe(`${platform.baseUrl}/admin/sales`);
    const item = admin.inquiry(inquiryId);
    await item.getByText(`Osu Works ${run}`).waitFor();
    await item.getByText('A team of twelve.').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await item.getByRole('button', { name: 'Grant Enterprise' }).click();
    const grant = admin.dialog(`Grant Enterprise to Osu Works ${run}`);
    expect(await grant.getByLabel('Seats').inputValue()).toBe('12');
    await grant.getByLabel('Seats').fill('0');
    await grant.getByRole('button', { name: 'Grant Enterprise' }).click();
    await grant.getByText('Enter a whole number of seats from 1 to 100,000.').waitFor();
    await grant.getByLabel('Seats').fill('15');
    await grant.getByRole('button', { name: 'Grant Enterprise' }).click();
    await admin.notice().getByText(`${kofi.email} has Enterprise with 15 seats until`).waitFor();
    await item.getByText('Closed').waitFor();
    expect(await item.getByRole('button', { name: 'Grant Enterprise' }).count()).toBe(0);
    const kofiNow = await api('GET', `/api/admin/people/${kofi.id}`, operator.token);
    expect(kofiNow.body.person.plan).toMatchObject({ tier: 'enterprise', subscription: { seats: 15 } });

    // Operators: the configured operator cannot be removed here; another is added and removed.
    await admin.openSection('Operators');
    const me = admin.operator(operator.id);
    await me.getByText('Configured').waitFor();
    expect(await me.getByRole('button', { name: 'Remove' }).count()).toBe(0);
    await page.getByLabel('E-mail address').fill(`nobody.${run}@example.com`);
    await page.getByRole('button', { name: 'Add operator' }).click();
    await admin.actionError().getByText('No account uses this e-mail address.', { exact: false }).waitFor();
    await page.getByLabel('E-mail address').fill(kofi.email);
    await page.getByRole('button', { name: 'Add operator' }).click();
    await admin.notice().getByText(`${kofi.username} is now an operator.`).waitFor();
    await admin.operator(kofi.id).getByRole('button', { name: 'Remove' }).click();
    await admin.dialog(`Remove ${kofi.username} as an operator?`).getByRole('button', { name: 'Remove' }).click();
    await admin.notice().getByText(`${kofi.username} is no longer an operator.`).waitFor();
    await admin.operator(kofi.id).waitFor({ state: 'detached' });
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The audit log: every action above, with its actor, written from events (so it may take a moment).
    await admin.openSection('Audit log');
    await page.getByTestId('audit-window').waitFor();
    const wanted = ['user.suspended', 'user.restored', 'plan.changed', 'operator.granted', 'operator.revoked'];
    await eventually(
      async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        await page.getByRole('button', { name: 'Refresh' }).waitFor();
        const actions = await admin
          .auditEntries()
          .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-action')));
        return wanted.every((action) => actions.includes(action));
      },
      // Written by auth's consumer from the events: on a loaded machine (CI's four lanes) that can take a minute.
      { timeoutMs: 90_000 },
    );
    expect(await seriousAxeViolations(page)).toEqual([]);

    // What the operator did to Ama: her suspension, restoration and plan change (not the key she made herself).
    await page.getByLabel('Actor').fill(operator.id);
    await page.getByLabel('Target').fill(ama.id);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(`${platform.baseUrl}/admin/audit?actor=${operator.id}&target=${ama.id}`);
    await eventually(async () => (await admin.auditEntries().count()) === 3);
    const entries = admin.auditEntries();
    expect(await entries.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-action')).sort())).toEqual([
      'plan.changed',
      'user.restored',
      'user.suspended',
    ]);
    for (const entry of await entries.all()) {
      expect(await entry.getByTestId('audit-actor').innerText()).toBe(operator.id);
      expect(await entry.getByTestId('audit-target').innerText()).toBe(ama.id);
    }
    await page.locator('[data-action="user.suspended"]').getByText('Sending spam through the API').waitFor();
    await page.locator('[data-action="user.suspended"]').getByText('Account suspended').waitFor();

    // Export CSV: the link names the same filters; the file holds the same entries.
    expect(await admin.exportLink().getAttribute('href')).toBe(
      `/api/admin/audit.csv?actor=${operator.id}&target=${ama.id}`,
    );
    const [download] = await Promise.all([page.waitForEvent('download'), admin.exportLink().click()]);
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    expect(download.suggestedFilename()).toBe('kasa-audit.csv');
    expect(csv).toContain('user.suspended');
    expect(csv).toContain('plan.changed');
    expect(csv).toContain(ama.id);
    expect(csv).not.toContain('operator.granted');
    expect(csv).not.toContain('apikey.created');

    // A window that ends before it starts is refused here, before asking.
    await page.getByLabel('From (day, UTC)').fill('2026-11-02');
    await page.getByLabel('To (day, UTC)').fill('2026-11-01');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await admin.actionError().getByText('The window ends before it starts.', { exact: false }).waitFor();
  }, 300_000);

  it('works on a phone in dark mode, keyboard first', async () => {
    const page = await contexts.newPage(browser, { viewport: { width: 375, height: 812 }, colorScheme: 'dark' });
    await signInOperator(page);
    const saved = await page.evaluate(async () => {
      const res = await fetch('/api/auth/preferences/theme', {
        method: 'PUT',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${localStorage.getItem('kasa_auth_token')}`,
        },
        body: JSON.stringify({
          mode: 'dark',
          colorScheme: 'electric',
          highContrast: false,
          animations: true,
          customSettings: { borderRadius: 8, spacing: 16, fontSize: 14 },
        }),
      });
      return res.status;
    });
    expect(saved).toBe(200);
    const admin = new AdminConsole(page);
    await admin.open(platform.baseUrl);
    await page.locator('html.dark').waitFor({ state: 'attached' });
    await page.getByTestId('people-results').waitFor();

    // The sections are tabs: arrow keys move between them, and each has its own address.
    await admin.section('People').focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForURL(`${platform.baseUrl}/admin/sales`);
    await page.keyboard.press('End');
    await page.waitForURL(`${platform.baseUrl}/admin/audit`);
    await page.getByTestId('audit-window').waitFor();

    for (const path of ['', '/sales', '/operators', '/audit']) {
      await admin.open(platform.baseUrl, path);
      await page.getByRole('tabpanel').getByRole('heading', { level: 2 }).first().waitFor();
      expect({ path, overflow: await page.evaluate(() => document.documentElement.scrollWidth > 375) }).toEqual({
        path,
        overflow: false,
      });
      expect({ path, violations: await seriousAxeViolations(page) }).toEqual({ path, violations: [] });
    }
  }, 120_000);
});
