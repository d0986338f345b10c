import { eventually } from '@kasa/test-kit';
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { TestContexts, launchBrowser } from '../support/browser';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { messagesOf, untranslatedCandidates, visibleEnglish } from './pages/LanguageCheck';

/**
 * The interface in other languages (issue 15): the picker, the document's lang and dir, the choice kept in the
 * browser and in the account, Accept-Language, and no untranslated text on the pages a person walks through.
 * Every page is checked, whole, against the catalogues of the frontends on it: the shell's everywhere, the chat's on
 * /chat, the developer portal's (its own and its tab panels') on /developer, where the Overview, API keys (with a new
 * key), Analytics and SDKs tabs are walked, and the public site's (its own and its legal section) on the home,
 * pricing, features and privacy pages. What people wrote and the replies to it are not interface text and are
 * left out.
 */
let browser: Browser;
let platform: RunningPlatform;
const contexts = new TestContexts();

beforeAll(async () => {
  [browser, platform] = await Promise.all([launchBrowser(), startPlatform({ CHAT_OFFLINE_WORD_DELAY_MS: '5' })]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
});

afterEach(() => contexts.closeAll());

async function openPage(locale?: string): Promise<Page> {
  return contexts.newPage(browser, locale ? { locale } : {});
}

const CONVERSATION = '[data-testid="message-content"], [data-testid="chat-user"] strong, [data-testid="session-item"]';

async function expectTranslated(page: Page, locale: string, apps: string[] = ['shell']) {
  const candidates = untranslatedCandidates(apps, locale);
  expect(candidates.length).toBeGreaterThan(50 * apps.length);
  expect(await visibleEnglish(page, candidates, { except: CONVERSATION })).toEqual([]);
}

/** Opens a tab of the developer portal by its name in the page's language, once its panel is shown. */
async function openPortalTab(page: Page, portal: Record<string, string>, id: string) {
  const tab = page
    .getByRole('tablist', { name: portal['app.sections'] })
    .getByRole('tab', { name: portal[id], exact: true });
  await tab.click();
  await tab.and(page.locator('[aria-selected="true"]')).waitFor();
}

async function pickLanguage(page: Page, nativeName: string) {
  await page.getByTestId('language-picker').click();
  await page.locator('[data-locale]').filter({ hasText: nativeName }).click();
}

async function documentLanguage(page: Page) {
  return page.evaluate(() => ({ lang: document.documentElement.lang, dir: document.documentElement.dir }));
}

describe.each([
  { locale: 'tw', nativeName: 'Twi', dir: 'ltr' },
  { locale: 'ar', nativeName: 'العربية', dir: 'rtl' },
])('the web app in $nativeName', ({ locale, nativeName, dir }) => {
  const t = messagesOf('shell', locale);

  it('walks sign-up, chat, the portal and settings with no untranslated text, and keeps the choice', async () => {
    const page = await openPage();
    await page.goto(`${platform.baseUrl}/auth`);
    await page.getByRole('heading', { name: 'Welcome to Kasa' }).waitFor();
    expect(await documentLanguage(page)).toEqual({ lang: 'en', dir: 'ltr' });
    // The check below sees English when it is there.
    expect((await visibleEnglish(page, untranslatedCandidates(['shell'], locale))).length).toBeGreaterThan(5);

    await pickLanguage(page, nativeName);
    await page.getByRole('heading', { name: t['auth.welcome'] }).waitFor();
    expect(await documentLanguage(page)).toEqual({ lang: locale, dir });
    // The picker tells how far each translation can be trusted.
    await page.getByTestId('language-picker').click();
    const choices = page.locator('[data-locale]');
    expect(await choices.count()).toBe(9);
    expect(await choices.filter({ hasText: t['language.status.draft'] }).count()).toBe(8);
    await page.keyboard.press('Escape');
    await expectTranslated(page, locale);

    // Sign up in that language.
    const id = randomUUID().slice(0, 8);
    const person = { username: `efua_${id}`, email: `efua.${id}@example.com`, password: 'adinkra-sika' };
    await page.getByRole('tab', { name: t['auth.signUp'] }).click();
    const form = page.getByRole('form', { name: t['auth.signUpForm'] });
    await form.getByLabel(t['auth.username']!).fill(person.username);
    await form.getByLabel(t['auth.email']!, { exact: true }).fill(person.email);
    await form.getByLabel(t['auth.password']!, { exact: true }).fill(person.password);
    await form.getByLabel(t['auth.confirmPassword']!).fill(person.password);
    await form.getByRole('button', { name: t['auth.create'] }).click();

    // Chat: send a message and read the reply.
    await page.waitForURL(`${platform.baseUrl}/chat`);
    const chat = page.getByTestId('chat-app');
    await chat.waitFor();
    await chat.locator('textarea').fill('Akwaaba!');
    await chat.locator('textarea').press('Enter');
    await page.getByTestId('message-assistant').first().waitFor();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="message-assistant"]')?.getAttribute('data-status') !== 'streaming',
    );
    expect(await documentLanguage(page)).toEqual({ lang: locale, dir });
    // The persona greeting and the composer are the chat's own text, in the language too.
    const chatText = messagesOf('chat', locale);
    await page.getByRole('form', { name: chatText['composer.form'] }).waitFor();
    await expectTranslated(page, locale, ['shell', 'chat']);

    // The developer portal, in the language as well: its Overview with live figures, then API keys (empty, then
    // with a new key shown once), Analytics of what was just done, and the SDKs with a card's features.
    const portal = messagesOf('developer', locale);
    await page.getByRole('banner').getByRole('link', { name: t['nav.developer'], exact: true }).click();
    await page.getByTestId('developer-app').waitFor();
    await page.getByRole('heading', { name: portal['app.title'], level: 1 }).waitFor();
    await page.getByTestId('overview-personas').waitFor();
    await page.getByTestId('african-languages').waitFor();
    await expectTranslated(page, locale, ['shell', 'developer']);

    await openPortalTab(page, portal, 'tabs.keys');
    const panel = page.getByRole('tabpanel');
    await panel.getByTestId('no-keys').waitFor();
    await expectTranslated(page, locale, ['shell', 'developer']);
    await panel.getByLabel(portal['keys.name']!, { exact: true }).fill(`Nkɔmmɔ ${id}`);
    await panel.getByRole('button', { name: portal['keys.create'] }).click();
    await panel.getByTestId('new-key').waitFor();
    await panel.getByTestId('api-key').waitFor();
    await expectTranslated(page, locale, ['shell', 'developer']);

    await openPortalTab(page, portal, 'tabs.analytics');
    await panel.getByTestId('analytics-figures').waitFor();
    await panel.getByTestId('usage-total').waitFor();
    await panel.locator('[data-testid="analytics-sessions"], [data-testid="no-sessions"]').first().waitFor();
    await expectTranslated(page, locale, ['shell', 'developer']);

    await openPortalTab(page, portal, 'tabs.sdks');
    const details = panel.getByTestId('sdk-details');
    await details.getByRole('tab', { name: portal['sdks.tab.features'], exact: true }).click();
    await details.getByRole('listitem').first().waitFor();
    await expectTranslated(page, locale, ['shell', 'developer']);

    // Settings: the same choice, as radio buttons with their status.
    await page.getByRole('banner').getByRole('link', { name: t['nav.settings'], exact: true }).click();
    await page.getByRole('heading', { name: t['settings.language'] }).waitFor();
    expect(await page.getByRole('radio', { name: new RegExp(`^${nativeName}`) }).isChecked()).toBe(true);
    await expectTranslated(page, locale);

    // The account keeps the choice: a fresh browser that signs in gets it back.
    const token = await page.evaluate(() => window.localStorage.getItem('kasa_auth_token'));
    const saved = await fetch(`${platform.baseUrl}/api/auth/preferences/language`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await saved.json()).toMatchObject({ language: locale });

    const elsewhere = await openPage();
    await elsewhere.goto(`${platform.baseUrl}/auth`);
    await elsewhere.getByRole('tab', { name: 'Sign In' }).click();
    const signIn = elsewhere.getByRole('form', { name: 'Sign in' });
    await signIn.getByLabel('Email').fill(person.email);
    await signIn.getByLabel('Password', { exact: true }).fill(person.password);
    await signIn.getByRole('button', { name: 'Sign In' }).click();
    await elsewhere.waitForURL(`${platform.baseUrl}/chat`);
    await eventually(async () => (await documentLanguage(elsewhere)).lang === locale, {
      what: `the account's language (${locale}) to apply after signing in`,
    });
    await elsewhere.getByRole('form', { name: messagesOf('chat', locale)['composer.form'] }).waitFor();
    await expectTranslated(elsewhere, locale, ['shell', 'chat']);
  }, 120_000);

  it('opens the public pages (home, pricing, features, a legal page) with no untranslated text', async () => {
    const site = messagesOf('marketing', locale);
    const page = await openPage();
    await page.goto(`${platform.baseUrl}/`);
    await page.getByRole('heading', { name: 'Your Voice. Your AI. Your World.', level: 1 }).waitFor();
    await page.getByTestId('teaser-plan-pro').waitFor();
    // The check below sees the public site's English when it is there.
    expect((await visibleEnglish(page, untranslatedCandidates(['marketing'], locale))).length).toBeGreaterThan(10);

    // Home, in the language picked there: the hero, the voice demo once it knows which voices there are, and the
    // plans teaser from the API, whose texts the service sends in English and the page shows in the language.
    await pickLanguage(page, nativeName);
    await page.getByRole('heading', { name: site['landing.title'], level: 1 }).waitFor();
    expect(await documentLanguage(page)).toEqual({ lang: locale, dir });
    await page.getByTestId('teaser-plan-pro').getByText(site['plans.pro.description']!).waitFor();
    const demo = page.getByTestId('voice-demo');
    await demo.getByRole('button', { name: site['voiceDemo.play'] }).or(demo.getByRole('status')).first().waitFor();
    await expectTranslated(page, locale, ['shell', 'marketing']);

    // Pricing, reached from the navigation bar: plans, add-ons and questions.
    await page.getByRole('banner').getByRole('link', { name: t['nav.pricing'], exact: true }).click();
    await page.getByRole('heading', { name: site['pricing.title'], level: 1 }).waitFor();
    await page.getByTestId('plan-pro').getByRole('button', { name: site['plans.button.pro'] }).waitFor();
    await page.getByText(site['plans.faq.change.question']!).waitFor();
    await expectTranslated(page, locale, ['shell', 'marketing']);

    await page.goto(`${platform.baseUrl}/features`);
    await page.getByRole('heading', { name: site['features.title'], level: 1 }).waitFor();
    await page.getByRole('heading', { name: site['features.developers.title'] }).waitFor();
    await expectTranslated(page, locale, ['shell', 'marketing']);

    // A legal page: its long text is a section of its own, loaded when the page opens, and says that the English
    // text prevails.
    await page.goto(`${platform.baseUrl}/privacy`);
    await page.getByRole('heading', { name: site['privacy.title'], level: 1 }).waitFor();
    await page.getByText(site['legal.englishPrevails']!).waitFor();
    await page.getByText(site['privacy.use.noSale']!).waitFor();
    expect(await documentLanguage(page)).toEqual({ lang: locale, dir });
    await expectTranslated(page, locale, ['shell', 'marketing']);
  }, 90_000);
});

describe('the language a browser starts in', () => {
  it('follows the browser’s languages (Accept-Language) when nothing was picked', async () => {
    const page = await openPage('fr-FR');
    await page.goto(`${platform.baseUrl}/auth`);
    const fr = messagesOf('shell', 'fr');
    await page.getByRole('heading', { name: fr['auth.welcome'] }).waitFor();
    expect(await documentLanguage(page)).toEqual({ lang: 'fr', dir: 'ltr' });
    await expectTranslated(page, 'fr');
  }, 60_000);

  it('keeps a signed-out choice in this browser across reloads', async () => {
    const page = await openPage();
    await page.goto(`${platform.baseUrl}/auth`);
    await pickLanguage(page, 'Kiswahili');
    await page.reload();
    const sw = messagesOf('shell', 'sw');
    await page.getByRole('heading', { name: sw['auth.welcome'] }).waitFor();
    expect(await documentLanguage(page)).toEqual({ lang: 'sw', dir: 'ltr' });
  }, 60_000);
});
