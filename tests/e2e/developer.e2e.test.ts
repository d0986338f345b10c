import { eventually } from '@kasa/test-kit';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { seriousAxeViolations } from '../support/axe';
import { TestContexts, launchBrowser } from '../support/browser';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { VIEWPORTS } from '../support/routes';
import { AuthPage } from './pages/AuthPage';
import { DeveloperPage } from './pages/DeveloperPage';
import { TourOverlay } from './pages/TourOverlay';

/** Each SDK card's version as its package says it (the Node.js card is the JavaScript package on servers). */
function sdkVersions(): Record<string, string> {
  const root = path.resolve(__dirname, '../..');
  const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
  const match = (file: string, pattern: RegExp) => pattern.exec(read(file))![1]!;
  const js = (JSON.parse(read('sdks/js/package.json')) as { version: string }).version;
  return {
    javascript: js,
    node: js,
    react: (JSON.parse(read('sdks/react/package.json')) as { version: string }).version,
    python: match('sdks/python/pyproject.toml', /^version = "([^"]+)"/m),
    go: match('sdks/go/client.go', /const Version = "([^"]+)"/),
    rust: match('sdks/rust/Cargo.toml', /^version = "([^"]+)"/m),
  };
}

let platform: RunningPlatform;
let browser: Browser;
const contexts = new TestContexts();

beforeAll(async () => {
  [platform, browser] = await Promise.all([startPlatform(), launchBrowser()]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
});

afterEach(() => contexts.closeAll());

async function openPage(viewport = { width: 1280, height: 860 }): Promise<Page> {
  return contexts.newPage(browser, { viewport });
}

/** Signs a new person up (the app then opens /chat) and opens the developer portal. */
async function signUpAndOpenPortal(page: Page, tab?: string) {
  const id = randomUUID().slice(0, 8);
  const auth = new AuthPage(page);
  await auth.open(platform.baseUrl);
  await auth.signUp({ username: `ama_${id}`, email: `ama.${id}@example.com`, password: 'adinkra-dev' });
  await page.waitForURL(`${platform.baseUrl}/chat`);
  const portal = new DeveloperPage(page);
  await portal.open(platform.baseUrl, tab);
  return portal;
}

const tokenOf = (page: Page) => page.evaluate(() => localStorage.getItem('kasa_auth_token'));

async function apiGet<T>(path: string, token: string): Promise<{ status: number; body: T }> {
  const res = await fetch(`${platform.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as T };
}

describe('the developer portal', () => {
  it('sends a signed-out visitor to /auth', async () => {
    const page = await openPage();
    await page.goto(`${platform.baseUrl}/developer`);
    await page.waitForURL(`${platform.baseUrl}/auth`);
    await page.getByRole('tab', { name: 'Sign In' }).waitFor();
    expect(await page.getByTestId('developer-app').count()).toBe(0);
  });

  it('creates a key, calls the API with it, finds the call in Analytics, and revokes it', async () => {
    const page = await openPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: platform.baseUrl });
    const portal = await signUpAndOpenPortal(page);

    // The header follows the real status; the tour's target is there.
    const token = (await tokenOf(page))!;
    const status = await apiGet<{ data: { overall: { status: string } } }>('/api/developer/services/status', token);
    expect(status.status).toBe(200);
    const expected = {
      operational: 'All Systems Operational',
      degraded: 'Degraded performance',
      down: 'Service disruption',
    }[status.body.data.overall.status];
    await portal
      .statusBadge()
      .getByText(expected ?? 'Status unknown')
      .waitFor();
    await page.getByText('Global Edge Network').waitFor();
    expect(await page.locator('[data-tour="developer-portal"]').count()).toBe(1);

    // Keys: none yet; create one; the secret is shown once, copyable.
    await portal.openTab('Keys');
    expect(page.url()).toBe(`${platform.baseUrl}/developer?tab=keys`);
    await portal.noKeys().waitFor();
    await portal.createKey('Weather bot');
    await portal.newKey().getByText('you will not see it again').waitFor();
    const secret = (await portal.newKeySecret().innerText()).trim();
    expect(secret).toMatch(/^ksk_[A-Za-z0-9_-]{43}$/);
    await portal.newKey().getByRole('button', { name: 'Copy key' }).click();
    await portal.newKey().getByText('Copied', { exact: true }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await portal.newKey().getByRole('button', { name: 'I have copied it' }).click();
    await portal.newKey().waitFor({ state: 'detached' });
    expect(await page.getByText(secret).count()).toBe(0);
    const item = portal.key('Weather bot');
    await item.waitFor();
    const masked = await item.getByTestId('masked-key').innerText();
    expect(masked).toContain(secret.slice(0, 8));
    expect(masked).not.toContain(secret.slice(8, -4));
    expect(await item.getAttribute('data-state')).toBe('active');
    expect(await item.innerText()).toContain('chat, voice, analytics');

    // API Test: GET /api/personas with the key gives 200 and the personas.
    await portal.openTab('API Test');
    await portal.testEmpty().getByText('No response yet').waitFor();
    await portal.endpoint().selectOption('GET /api/personas');
    expect(await portal.bodyField().count()).toBe(0); // no body for GET
    expect(await portal.apiKeyField().getAttribute('type')).toBe('password');
    await portal.testEndpoint('GET /api/personas', secret);
    await portal.testStatus().getByText(/^200/).waitFor();
    const body = JSON.parse(await portal.testBody().innerText()) as Array<{ id: string }>;
    expect(body.map((p) => p.id)).toContain('kasa');
    expect(await portal.testBody().innerText()).toContain('\n  {\n    "id"'); // formatted
    expect(await page.getByTestId('api-test-time').innerText()).toMatch(/^\d+ ms$/);

    // A POST shows the body field with a sample; an unknown persona is the server's 4xx, shown as it came.
    await portal.endpoint().selectOption('POST /api/chat/sessions');
    expect(await portal.bodyField().inputValue()).toContain('"personaId": "kasa"');

    // Analytics: the call shows up once the status service has stored the gateway's batch.
    await portal.openTab('Analytics');
    await portal.keyFilter().selectOption({ label: `Weather bot (${masked})` });
    await eventually(
      async () => {
        await portal.refreshButton().click();
        await portal.refreshButton().getByText('Refresh', { exact: true }).waitFor();
        const total = await portal
          .usageTotal()
          .innerText()
          .catch(() => '');
        return /^[1-9][\d,]* calls with this key$/.test(total);
      },
      { timeoutMs: 45_000, intervalMs: 1_000, what: 'the key’s call in Analytics' },
    );
    await portal.usageByStatus().getByText('200 OK').waitFor();

    // Revoke after a confirmation; the key then gets 401, and the portal stays signed in.
    await portal.openTab('Keys');
    await page.getByRole('button', { name: 'Revoke “Weather bot”' }).click();
    await portal.revokeDialog('Weather bot').getByRole('button', { name: 'Cancel' }).click();
    expect(await portal.key('Weather bot').getAttribute('data-state')).toBe('active');
    await portal.revokeKey('Weather bot');
    await eventually(async () => (await portal.key('Weather bot').getAttribute('data-state')) === 'revoked', {
      timeoutMs: 10_000,
      intervalMs: 1_000,
      what: 'Revoked',
    });

    await portal.openTab('API Test');
    await eventually(
      async () => {
        await portal.testEndpoint('GET /api/personas', secret);
        await portal.testStatus().waitFor();
        return /^401/.test(await portal.testStatus().innerText());
      },
      { timeoutMs: 40_000, intervalMs: 1_000, what: 'the revoked key to be refused' },
    );
    expect(await portal.testBody().innerText()).toContain('"code": "unauthenticated"');
    expect(await tokenOf(page)).toBe(token);
    await portal.app().waitFor();
  }, 180_000);

  it('keeps the open tab in the URL and documents every operation of the OpenAPI document', async () => {
    const page = await openPage();
    const portal = await signUpAndOpenPortal(page, 'docs');
    expect(await portal.tab('Docs').getAttribute('aria-selected')).toBe('true');

    const doc = (await (await fetch(`${platform.baseUrl}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { summary: string }>>;
    };
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ id: `${method.toUpperCase()} ${path}`, summary: op.summary })),
    );
    await portal.docOperations().first().waitFor();
    expect(await portal.docOperations().count()).toBe(operations.length);

    const createKey = portal.docOperation('POST /api/developer/keys');
    await createKey.locator('summary').click();
    const text = await createKey.innerText();
    expect(text).toContain('Authorization: Bearer');
    expect(text).toMatch(/name\s+string\s+yes\s+1–60 characters/);
    expect(text).toMatch(/expiresInDays\s+integer or null\s+no/);
    expect(text).toContain('409');
    const languages = portal.docOperation('GET /api/languages');
    await languages.locator('summary').click();
    expect(await languages.innerText()).toContain('none (public)');

    // Arrow keys move between tabs, and the URL follows; a reload keeps the tab.
    await portal.tab('Docs').focus();
    await page.keyboard.press('ArrowRight');
    await portal.tab('SDKs').and(page.locator('[aria-selected="true"]')).waitFor();
    expect(page.url()).toBe(`${platform.baseUrl}/developer?tab=sdks`);
    await page.reload();
    await portal.tab('SDKs').waitFor();
    expect(await portal.tab('SDKs').getAttribute('aria-selected')).toBe('true');
    await page.goBack();
    await page.waitForURL(`${platform.baseUrl}/developer?tab=docs`);
  }, 90_000);

  it('shows the overview from live data, the SDK catalogue and runnable examples', async () => {
    const page = await openPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: platform.baseUrl });
    const portal = await signUpAndOpenPortal(page);
    const token = (await tokenOf(page))!;

    const personas = await apiGet<Array<{ name: string }>>('/api/personas', token);
    const languages = await apiGet<{ count: number }>('/api/languages', token);
    await portal.overviewPersonas().first().waitFor();
    expect(await portal.overviewPersonas().count()).toBe(personas.body.length);
    expect(await portal.stat('personas').innerText()).toContain(String(personas.body.length));
    expect(await portal.stat('languages').innerText()).toContain(String(languages.body.count));
    expect(await portal.overviewPersonas().filter({ hasText: 'Active' }).count()).toBe(personas.body.length);
    await portal.africanLanguages().first().waitFor();
    const african = await portal.africanLanguages().allInnerTexts();
    for (const name of ['Twi', 'Hausa', 'Ga', 'Ewe', 'Yoruba', 'Swahili'])
      expect(african.some((t) => t.startsWith(name))).toBe(true);
    await page.getByText('1,000 requests/min').waitFor();

    // SDKs: six cards; Install copies the command and shows a check for 2 s.
    await portal.openTab('SDKs');
    for (const [id, version] of Object.entries(sdkVersions()))
      expect(await portal.sdkCard(id).innerText()).toContain(version);
    expect(await portal.sdkCard('python').innerText()).toMatch(/Package\s+kasa\b/);
    expect(await portal.sdkCard('go').innerText()).toMatch(/Package\s+github\.com\/kasa-ai\/kasa-go\b/);
    expect(await portal.sdkCard('rust').innerText()).toMatch(/Package\s+kasa\b/);
    expect(await portal.sdkCard('javascript').innerText()).not.toMatch(/download/i);
    await portal.installButton('react').click();
    await portal.installButton('react').getByText('Copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      'npm install @kasa/react @kasa/sdk @tanstack/react-query',
    );
    const copiedAt = Date.now();
    await portal.installButton('react').getByText('Install').waitFor({ timeout: 5_000 });
    expect(Date.now() - copiedAt).toBeGreaterThan(1_500);

    await portal.sdkCard('go').getByRole('button', { name: 'Details of the Go SDK' }).click();
    const details = portal.sdkDetails();
    await details.getByText(`go get github.com/kasa-ai/kasa-go@v${sdkVersions().go}`, { exact: false }).waitFor();
    await details.getByRole('tab', { name: 'Quick Start' }).click();
    expect(await details.innerText()).toContain(`kasa.WithBaseURL("${platform.baseUrl}")`);
    await details.getByRole('tab', { name: 'Documentation' }).click();
    expect(await details.getByRole('link', { name: 'OpenAPI document' }).getAttribute('href')).toBe(
      '/api/openapi.json',
    );
    await details.getByRole('link', { name: 'API reference (Docs tab)' }).click();
    await page.waitForURL(`${platform.baseUrl}/developer?tab=docs`);

    // Examples: three, each filled with this platform's address and copyable.
    await portal.openTab('Examples');
    for (const id of ['javascript', 'python', 'curl'] as const) {
      expect(await portal.example(id).innerText()).toContain(platform.baseUrl);
      expect(await portal.example(id).innerText()).toContain('YOUR_API_KEY');
    }
    await portal.example('curl').getByRole('button', { name: 'Copy the curl example' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('set -euo pipefail');
  }, 90_000);

  it('shows each tab’s loading, empty and error states', async () => {
    const page = await openPage();
    const portal = await signUpAndOpenPortal(page, 'services');

    // Services: live cards, then Refresh spins for a second.
    await portal.service('chat').waitFor();
    expect(await portal.service('chat').innerText()).toMatch(/Operational|Degraded|Down|Unknown/);
    await portal.refreshButton().click();
    await page.getByTestId('refresh-spinner').waitFor();
    const spunAt = Date.now();
    await page.getByTestId('refresh-spinner').waitFor({ state: 'detached' });
    expect(Date.now() - spunAt).toBeGreaterThan(700);

    // A slow status answer shows the loading line; a failing one an error with Retry, and the badge says so.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/developer/services/status', async (route) => {
      await held;
      await route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: '{"message":"Status service is unavailable. Please try again shortly.","code":"upstream_unavailable"}',
      });
    });
    await page.reload();
    await page.getByText('Loading service status...').waitFor();
    release();
    await portal.loadError().getByText('503: Status service is unavailable').waitFor({ timeout: 15_000 });
    await portal.loadError().getByRole('button', { name: 'Retry' }).waitFor();
    await portal.statusBadge().getByText('Status unavailable').waitFor();
    await page.unroute('**/api/developer/services/status');

    // A back end that never answers: Analytics shows placeholders, then gives up after its 15 s limit saying the
    // service is slow; a 504 from the gateway says the same in the gateway's words. Neither blames the connection.
    const hung: Array<() => void> = [];
    await page.route('**/api/developer/analytics', (route) =>
      // The page gives up first; answering its cancelled request afterwards may be refused, which is fine.
      new Promise<void>((resolve) => hung.push(resolve)).then(() => route.abort().catch(() => undefined)),
    );
    await page.route('**/api/analytics/sessions', (route) =>
      route.fulfill({
        status: 504,
        contentType: 'application/json',
        body: '{"message":"Status service took too long to answer. Please try again.","code":"upstream_timeout"}',
      }),
    );
    const askedAt = Date.now();
    await portal.openTab('Analytics');
    await portal.panel().locator('[data-testid="loading"][aria-busy="true"]').first().waitFor();
    await portal
      .loadError()
      .getByText('Could not load your analytics: The service is taking too long to answer. Try again in a moment.')
      .waitFor({ timeout: 25_000 });
    expect(Date.now() - askedAt).toBeLessThan(25_000);
    await portal
      .panel()
      .getByText('Could not load your sessions: 504: Status service took too long to answer. Please try again.')
      .waitFor({ timeout: 15_000 });
    expect(await portal.panel().innerText()).not.toMatch(/connection/i);
    hung.forEach((release) => release());
    await page.unroute('**/api/developer/analytics');
    await page.unroute('**/api/analytics/sessions');
    // A fresh page load, so that what follows starts without the answers cached here.
    await portal.openTab('Services');
    await page.reload();
    await portal.app().waitFor();

    // Analytics with nothing recorded: the spec's empty states.
    await page.route('**/api/developer/analytics', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({
          data: {
            usage: { breakdown: {}, totalCalls: 0, quota: { period: '2026-11', used: 0, limit: 1000 } },
            performance: { averageResponseTime: 0, uptime: 100, errorRate: 0 },
            personaUsage: {},
            languageUsage: {},
            sessions: 0,
            messages: 0,
            voice: { speechClips: 0, speechSeconds: 0, videosMade: 0, videosFailed: 0 },
          },
        }),
      }),
    );
    await page.route('**/api/analytics/sessions', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: '{"data":[]}' }),
    );
    await page.route('**/api/analytics/usage?*', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: '{"message":"Analytics store failed","code":"internal"}',
      }),
    );
    await portal.openTab('Analytics');
    await page.getByText('No persona usage data available').waitFor();
    await page.getByText('No language usage data available').waitFor();
    await page.getByTestId('no-sessions').waitFor();
    expect(await page.getByTestId('quota-used').innerText()).toBe('0 / 1,000');
    await portal
      .loadError()
      .getByText('Could not load your API calls: 500: Analytics store failed')
      .waitFor({ timeout: 15_000 });

    // Keys: a refused creation says why.
    await page.route('**/api/developer/keys', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 409,
            contentType: 'application/json',
            body: '{"message":"You already have 25 active API keys; revoke one first.","code":"conflict"}',
          })
        : route.fallback(),
    );
    await portal.openTab('Keys');
    await portal.noKeys().waitFor();
    await portal.createKey('One too many');
    await portal
      .panel()
      .getByRole('alert')
      .getByText('Could not create the key: 409: You already have 25 active API keys')
      .waitFor();
    expect(await portal.newKey().count()).toBe(0);
    await portal.panel().getByLabel('Name').fill('');
    await portal.panel().getByRole('button', { name: 'Generate New API Key' }).click();
    await portal.panel().getByRole('alert').getByText('Give the key a name').waitFor();

    // API Test: a network failure is 'Error: <message>'.
    await page.route('**/api/personas', (route) => route.abort('connectionrefused'));
    await portal.openTab('API Test');
    await portal.testEndpoint('GET /api/personas', 'ksk_not-a-real-key');
    await portal
      .testError()
      .getByText(/^Error: /)
      .waitFor();

    // Overview and Docs: failed loads say what failed, with Retry.
    await page.reload();
    await portal.openTab('Overview');
    await portal
      .loadError()
      .first()
      .getByText(/Could not load the personas/)
      .waitFor({ timeout: 15_000 });
    await page.route('**/api/openapi.json', (route) => route.fulfill({ status: 503, body: 'down' }));
    await page.reload();
    await portal.openTab('Docs');
    await portal
      .loadError()
      .getByText(
        'Could not load the API reference: The service is slow or unavailable right now (503). Try again in a moment.',
      )
      .waitFor({ timeout: 15_000 });

    // A tab whose code cannot be downloaded fails alone, saying so; the header and the other tabs stay.
    await page.route('**/remotes/developer/*.js', (route) => route.abort('connectionrefused'));
    await portal.openTab('Examples');
    await portal.panel().getByTestId('tab-error').getByText('The Examples tab failed to load').waitFor();
    await portal.openTab('Overview');
    await portal.statusBadge().waitFor();
  }, 120_000);

  it('starts the developer tour on the portal, pointing at its header', async () => {
    const tourBrowser = await launchBrowser({ guidedTours: true });
    try {
      const context = await tourBrowser.newContext({ viewport: { width: 1280, height: 860 } });
      // Only the developer tour is left to see (the chat tour would start on /chat after signing up).
      await context.addInitScript(() => {
        if (!localStorage.getItem('kasa_guidance'))
          localStorage.setItem(
            'kasa_guidance',
            JSON.stringify({ hasSeenWelcome: true, completedTours: ['welcome', 'chat'] }),
          );
      });
      const page = await context.newPage();
      const portal = await signUpAndOpenPortal(page);
      const tour = new TourOverlay(page);
      await tour.card().waitFor({ timeout: 10_000 });
      expect(await tour.card().getAttribute('data-tour-id')).toBe('developer');
      expect(await tour.title().innerText()).toBe('The developer portal');
      const header = (await page.locator('[data-tour="developer-portal"]').boundingBox())!;
      const highlight = (await page.locator('[data-testid="tour-backdrop"] + div[aria-hidden="true"]').boundingBox())!;
      expect(highlight.x).toBeLessThanOrEqual(header.x);
      expect(highlight.y).toBeLessThanOrEqual(header.y);
      expect(highlight.x + highlight.width).toBeGreaterThanOrEqual(header.x + header.width);
      await tour.button('Skip Tour').click();
      await portal.app().waitFor();
    } finally {
      await tourBrowser.close();
    }
  }, 60_000);

  const TABS = ['Overview', 'Docs', 'SDKs', 'API Test', 'Examples', 'Services', 'Analytics', 'Keys', 'Team'] as const;

  /** Opens every tab (and the Keys tab's one-time secret and revoke dialog) and collects what axe finds. */
  async function auditTabs(page: Page, portal: DeveloperPage, checkOverflow: boolean) {
    const found: Record<string, unknown> = {};
    const audit = async (name: string) => {
      await page.waitForLoadState('networkidle');
      const violations = await seriousAxeViolations(page);
      if (violations.length) found[name] = violations;
      if (checkOverflow) {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        if (overflow > 0) found[`${name} (overflow)`] = overflow;
      }
    };
    for (const tab of TABS) {
      await portal.openTab(tab);
      await audit(tab);
    }
    await portal.openTab('Keys');
    await portal.createKey('Audit key');
    await portal.newKey().waitFor();
    await audit('Keys with a new key');
    await page.getByRole('button', { name: 'Revoke “Audit key”' }).click();
    await portal.revokeDialog('Audit key').waitFor();
    await audit('Keys revoke dialog');
    await portal.revokeDialog('Audit key').getByRole('button', { name: 'Cancel' }).click();
    return found;
  }

  it.each(VIEWPORTS)(
    'has no serious axe violation and fits the screen on any tab at $name width',
    async (viewport) => {
      const page = await openPage(viewport);
      const portal = await signUpAndOpenPortal(page);
      expect(await auditTabs(page, portal, viewport.width < 500)).toEqual({});
    },
    120_000,
  );

  it('has none in dark mode with high contrast either', async () => {
    const page = await openPage();
    await signUpAndOpenPortal(page);
    const saved = await page.evaluate(async () => {
      const res = await fetch('/api/auth/preferences/theme', {
        method: 'PUT',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${localStorage.getItem('kasa_auth_token')}`,
        },
        body: JSON.stringify({
          mode: 'dark',
          colorScheme: 'cyber',
          highContrast: true,
          animations: true,
          customSettings: { borderRadius: 8, spacing: 16, fontSize: 14 },
        }),
      });
      return res.status;
    });
    expect(saved).toBe(200);
    const portal = new DeveloperPage(page);
    await portal.open(platform.baseUrl);
    await page.locator('html.dark.high-contrast').waitFor({ state: 'attached' });
    expect(await auditTabs(page, portal, false)).toEqual({});
  }, 120_000);

  it('loads /developer within the JavaScript budget (shell plus the developer remote)', async () => {
    const page = await openPage();
    await signUpAndOpenPortal(page);
    const token = await tokenOf(page);

    const fresh = await contexts.newPage(browser);
    await fresh.addInitScript((value) => localStorage.setItem('kasa_auth_token', value), token!);
    const scripts = new Map<string, Promise<Buffer>>();
    fresh.on('response', (response) => {
      if (response.request().resourceType() === 'script')
        scripts.set(new URL(response.url()).pathname, response.body());
    });
    await fresh.goto(`${platform.baseUrl}/developer`, { waitUntil: 'networkidle' });
    await new DeveloperPage(fresh).overviewPersonas().first().waitFor();

    const sizes = await Promise.all(
      [...scripts].map(async ([path, body]) => ({ path, gzip: zlib.gzipSync(await body).length })),
    );
    const total = sizes.reduce((sum, file) => sum + file.gzip, 0);
    const remoteEntry = sizes.find((file) => file.path === '/remotes/developer/remoteEntry.js');
    console.log(
      [
        `/developer first load: ${(total / 1024).toFixed(1)} KB gzip in ${sizes.length} scripts; ` +
          `developer remoteEntry.js ${((remoteEntry?.gzip ?? 0) / 1024).toFixed(1)} KB gzip`,
        ...sizes.map((file) => `  ${(file.gzip / 1024).toFixed(1).padStart(6)} KB  ${file.path}`),
      ].join('\n'),
    );
    expect(remoteEntry).toBeDefined();
    expect(remoteEntry!.gzip).toBeLessThanOrEqual(30 * 1024);
    expect(total).toBeLessThanOrEqual(200 * 1024);
  }, 60_000);
});
