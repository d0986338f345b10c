import { eventually } from '@kasa/test-kit';
import { randomUUID } from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Locator, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { seriousAxeViolations } from '../support/axe';
import { TestContexts, launchBrowser } from '../support/browser';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { AuthPage } from './pages/AuthPage';
import { messagesOf, untranslatedCandidates, visibleEnglish } from './pages/LanguageCheck';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { freePort } = require('../../scripts/embedded-mongo') as { freePort: () => Promise<number> };

/**
 * The developer portal's Webhooks tab against the built platform and a real receiver on 127.0.0.1 (allowed because
 * the platform runs with WEBHOOKS_ALLOW_PRIVATE_NETWORKS=true; a short retry schedule makes failures final in
 * seconds). Every message the receiver gets is checked with the Standard Webhooks library, as a developer would.
 */

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A webhook receiver: records every request and answers with `status` (changeable). */
class Receiver {
  readonly received: Received[] = [];
  status = 204;
  private server: http.Server | null = null;
  url = '';

  async start(): Promise<void> {
    const port = await freePort();
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        res.statusCode = this.status;
        res.end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks/kasa`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The requests that carried `webhook-id` = `id`. */
  withId(id: string): Received[] {
    return this.received.filter((request) => request.headers['webhook-id'] === id);
  }
}

/** The Webhooks tab of the developer portal. */
class WebhooksTab {
  constructor(private readonly page: Page) {}

  async open(baseUrl: string) {
    await this.page.goto(`${baseUrl}/developer?tab=webhooks`);
    await this.page.getByTestId('developer-app').waitFor();
  }

  panel() {
    return this.page.getByRole('tabpanel').first();
  }

  empty() {
    return this.page.getByTestId('no-webhooks');
  }

  count() {
    return this.page.getByTestId('webhook-count');
  }

  form() {
    return this.page.getByTestId('add-webhook');
  }

  async add(url: string, description: string, events: string[]) {
    await this.form().getByLabel('Endpoint URL').fill(url);
    await this.form().getByLabel('Description (optional)').fill(description);
    for (const event of events)
      await this.form()
        .getByRole('checkbox', { name: new RegExp(`^${event} `) })
        .check();
    await this.form().getByRole('button', { name: 'Add endpoint' }).click();
  }

  secretPanel() {
    return this.page.getByTestId('webhook-secret');
  }

  async secret(): Promise<string> {
    return (await this.page.getByTestId('webhook-secret-value').innerText()).trim();
  }

  endpoints() {
    return this.page.getByTestId('webhook-endpoint');
  }

  endpoint(url: string) {
    return this.page.locator(`[data-testid="webhook-endpoint"][data-url="${url}"]`);
  }

  deliveries(endpoint: Locator) {
    return endpoint.getByTestId('webhook-delivery');
  }

  confirmDialog(title: string) {
    return this.page.getByRole('dialog', { name: title });
  }

  /** The shell's toast with this title. */
  toast(title: string) {
    return this.page.getByTestId('toast').getByText(title, { exact: true });
  }
}

let platform: RunningPlatform;
let browser: Browser;
const receiver = new Receiver();
const contexts = new TestContexts();

beforeAll(async () => {
  [platform, browser] = await Promise.all([
    startPlatform({ WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOKS_RETRY_SCHEDULE: '1s,1s' }),
    launchBrowser(),
    receiver.start(),
  ]);
}, 120_000);

afterAll(async () => {
  await receiver.stop();
  await browser?.close();
  await platform?.stop();
});

afterEach(() => contexts.closeAll());

/** Signs a new person up (on the Free plan: one endpoint) and opens the Webhooks tab. */
async function signUpAndOpen(page: Page): Promise<WebhooksTab> {
  const id = randomUUID().slice(0, 8);
  const auth = new AuthPage(page);
  await auth.open(platform.baseUrl);
  await auth.signUp({ username: `kwame_${id}`, email: `kwame.${id}@example.com`, password: 'adinkra-hooks' });
  await page.waitForURL(`${platform.baseUrl}/chat`);
  const tab = new WebhooksTab(page);
  await tab.open(platform.baseUrl);
  return tab;
}

/** Checks a received request as a developer's server would, and returns its JSON body. */
function verified(
  request: Received,
  secret: string,
): { type: string; timestamp: string; data: Record<string, unknown> } {
  expect(request.headers['content-type']).toMatch(/^application\/json/);
  expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+={0,2}/);
  return new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as ReturnType<
    typeof verified
  >;
}

async function audit(page: Page) {
  await page.waitForLoadState('networkidle');
  const violations = await seriousAxeViolations(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  return { violations, overflow };
}

describe('the Webhooks tab of the developer portal', () => {
  it('adds an endpoint, shows its secret once, delivers a signed test event, shows failures, replays and deletes', async () => {
    const page = await contexts.newPage(browser);
    const tab = await signUpAndOpen(page);

    // The tab comes after Keys; a person without endpoints is told what webhooks are for and how to add one.
    const names = await page
      .getByRole('tablist', { name: 'Developer portal sections' })
      .getByRole('tab')
      .allInnerTexts();
    expect(names.indexOf('Webhooks')).toBe(names.indexOf('Keys') + 1);
    await tab.empty().getByText('You have no webhook endpoints yet.').waitFor();
    expect(await tab.empty().innerText()).toContain('the https:// address of your server');
    expect(await tab.count().innerText()).toBe('0 of 1 endpoints used');

    // The form's own checks, from the catalogue.
    await tab.form().getByRole('button', { name: 'Add endpoint' }).click();
    await tab.form().getByText('Enter the address of your endpoint, starting with https://.').waitFor();
    await tab.form().getByText('Choose at least one event to send to this endpoint.').waitFor();
    await tab.form().getByLabel('Endpoint URL').fill('example.com/hook');
    await tab.form().getByRole('button', { name: 'Add endpoint' }).click();
    await tab
      .form()
      .getByText(/^Enter a full web address starting with https:\/\//)
      .waitFor();

    // Added: the signing secret is shown once, with how to verify it.
    await tab.add(receiver.url, 'Order service', ['video.completed', 'key.revoked']);
    await tab.secretPanel().getByText('Copy it now: you will not see it again.').waitFor();
    const secret = await tab.secret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    expect(await tab.secretPanel().getByTestId('verify-snippet').innerText()).toContain(
      'webhook.verify(req.body, req.headers)',
    );
    const endpoint = tab.endpoint(receiver.url);
    await endpoint.waitFor();
    expect(await endpoint.innerText()).toContain('Order service');
    expect(await endpoint.locator('code').allInnerTexts()).toEqual(['video.completed', 'key.revoked']);
    expect(await endpoint.getByRole('switch').isChecked()).toBe(true);
    expect(await tab.count().innerText()).toBe('1 of 1 endpoints used');
    const endpointId = (await endpoint.getAttribute('data-endpoint-id'))!;

    // Free allows one endpoint: the form says so instead of failing.
    await page.getByTestId('webhook-limit-note').getByText('Your plan allows 1 endpoint and it is in use.').waitFor();
    expect(await tab.form().getByRole('button', { name: 'Add endpoint' }).isDisabled()).toBe(true);

    await tab.secretPanel().getByRole('button', { name: 'I have copied it' }).click();
    await tab.secretPanel().waitFor({ state: 'detached' });
    expect(await page.getByText(secret).count()).toBe(0);
    await page.reload();
    await endpoint.waitFor();
    expect(await page.content()).not.toContain(secret);

    // A test event: a toast, the log opens, the receiver gets a message that verifies, and it shows as delivered.
    await endpoint.getByRole('button', { name: 'Send test event' }).click();
    await tab.toast('Test event sent').waitFor();
    await endpoint.getByTestId('webhook-deliveries').waitFor();
    const test = tab.deliveries(endpoint).first();
    await test.and(page.locator('[data-status="delivered"]')).waitFor();
    const testId = (await test.getAttribute('data-event-id'))!;
    expect(await test.getAttribute('data-event-type')).toBe('webhook.test');
    expect(await test.getByTestId('delivery-status').innerText()).toContain('Delivered');
    expect(await test.getByTestId('delivery-attempts').innerText()).toBe('1');
    expect(await test.getByTestId('delivery-response').innerText()).toBe('HTTP 204');
    const [testMessage] = receiver.withId(testId);
    expect(testMessage?.path).toBe('/hooks/kasa');
    const body = verified(testMessage!, secret);
    expect(body).toMatchObject({ type: 'webhook.test', data: { endpointId } });
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(
        testMessage!.body,
        testMessage!.headers as Record<string, string>,
      ),
    ).toThrow();

    // A receiver answering 500: the same message is tried again, then the delivery has failed, with the status.
    receiver.status = 500;
    await endpoint.getByRole('button', { name: 'Send test event' }).click();
    const failing = tab.deliveries(endpoint).first();
    await failing.and(page.locator(`[data-event-id]:not([data-event-id="${testId}"])`)).waitFor();
    const failingId = (await failing.getAttribute('data-event-id'))!;
    await failing.and(page.locator('[data-status="failed"]')).waitFor();
    expect(await failing.getByTestId('delivery-status').innerText()).toContain('Failed');
    expect(await failing.getByTestId('delivery-response').innerText()).toBe('HTTP 500');
    expect(await failing.getByTestId('delivery-attempts').innerText()).toBe('3');
    const attempts = receiver.withId(failingId);
    expect(attempts).toHaveLength(3);
    for (const attempt of attempts) verified(attempt, secret);

    // Replay: a new delivery of the same message, delivered now that the receiver answers again.
    receiver.status = 200;
    await failing.getByRole('button', { name: /^Replay webhook\.test of / }).click();
    await tab.toast('Delivery replayed').waitFor();
    const replay = tab.deliveries(endpoint).filter({ hasText: 'Replayed' }).first();
    await replay.and(page.locator('[data-status="delivered"]')).waitFor();
    expect(await replay.getAttribute('data-event-id')).toBe(failingId);
    await eventually(() => receiver.withId(failingId).length === 4, { what: 'the replay arrives' });
    expect(verified(receiver.withId(failingId)[3]!, secret).type).toBe('webhook.test');
    expect(await tab.deliveries(endpoint).count()).toBe(3);

    // Rotating the secret asks first; the new secret signs the next message and the old one no longer does.
    await endpoint.getByRole('button', { name: 'Rotate secret' }).click();
    await tab
      .confirmDialog(`Rotate the signing secret of ${receiver.url}?`)
      .getByRole('button', { name: 'Rotate secret' })
      .click();
    await tab.secretPanel().getByText(`New signing secret for ${receiver.url}`).waitFor();
    const rotated = await tab.secret();
    expect(rotated).not.toBe(secret);
    await endpoint.getByRole('button', { name: 'Send test event' }).click();
    await eventually(async () => (await tab.deliveries(endpoint).count()) === 4, { what: 'a fourth delivery' });
    const newest = tab.deliveries(endpoint).first();
    await newest.and(page.locator('[data-status="delivered"]')).waitFor();
    const rotatedId = (await newest.getAttribute('data-event-id'))!;
    const signedAfter = receiver.withId(rotatedId)[0]!;
    expect(verified(signedAfter, rotated).type).toBe('webhook.test');
    expect(() => verified(signedAfter, secret)).toThrow();

    // Switched off: no test events until it is on again.
    await endpoint.getByRole('switch', { checked: true }).click();
    await endpoint.getByTestId('webhook-endpoint-state').getByText('Off: no events are sent').waitFor();
    await endpoint.getByText('It is off: turn it on to send a test event or replay a delivery.').waitFor();
    expect(await endpoint.getByRole('button', { name: 'Send test event' }).isDisabled()).toBe(true);
    await page.reload();
    await endpoint.getByRole('switch', { checked: false }).click();
    await endpoint.getByTestId('webhook-endpoint-state').getByText('On: events are sent').waitFor();
    await endpoint.getByRole('button', { name: 'Send test event' }).and(page.locator(':enabled')).waitFor();

    // Deleting asks first (Cancel keeps it), then removes it.
    await endpoint.getByRole('button', { name: `Delete ${receiver.url}` }).click();
    const dialog = tab.confirmDialog(`Delete the endpoint ${receiver.url}?`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await tab.endpoints().count()).toBe(1);
    await endpoint.getByRole('button', { name: `Delete ${receiver.url}` }).click();
    await dialog.getByRole('button', { name: 'Delete endpoint' }).click();
    await tab.empty().waitFor();
    expect(await tab.endpoints().count()).toBe(0);
    expect(await tab.count().innerText()).toBe('0 of 1 endpoints used');
  }, 180_000);

  it('fits a phone, with controls big enough to tap and no serious axe violation', async () => {
    const page = await contexts.newPage(browser, { viewport: { width: 375, height: 812 } });
    const tab = await signUpAndOpen(page);
    await tab.empty().waitFor();
    expect(await audit(page)).toEqual({ violations: [], overflow: 0 });

    const url = `${receiver.url}/${'phone-'.repeat(20)}`;
    receiver.status = 204;
    await tab.add(url, 'A receiver with a long address', ['quota.threshold_reached', 'plan.changed']);
    await tab.secretPanel().waitFor();
    const endpoint = tab.endpoint(url);
    await endpoint.getByRole('button', { name: 'Send test event' }).click();
    await tab.deliveries(endpoint).first().and(page.locator('[data-status="delivered"]')).waitFor();
    expect(await audit(page)).toEqual({ violations: [], overflow: 0 });

    // Buttons, checkboxes and the switch (their whole label is the target) at least 44 px; text fields 40, as elsewhere.
    const sizes = await tab.panel().evaluate((panel) =>
      [
        ...panel.querySelectorAll<HTMLElement>(
          'button, label:has(input[type="checkbox"]), input:not([type="checkbox"])',
        ),
      ]
        .filter((element) => element.offsetParent !== null)
        .map((element) => ({
          control: element.innerText || element.getAttribute('aria-label') || element.tagName,
          height: Math.round(element.getBoundingClientRect().height),
          least: element.tagName === 'INPUT' ? 40 : 44,
        })),
    );
    // Send test event, Deliveries, Rotate secret, Delete, Refresh, Replay, Copy secret, I have copied it, Copy code,
    // the switch, five events, Add endpoint and two fields.
    expect(sizes.length).toBeGreaterThanOrEqual(18);
    expect(sizes.filter((control) => control.height < control.least)).toEqual([]);

    await endpoint.getByRole('button', { name: `Delete ${url}` }).click();
    await tab.confirmDialog(`Delete the endpoint ${url}?`).waitFor();
    expect(await audit(page)).toEqual({ violations: [], overflow: 0 });
  }, 120_000);

  it('speaks the interface language (French)', async () => {
    const page = await contexts.newPage(browser);
    const tab = await signUpAndOpen(page);
    await tab.empty().waitFor();
    await page.getByTestId('language-picker').click();
    await page.locator('[data-locale="fr"]').click();
    const fr = messagesOf('developer', 'fr');
    await tab.panel().getByRole('heading', { name: fr['webhooks.title'] }).waitFor();
    const tabs = page.getByRole('tablist', { name: fr['app.sections'] });
    expect(await tabs.getByRole('tab', { selected: true }).innerText()).toBe(fr['tabs.webhooks']);
    expect(await tab.empty().innerText()).toContain(fr['webhooks.empty.title']);
    expect(await tab.empty().innerText()).toContain(fr['webhooks.empty.text']);
    expect(await tab.form().getByRole('button', { name: fr['webhooks.add.submit'] }).count()).toBe(1);
    const english = untranslatedCandidates(['developer'], 'fr');
    expect(await visibleEnglish(page, english, { within: '[role="tabpanel"]' })).toEqual([]);
  }, 120_000);
});
