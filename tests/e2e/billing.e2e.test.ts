/**
 * Paying for Pro with the built-in provider (test mode: no money), as a person does it in the browser: the test-mode
 * banner, the success page's verification with the server, the navigation bar's badge changing without a reload, and
 * the Settings page's billing card (renewal, cancel at period end, resume).
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import type { CheckoutResponse, SubscriptionResponse } from '@kasa/contracts';
import { seriousAxeViolations } from '../support/axe';
import { TestContexts, launchBrowser } from '../support/browser';
import { PaystackFake } from '../../services/auth/test/support/paystackFake';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { BillingSettings, BillingSuccessPage, testModeBanner } from './pages/BillingPages';
import { NavBar } from './pages/NavBar';
import { signUpToChat } from './pages/people';
import { PricingPage } from './pages/PricingPage';

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

/** The browser and this test agree on the time zone, so that a date reads the same in both. */
const openPage = () => contexts.newPage(browser, { timezoneId: 'UTC' });

/** A day as the English interface writes it (the billing card's `dateStyle: 'long'`). */
const day = (iso: string) =>
  new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(iso));

const toast = (page: Page) => page.getByTestId('toast');

/** GET /api/billing/subscription with the browser's own token: what the card should show. */
function subscriptionOf(page: Page): Promise<SubscriptionResponse> {
  return page.evaluate(async () => {
    const token = localStorage.getItem('kasa_auth_token');
    const res = await fetch('/api/billing/subscription', { headers: { authorization: `Bearer ${token}` } });
    return (await res.json()) as SubscriptionResponse;
  });
}

describe('test mode', () => {
  it('shows the banner on every page, to visitors and to signed-in people', async () => {
    const plans = (await (await fetch(`${platform.baseUrl}/api/billing/plans`)).json()) as { testMode: boolean };
    expect(plans.testMode).toBe(true);

    const page = await openPage();
    await page.goto(platform.baseUrl);
    await testModeBanner(page).getByText('Test mode: no real payments are taken').waitFor();
    expect(await testModeBanner(page).isVisible()).toBe(true);
    for (const path of ['/pricing', '/auth', '/status']) {
      await page.goto(`${platform.baseUrl}${path}`);
      await testModeBanner(page).waitFor();
    }
    await signUpToChat(page, platform.baseUrl);
    await testModeBanner(page).waitFor();
  });
});

describe('buying Pro', () => {
  it('verifies the payment, shows Pro at once, and manages the subscription from Settings', async () => {
    const page = await openPage();
    const nav = new NavBar(page);
    await signUpToChat(page, platform.baseUrl);
    expect(await nav.tierBadge().textContent()).toBe('Free');

    // Settings before any purchase: the plan, and the way to the plans.
    const billing = new BillingSettings(page);
    await nav.link('Settings').click();
    await billing.currentPlan().getByText('Free', { exact: true }).waitFor();
    await billing.root.getByText('You have not bought a plan.', { exact: false }).waitFor();
    expect(await billing.seePlans().getAttribute('href')).toBe('/pricing');

    // Upgrade from the pricing page; everything after happens in this one page load.
    await billing.seePlans().click();
    const pricing = new PricingPage(page);
    await pricing.plan('pro').waitFor();
    await page.evaluate(() => ((window as unknown as { loadMarker: string }).loadMarker = 'same page'));
    await pricing.upgrade('pro');
    await toast(page).getByText('Upgrading to Pro').waitFor();
    await page.waitForURL(/\/billing\/success\?reference=KASA-[0-9A-Z]{10}$/);
    // 'Upgrading to Pro' would show 5 s from the click; it closes as the success page comes, which says the rest.
    await page.waitForFunction(
      () =>
        ![...document.querySelectorAll('[data-testid="toast"]')].some((el) => el.textContent?.includes('Upgrading')),
      null,
      { timeout: 1_000 },
    );
    const reference = new URL(page.url()).searchParams.get('reference');

    const success = new BillingSuccessPage(page);
    await success.heading('Payment Successful!').waitFor();
    expect(await success.phase()).toBe('paid');
    expect(await success.reference().textContent()).toBe(reference);
    expect(await success.plan().textContent()).toBe('Pro');
    expect(await success.status().textContent()).toBe('Paid');
    expect(await success.amount().textContent()).toBe('$29');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await nav.tierBadge().getByText('Pro', { exact: true }).waitFor();
    // The banner still says that no money was taken.
    await testModeBanner(page).waitFor();
    expect(await page.evaluate(() => (window as unknown as { loadMarker?: string }).loadMarker)).toBe('same page');

    // Settings: Pro, active, renewing at the end of the month paid for, for $29.
    const { subscription, testMode } = await subscriptionOf(page);
    expect(testMode).toBe(true);
    expect(subscription).toMatchObject({ planId: 'pro', status: 'active', processor: 'builtin', canCancel: true });
    const periodEnd = subscription!.currentPeriodEnd!;
    await nav.link('Settings').click();
    await billing.currentPlan().getByText('Pro', { exact: true }).waitFor();
    expect(await billing.status().textContent()).toBe('Active');
    expect(await billing.renewal().textContent()).toBe(`${day(periodEnd)} for $29`);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Manage payment: test mode has no processor page, and says so.
    await billing.button('Manage payment').click();
    await toast(page).getByText('Test mode has no payment provider page: your plan is managed here.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/settings');

    // Cancel at period end, after a confirmation that can be declined.
    await billing.button('Cancel subscription').click();
    const dialog = billing.cancelDialog();
    await dialog.getByText(`You keep Pro until ${day(periodEnd)}`, { exact: false }).waitFor();
    // The safe choice has the focus, so Enter never cancels by accident.
    expect(await dialog.getByRole('button', { name: 'Keep Pro' }).evaluate((b) => b === document.activeElement)).toBe(
      true,
    );
    expect(await seriousAxeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Keep Pro' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await billing.status().textContent()).toBe('Active');
    await billing.button('Cancel subscription').click();
    await billing.cancelDialog().getByRole('button', { name: 'Cancel at period end' }).click();
    await toast(page).getByText('Subscription canceled').waitFor();
    await billing.endsOn().getByText(day(periodEnd), { exact: true }).waitFor();
    expect(await billing.status().textContent()).toBe('Canceled');
    expect(await billing.renewal().count()).toBe(0);
    expect(await billing.button('Cancel subscription').count()).toBe(0);
    expect((await subscriptionOf(page)).subscription).toMatchObject({ cancelAtPeriodEnd: true, canResume: true });
    // The plan itself is untouched until then.
    expect(await nav.tierBadge().textContent()).toBe('Pro');

    // Resume: renewing again, as before.
    await billing.button('Resume subscription').click();
    await toast(page).getByText('Subscription resumed').waitFor();
    await billing
      .renewal()
      .getByText(`${day(periodEnd)} for $29`, { exact: true })
      .waitFor();
    expect(await billing.status().textContent()).toBe('Active');
    expect(await billing.endsOn().count()).toBe(0);
    await billing.button('Cancel subscription').waitFor();
    expect((await subscriptionOf(page)).subscription).toMatchObject({ cancelAtPeriodEnd: false, canCancel: true });

    // After a reload the card reads the same from the server.
    await page.reload();
    await billing
      .renewal()
      .getByText(`${day(periodEnd)} for $29`, { exact: true })
      .waitFor();
    expect(await nav.tierBadge().textContent()).toBe('Pro');
  }, 120_000);
});

/**
 * A new account signed in in this browser (registered through the API, its token where the web app keeps it), on
 * the Settings page; answers its email address.
 */
async function signUpToSettings(page: Page): Promise<string> {
  const id = randomUUID().slice(0, 8);
  const email = `esi.${id}@example.com`;
  const res = await fetch(`${platform.baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: `esi_${id}`, email, password: 'adinkra-sika' }),
  });
  expect(res.status).toBe(201);
  const { token } = (await res.json()) as { token: string };
  await page.goto(`${platform.baseUrl}/about`);
  await page.evaluate((value) => localStorage.setItem('kasa_auth_token', value), token);
  await page.goto(`${platform.baseUrl}/settings`);
  return email;
}

/** Buys Pro with the browser's own token (test mode) and keeps the fresh token it gives; answers the reference. */
async function buyProInPage(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const res = await fetch('/api/billing/checkout', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${localStorage.getItem('kasa_auth_token')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ planId: 'pro' }),
    });
    const body = (await res.json()) as Extract<CheckoutResponse, { outcome: 'checkout' }>;
    localStorage.setItem('kasa_auth_token', body.token!);
    return body.reference;
  });
}

describe('billing history and receipts', () => {
  it('starts empty, then shows the payment, whose receipt opens and downloads as a PDF', async () => {
    const page = await openPage();
    const billing = new BillingSettings(page);
    const email = await signUpToSettings(page);
    await billing.history().getByText('No payments yet. Your receipts will appear here.').waitFor();
    expect(await billing.extraCalls().count()).toBe(0);

    const reference = await buyProInPage(page);
    await page.goto(`${platform.baseUrl}/settings`);
    const item = billing.historyItem(reference);
    await item.getByText('Pro plan, 1 month').waitFor();
    expect(await item.textContent()).toContain('$29');
    expect(await billing.historyItems().count()).toBe(1);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await item.getByRole('button', { name: 'View receipt' }).click();
    const dialog = billing.receiptDialog();
    await dialog.waitFor();
    const receipt = billing.receiptFrame();
    await receipt.getByRole('heading', { name: 'Kasa' }).waitFor();
    for (const text of [reference, 'Kasa Pro plan, 1 month', 'USD 29.00', `builtin_${reference}`, email])
      await receipt.getByText(text, { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      item.getByRole('button', { name: 'Download PDF' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`kasa-receipt-${reference}.pdf`);
    const pdf = await readFile((await download.path())!);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  }, 120_000);
});

describe('extra calls', () => {
  it('lets a Pro person buy a pack from Settings, which the history then shows', async () => {
    const page = await openPage();
    const billing = new BillingSettings(page);
    await signUpToSettings(page);
    await billing.history().getByTestId('billing-history-empty').waitFor();
    await buyProInPage(page);
    await page.goto(`${platform.baseUrl}/settings`);
    const offer = billing.extraCalls();
    await offer.getByText('Add 10,000 API calls to this month for $5, paid once.', { exact: false }).waitFor();
    await offer.getByRole('button', { name: 'Buy 10,000 extra calls' }).click();
    await toast(page).getByText('Extra calls added').waitFor();
    await billing.history().getByText('Extra API calls: 10,000 calls').waitFor();
    expect(await billing.historyItems().count()).toBe(2);
    // Newest first: the pack, then the plan.
    expect(await billing.historyItems().first().textContent()).toContain('$5');
    expect(await seriousAxeViolations(page)).toEqual([]);
  }, 120_000);
});

describe('the success page when there is nothing to confirm', () => {
  it('asks a signed-out visitor to sign in, and tells a signed-in person a reference is not theirs', async () => {
    const page = await openPage();
    const success = new BillingSuccessPage(page);
    await page.goto(`${platform.baseUrl}/billing/success?reference=KASA-7M3QK9D2XH`);
    await success.heading('Sign in to check your payment').waitFor();
    expect(await success.reference().textContent()).toBe('KASA-7M3QK9D2XH');
    expect(await page.locator('#main').getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe('/auth');

    await signUpToChat(page, platform.baseUrl);
    await page.goto(`${platform.baseUrl}/billing/success?reference=KASA-7M3QK9D2XH`);
    await success.heading('Payment not found').waitFor();
    expect(await page.getByRole('link', { name: 'Go to Settings' }).getAttribute('href')).toBe('/settings');
    expect(await success.plan().count()).toBe(0);

    await page.goto(`${platform.baseUrl}/billing/success`);
    await success.heading('No payment to check').waitFor();
    expect(await page.locator('#main').getByRole('link', { name: 'Back to Pricing' }).getAttribute('href')).toBe(
      '/pricing',
    );
  });
});

describe('paying on the processor’s page (Paystack)', () => {
  const fake = new PaystackFake(`sk_test_${randomUUID().replace(/-/g, '')}`);
  let paystackPlatform: RunningPlatform;

  beforeAll(async () => {
    await fake.start();
    // Paystack alone takes the payments, in cedis, a month at a time (no plan: mobile money's way).
    paystackPlatform = await startPlatform({
      KASA_PAYMENTS: 'paystack',
      PAYSTACK_SECRET_KEY: fake.secretKey,
      PAYSTACK_API_BASE: fake.url,
      PAYSTACK_CURRENCY: 'GHS',
    });
  }, 120_000);

  afterAll(async () => {
    await paystackPlatform?.stop();
    await fake.stop();
  });

  it('checks a payment still pending with the processor, then shows it paid once Paystack confirms it', async () => {
    const baseUrl = paystackPlatform.baseUrl;
    const page = await openPage();
    // Paystack's hosted page: the person is there, and has not paid yet.
    await page.route('https://checkout.paystack.example/**', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><title>Paystack</title><h1>Pay with Paystack</h1>',
      }),
    );
    const nav = new NavBar(page);
    await signUpToChat(page, baseUrl);

    // No test mode here: real processors take real money.
    const plans = (await (await fetch(`${baseUrl}/api/billing/plans`)).json()) as { testMode: boolean };
    expect(plans.testMode).toBe(false);
    expect(await testModeBanner(page).count()).toBe(0);

    const pricing = new PricingPage(page);
    await pricing.open(baseUrl);
    await pricing.upgrade('pro');
    await page.waitForURL(/^https:\/\/checkout\.paystack\.example\//);
    await page.getByRole('heading', { name: 'Pay with Paystack' }).waitFor();
    const accessCode = new URL(page.url()).pathname.slice(1);
    const transaction = [...fake.transactions.values()].find((tx) => tx.access_code === accessCode);
    expect(transaction).toMatchObject({ amount: 350_00, currency: 'GHS' });
    const reference = transaction!.reference;

    // Back at Kasa before Paystack has confirmed (the webhook has not come either): Kasa keeps asking.
    await page.goto(`${baseUrl}/billing/success?reference=${reference}`);
    const success = new BillingSuccessPage(page);
    await success.heading('Checking your payment…').waitFor();
    await success.status().getByText('Pending', { exact: true }).waitFor();
    expect(await nav.tierBadge().textContent()).toBe('Free');
    await page.evaluate(() => ((window as unknown as { loadMarker: string }).loadMarker = 'same page'));

    // The person pays; no webhook is delivered, so only the page's verification can find out.
    fake.pay(reference, { channel: 'mobile_money' });
    await success.heading('Payment Successful!').waitFor({ timeout: 20_000 });
    expect(await success.plan().textContent()).toBe('Pro');
    expect(await success.amount().textContent()).toMatch(/^GH(S|₵)\s?350$/);
    await nav.tierBadge().getByText('Pro', { exact: true }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { loadMarker?: string }).loadMarker)).toBe('same page');

    // A month bought with mobile money does not renew: Settings says until when it is paid, with nothing to cancel.
    const { subscription } = await subscriptionOf(page);
    expect(subscription).toMatchObject({ processor: 'paystack', status: 'active', canCancel: false, canManage: false });
    const billing = new BillingSettings(page);
    await nav.link('Settings').click();
    await billing.currentPlan().getByText('Pro', { exact: true }).waitFor();
    await billing.root.getByTestId('billing-paid-until').getByText(day(subscription!.currentPeriodEnd!)).waitFor();
    expect(await billing.button('Cancel subscription').count()).toBe(0);
    expect(await billing.button('Manage payment').count()).toBe(0);
    expect(await billing.seePlans().getAttribute('href')).toBe('/pricing');
  }, 120_000);
});
