import { eventually } from '@kasa/test-kit';
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { seriousAxeViolations } from '../support/axe';
import { TestContexts, launchBrowser } from '../support/browser';
import { startPlatform, type RunningPlatform } from '../support/platform';

/**
 * The operator console's Health and usage section through the built platform (gateway, auth, status and the rest from
 * their dist) in the browser: the routes are a 404 through the gateway to anyone but an operator (auth is asked on
 * every call); an operator sees each service's state in words and the person who made calls in the month's top list,
 * with their name from auth and a link to their page; on a phone without sideways scrolling and without serious axe
 * findings; and in French.
 */
const run = randomUUID().slice(0, 8);
const OPERATOR_EMAIL = `operator.${run}@example.com`;

let platform: RunningPlatform;
let operator: Account;
let browser: Browser;
const contexts = new TestContexts();

interface Account {
  id: string;
  username: string;
  token: string;
}

beforeAll(async () => {
  [platform, browser] = await Promise.all([startPlatform({ KASA_OPERATOR_EMAILS: OPERATOR_EMAIL }), launchBrowser()]);
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
    password: 'akwaaba-123',
  };
  const res = await api('POST', '/api/auth/register', undefined, person);
  expect(res.status).toBe(201);
  return { id: res.body.user.id, username: person.username, token: res.body.token };
}

/** A page signed in as the operator (their token where the web app keeps it), at `path`. */
async function operatorPage(path: string, options: { width?: number; locale?: string } = {}): Promise<Page> {
  const page = await contexts.newPage(browser, {
    viewport: { width: options.width ?? 1280, height: 860 },
    ...(options.locale ? { locale: options.locale } : {}),
  });
  await page.addInitScript((stored: string) => window.localStorage.setItem('kasa_auth_token', stored), operator.token);
  await page.goto(`${platform.baseUrl}${path}`);
  await page.getByTestId('admin-app').waitFor();
  return page;
}

const personRow = (page: Page, id: string) => page.locator(`[data-testid="usage-person"][data-person="${id}"]`);

describe('the Health and usage section of the operator console', () => {
  it('is a 404 through the gateway to a person who is not an operator and to an anonymous caller', async () => {
    const ama = await register('ama');
    for (const path of ['/api/admin/health', '/api/admin/usage', '/api/admin/usage?month=2020-01']) {
      expect({ path, anonymous: (await api('GET', path)).status }).toEqual({ path, anonymous: 404 });
      const asAma = await api('GET', path, ama.token);
      expect({ path, person: asAma.status, code: asAma.body.code }).toEqual({ path, person: 404, code: 'not_found' });
      expect({ path, operator: (await api('GET', path, operator.token)).status }).toEqual({ path, operator: 200 });
    }
  });

  it('shows an operator the services and the people who made calls, on a phone and in French', async () => {
    const kofi = await register('kofi');
    for (let i = 0; i < 5; i += 1) expect((await api('GET', '/api/personas', kofi.token)).status).toBe(200);
    // The gateway reports its calls in batches (about every second): wait until the status service has Kofi's five.
    await eventually(
      async () => {
        const usage = await api('GET', '/api/admin/usage', operator.token);
        return (usage.body.people as Array<{ id: string; calls: number }> | undefined)?.some(
          (p) => p.id === kofi.id && p.calls === 5,
        );
      },
      { timeoutMs: 30_000, intervalMs: 250, what: 'Kofi’s calls are counted' },
    );

    // From the console's sections, as an operator finds it.
    const page = await operatorPage('/admin');
    await page.getByRole('tab', { name: 'Health and usage' }).click();
    await page.waitForURL(`${platform.baseUrl}/admin/health`);
    const services = page.getByTestId('service-health');
    await services.first().waitFor();
    expect(await services.evaluateAll((items) => items.map((item) => item.getAttribute('data-service')))).toEqual([
      'gateway',
      'auth',
      'chat',
      'voice',
      'status',
    ]);
    // Each state in words, beside its icon.
    for (const name of ['API gateway', 'Accounts & keys', 'Chat & personas', 'Voice & languages', 'Status & analytics'])
      await page.getByRole('heading', { level: 4, name }).waitFor();
    const words = await page
      .locator('[data-testid="service-health"] [data-testid="state"]')
      .evaluateAll((marks) => marks.map((mark) => `${mark.querySelector('svg') ? 'icon ' : ''}${mark.textContent}`));
    expect(words).toHaveLength(5);
    for (const word of words) expect(word).toMatch(/^icon (Operational|Degraded|Down)$/);
    await page.getByRole('table', { name: 'Calls to Chat & personas' }).waitFor();

    // Kofi is in the month's top list, named as auth has him, and his row opens his page in People.
    const row = personRow(page, kofi.id);
    await row.getByText(kofi.username).waitFor();
    await row.getByText('5 calls').waitFor();
    await row.getByRole('link', { name: kofi.username }).click();
    await page.waitForURL(`${platform.baseUrl}/admin/people/${kofi.id}`);
    await page.locator(`[data-testid="person-detail"][data-person="${kofi.id}"]`).waitFor();

    // A month without calls says so; the month is in the address, and the picker shows it.
    await page.goto(`${platform.baseUrl}/admin/health?month=2020-01`);
    await page.getByTestId('usage-empty').getByText('No calls were counted in January 2020.').waitFor();
    expect(await page.getByLabel('Month (UTC)').inputValue()).toBe('2020-01');
    await page.getByLabel('Month (UTC)').selectOption(new Date().toISOString().slice(0, 7));
    await page.waitForURL(`${platform.baseUrl}/admin/health`);
    await personRow(page, kofi.id).waitFor();

    // On a phone: no sideways scrolling, no serious accessibility findings.
    const phone = await operatorPage('/admin/health', { width: 375 });
    await personRow(phone, kofi.id).getByText(kofi.username).waitFor();
    await phone.getByTestId('service-health').first().waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth > 375)).toBe(false);
    expect(await seriousAxeViolations(phone)).toEqual([]);

    // In French, the operator's language (saved with the account).
    expect((await api('PUT', '/api/auth/preferences/language', operator.token, { language: 'fr' })).status).toBe(200);
    const french = await operatorPage('/admin/health', { locale: 'fr' });
    await french.getByRole('tab', { name: 'Santé et usage', selected: true }).waitFor();
    await french.getByRole('heading', { level: 2, name: 'Santé de la plateforme' }).waitFor();
    await french.getByRole('heading', { level: 4, name: 'Chat et personas' }).waitFor();
    await personRow(french, kofi.id).getByText('5 appels').waitFor();
    expect((await api('PUT', '/api/auth/preferences/language', operator.token, { language: 'en' })).status).toBe(200);
  }, 180_000);
});
