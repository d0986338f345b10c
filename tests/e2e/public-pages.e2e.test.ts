import { connectDatabase, createLogger } from '@kasa/service-kit';
import type { Connection } from 'mongoose';
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { TestContexts, launchBrowser } from '../support/browser';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { AuthPage } from './pages/AuthPage';
import { ContactPage } from './pages/ContactPage';
import { Footer } from './pages/Footer';
import { NavBar } from './pages/NavBar';
import { PricingPage } from './pages/PricingPage';

// The auth service's database of this run, opened directly to check what the pages stored.
const AUTH_DB_NAME = `kasa_auth_public_${randomUUID().slice(0, 8)}`;

let platform: RunningPlatform;
let browser: Browser;
let authDb: Connection;
const contexts = new TestContexts();

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 812 };

beforeAll(async () => {
  [platform, browser] = await Promise.all([startPlatform({ AUTH_DB_NAME }), launchBrowser()]);
  authDb = await connectDatabase({
    url: process.env.MONGO_URL!,
    dbName: AUTH_DB_NAME,
    logger: createLogger({ service: 'public-pages-e2e', version: 'test', level: 'silent' }),
    maxAttempts: 3,
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
  await authDb?.dropDatabase().catch(() => undefined);
  await authDb?.close();
});

afterEach(() => contexts.closeAll());

async function openPage(viewport = DESKTOP): Promise<Page> {
  return contexts.newPage(browser, { viewport });
}

const toast = (page: Page) => page.getByTestId('toast');
const collection = (name: string) => authDb.collection(name);

function newPerson() {
  const id = randomUUID().slice(0, 8);
  return { username: `adwoa_${id}`, email: `adwoa.${id}@example.com`, password: 'sankofa-123' };
}

async function signUp(page: Page) {
  const person = newPerson();
  const auth = new AuthPage(page);
  await auth.open(platform.baseUrl);
  await auth.signUp(person);
  await page.waitForURL(`${platform.baseUrl}/chat`);
  return person;
}

interface PublicPage {
  path: string;
  heading: string;
  texts: ReadonlyArray<string | RegExp>;
}

const comingSoon = (path: string, heading: string): PublicPage => ({
  path,
  heading,
  texts: ['This page is coming soon.', 'Back to Home'],
});

const PUBLIC_PAGES: readonly PublicPage[] = [
  { path: '/features', heading: 'Features', texts: ['120+ languages', 'Meet the Personas', 'Dokta'] },
  { path: '/about', heading: 'About Kasa', texts: [/“to speak” in Akan/, /\[Company legal name\]/] },
  { path: '/privacy', heading: 'Privacy Policy', texts: [/argon2id/, /\[Company legal name\]/, 'Back to Home'] },
  { path: '/terms', heading: 'Terms of Service', texts: ['4. Acceptable use', /\[Governing jurisdiction\]/] },
  { path: '/cookies', heading: 'Cookie Policy', texts: [/kasa_session/, /No tracking or advertising cookies/] },
  { path: '/gdpr', heading: 'GDPR', texts: ['3. Your rights', /Data request/, /\[Data protection officer contact\]/] },
  {
    path: '/pricing',
    heading: 'Choose Your Plan',
    texts: ['Most Popular', '$29', '$199', 'Premium Add-ons', 'Can I change plans at any time?', 'Go to Chat'],
  },
  {
    // Only the account that paid can see a payment: a visitor is asked to sign in (tests/e2e/billing.e2e.test.ts).
    path: '/billing/success?reference=KASA-7M3QK9D2XH',
    heading: 'Sign in to check your payment',
    texts: ['Transaction Reference', 'KASA-7M3QK9D2XH', 'Go to Developer Portal'],
  },
  {
    path: '/status',
    heading: 'Service Status',
    texts: ['Accounts & sign-in', 'Voice & languages', /every 30 seconds/],
  },
  {
    path: '/help',
    heading: 'Help Center',
    texts: ['Welcome to Kasa', 'Chat tour', 'Developer portal tour', 'Developer Portal and API Documentation'],
  },
  { path: '/contact', heading: 'Contact Us', texts: ['Send Message', 'hello@kasa.example', 'support@kasa.example'] },
  comingSoon('/integrations', 'Integrations'),
  comingSoon('/blog', 'Blog'),
  comingSoon('/careers', 'Careers'),
  comingSoon('/press', 'Press'),
  comingSoon('/community', 'Community'),
];

describe.each([
  ['desktop', DESKTOP],
  ['phone', PHONE],
])('public pages at %s width', (_name, viewport) => {
  it('shows every page with its heading and content, the footer, and no sideways scrolling', async () => {
    const page = await openPage(viewport);
    const footer = new Footer(page);
    for (const route of PUBLIC_PAGES) {
      await page.goto(`${platform.baseUrl}${route.path}`);
      const main = page.locator('#main');
      await main.getByRole('heading', { name: route.heading, level: 1 }).waitFor();
      for (const text of route.texts) {
        await main
          .getByText(text, { exact: typeof text === 'string' })
          .first()
          .waitFor({ timeout: 10_000 })
          .catch((err: Error) => {
            throw new Error(`${route.path}: "${String(text)}" not shown (${err.message.split('\n')[0]})`);
          });
      }
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > viewport.width) throw new Error(`${route.path} is ${width} px wide at ${viewport.width} px`);
    }
    // The footer of the last page: the newsletter box, two mailboxes and six social links.
    await footer.newsletter().waitFor();
    expect(await footer.mailboxes().evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual([
      'mailto:hello@kasa.example',
      'mailto:support@kasa.example',
    ]);
    expect(await footer.socialLinks().count()).toBe(6);
  }, 120_000);

  it('answers an unknown route with the 404 page', async () => {
    const page = await openPage(viewport);
    await page.goto(`${platform.baseUrl}/no-such-page`);
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
  });
});

describe('status page', () => {
  it('shows the live state of every service from GET /api/status', async () => {
    const page = await openPage();
    await page.goto(`${platform.baseUrl}/status`);
    await page.getByTestId('status-overall').getByText('All Systems Operational').waitFor();
    for (const service of ['auth', 'chat', 'voice', 'status']) {
      await page.getByTestId(`status-service-${service}`).getByText('Operational').waitFor();
    }
  });
});

describe('landing page', () => {
  it('teases the three plans from the same data as the pricing page', async () => {
    const page = await openPage();
    await page.goto(platform.baseUrl);
    await page.getByRole('heading', { name: 'Simple, Transparent Pricing' }).waitFor();
    await page.getByTestId('teaser-plan-pro').getByText('$29').waitFor();
    await page.getByTestId('teaser-plan-enterprise').getByText('$199').waitFor();
    await page.getByTestId('teaser-plan-free').getByText('1,000 API calls per month').waitFor();
  });
});

describe('footer newsletter', () => {
  it('refuses a malformed address, then subscribes once however often the address is sent', async () => {
    const page = await openPage();
    await page.goto(`${platform.baseUrl}/about`);
    const footer = new Footer(page);

    await footer.subscribe('not-an-email');
    await toast(page).getByText('Invalid Email').waitFor();

    const email = `Esi.${randomUUID().slice(0, 8)}@Example.com`;
    await footer.subscribe(email);
    await toast(page).getByText('Subscribed!').waitFor();
    await toast(page)
      .getByText(/Thanks for subscribing/)
      .waitFor();
    expect(await footer.newsletter().getByLabel('Email address').inputValue()).toBe('');

    await footer.subscribe(email.toLowerCase());
    await toast(page).getByText('Subscribed!').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await collection('newsletter_subscriptions').countDocuments({ email: email.toLowerCase() })).toBe(1);
  });

  it('shows the server’s refusal in a toast', async () => {
    const page = await openPage();
    await page.goto(`${platform.baseUrl}/about`);
    // Passes the browser's rough shape check; the server refuses the trailing dot.
    await new Footer(page).subscribe('esi@example.com.');
    await toast(page).getByText('Subscription Failed').waitFor();
    await toast(page).getByText(/email/).waitFor();
  });
});

describe('contact form', () => {
  it('checks the fields, then sends the message and shows its reference', async () => {
    const page = await openPage(PHONE);
    const contact = new ContactPage(page);
    await contact.open(platform.baseUrl);

    await contact.send();
    await toast(page).getByText('Missing Information').waitFor();
    await toast(page).getByText('Please fill in all fields').waitFor();

    const message = {
      name: 'Kojo Antwi',
      email: 'kojo@',
      subject: 'Ewe voices',
      message: 'When will Kasa speak Ewe with a second voice?',
    };
    await contact.fill(message);
    await contact.send();
    await toast(page).getByText('Invalid Email').waitFor();
    expect(await contact.form().getByLabel('Email').getAttribute('aria-invalid')).toBe('true');

    const email = `kojo.${randomUUID().slice(0, 8)}@example.com`;
    await contact.form().getByLabel('Email').fill(email);
    await contact.send();
    await toast(page).getByText('Message Sent').waitFor();
    const confirmation = await contact.confirmation().textContent();
    const reference = /MSG-[0-9A-Z]{8}/.exec(confirmation ?? '')?.[0];
    expect(reference).toBeDefined();
    expect(await contact.form().getByLabel('Name').inputValue()).toBe('');

    const stored = await collection('contact_messages').findOne({ reference });
    expect(stored).toMatchObject({ name: message.name, email, subject: message.subject, message: message.message });
  });
});

describe('upgrading from the pricing page', () => {
  it('asks a signed-out visitor to sign in and takes them to /auth', async () => {
    const page = await openPage();
    const pricing = new PricingPage(page);
    await pricing.open(platform.baseUrl);
    expect(await pricing.tierBadge().textContent()).toBe('FREE');
    await pricing.planButton('pro').click();
    await toast(page).getByText('Authentication Required').waitFor();
    await toast(page).getByText('Please sign in to upgrade your plan').waitFor();
    await page.waitForURL(`${platform.baseUrl}/auth`);
  });

  it('Free: says so; Pro: pays, shows the reference and the new tier at once; Enterprise: stores an inquiry', async () => {
    const page = await openPage();
    const nav = new NavBar(page);
    const pricing = new PricingPage(page);
    const person = await signUp(page);
    const oldToken = await page.evaluate(() => localStorage.getItem('kasa_auth_token'));
    expect(await nav.tierBadge().textContent()).toBe('Free');

    await pricing.open(platform.baseUrl);
    await pricing.faq().waitFor();
    expect(await pricing.tierBadge().textContent()).toBe('FREE');
    await pricing.plan('free').getByText('Current Plan').waitFor();

    // Free
    await pricing.planButton('free').click();
    await toast(page).getByText('Already on Free Plan').waitFor();

    // Pro
    await pricing.upgrade('pro');
    const processing = pricing.plan('pro').getByRole('button', { name: 'Processing...' });
    await processing.waitFor();
    expect(await processing.isDisabled()).toBe(true);
    await toast(page).getByText('Redirecting to payment processing...').waitFor();
    await page.waitForURL(/\/billing\/success\?reference=KASA-[0-9A-Z]{10}$/);
    const reference = new URL(page.url()).searchParams.get('reference');
    await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
    expect(await page.getByTestId('transaction-reference').textContent()).toBe(reference);
    await page.getByTestId('billing-plan').getByText('Pro').waitFor();
    await nav.tierBadge().getByText('Pro', { exact: true }).waitFor();

    // The browser holds a fresh token that carries the new tier; the server agrees.
    const me = await page.evaluate(async () => {
      const token = localStorage.getItem('kasa_auth_token');
      const res = await fetch('/api/auth/me', { headers: { authorization: `Bearer ${token}` } });
      return { token, status: res.status, body: (await res.json()) as { user: { subscriptionTier: string } } };
    });
    expect(me.status).toBe(200);
    expect(me.body.user.subscriptionTier).toBe('pro');
    expect(me.token).not.toBe(oldToken);
    const claims = JSON.parse(Buffer.from(me.token!.split('.')[1]!, 'base64url').toString()) as { tier: string };
    expect(claims.tier).toBe('pro');
    const payment = await collection('payments').findOne({ reference });
    expect(payment).toMatchObject({ planId: 'pro', status: 'completed', amount: 29 });

    // The tier survives a reload, and the pricing page shows it.
    await pricing.open(platform.baseUrl);
    await page.reload();
    await pricing.plan('pro').getByText('Current Plan').waitFor();
    expect(await pricing.tierBadge().textContent()).toBe('PRO');

    // Enterprise
    // Enterprise: the inquiry form first (company, seats, a number to call back on), then the spec's toast.
    await pricing.planButton('enterprise').click();
    const form = page.getByRole('dialog', { name: 'Talk to our sales team' });
    await form.getByLabel('Company or organisation').fill('Accra Logistics');
    await form.getByLabel('Seats (people who would use Kasa)').fill('40');
    await form.getByLabel('Phone number (optional)').fill('+233 20 000 0000');
    await form.getByRole('button', { name: 'Send inquiry' }).click();
    await toast(page).getByText('Enterprise Inquiry').waitFor();
    await form.waitFor({ state: 'detached' });
    await toast(page).getByText('Our sales team will contact you shortly to discuss enterprise solutions.').waitFor();
    const user = await collection('users').findOne({ email: person.email });
    const inquiry = await collection('enterprise_inquiries').findOne({ userId: user!._id.toString() });
    expect(inquiry).toMatchObject({
      username: person.username,
      currentTier: 'pro',
      status: 'open',
      company: 'Accra Logistics',
      seats: 40,
      phone: '+233 20 000 0000',
    });
    expect(page.url()).toBe(`${platform.baseUrl}/pricing`);
  }, 60_000);
});
