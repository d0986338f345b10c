import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { Browser, BrowserContextOptions, Page, Response } from 'playwright-core';
import { TestContexts, launchBrowser } from '../support/browser';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { AuthPage } from './pages/AuthPage';
import { ChatPage } from './pages/ChatPage';
import { NavBar } from './pages/NavBar';
import { ThemeSettingsPage } from './pages/ThemeSettingsPage';
import { TourOverlay } from './pages/TourOverlay';

let platform: RunningPlatform;
/** Tours marked as seen in every new context (launchBrowser's default). */
let browser: Browser;
/** Tours as a first-time visitor meets them. */
let freshBrowser: Browser;
const contexts = new TestContexts();

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 812 };

beforeAll(async () => {
  [platform, browser, freshBrowser] = await Promise.all([
    startPlatform(),
    launchBrowser(),
    launchBrowser({ guidedTours: true }),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([browser?.close(), freshBrowser?.close()]);
  await platform?.stop();
});

afterEach(() => contexts.closeAll());

async function openPage(from: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  return contexts.newPage(from, { viewport: DESKTOP, ...options });
}

function newPerson() {
  const id = randomUUID().slice(0, 8);
  return { username: `akos_${id}`, email: `akosua.${id}@example.com`, password: 'kente-cloth-1' };
}

async function signUp(page: Page, person = newPerson()) {
  const auth = new AuthPage(page);
  await auth.open(platform.baseUrl);
  await auth.signUp(person);
  await page.waitForURL(`${platform.baseUrl}/chat`);
  return person;
}

const toast = (page: Page, title: string) => page.getByTestId('toast').getByText(title, { exact: true });

describe('theme settings', () => {
  it('applies presets, filters them by category, and keeps the choice across a reload', async () => {
    const page = await openPage(browser);
    const theme = new ThemeSettingsPage(page);
    await theme.open(platform.baseUrl);

    await theme.categoryFilter(/^All \(6\)$/).waitFor();
    await theme.categoryFilter(/^Professional \(2\)$/).click();
    expect(await theme.presetCards().count()).toBe(2);
    await theme.categoryFilter(/^All/).click();
    expect(await theme.presetCards().count()).toBe(6);

    await theme.preset('cyber-dark').click();
    await toast(page, 'Theme Applied').waitFor();
    expect((await theme.rootTheme()).classes).toEqual(expect.arrayContaining(['dark', 'scheme-cyber']));
    const darkBackground = (await theme.rootTheme()).background;

    await page.reload();
    await theme.tab('Presets').waitFor();
    const after = await theme.rootTheme();
    expect(after.classes).toEqual(expect.arrayContaining(['dark', 'scheme-cyber']));
    expect(after.background).toBe(darkBackground);
  });

  it('changes mode, scheme, contrast, animations and sliders, exports, copies and resets', async () => {
    const page = await openPage(browser, { acceptDownloads: true, permissions: ['clipboard-read', 'clipboard-write'] });
    const theme = new ThemeSettingsPage(page);
    await theme.open(platform.baseUrl);

    await theme.tab('Customize').click();
    await page.getByRole('radio', { name: 'Dark' }).check();
    await page.getByRole('radio', { name: 'Neon' }).check();
    expect((await theme.rootTheme()).classes).toEqual(expect.arrayContaining(['dark', 'scheme-neon']));

    await theme.tab('Advanced').click();
    await page.getByRole('switch', { name: 'High Contrast' }).check();
    await page.getByRole('switch', { name: 'Animations' }).uncheck();
    const fontSize = page.getByLabel('Font size');
    await fontSize.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    const radius = page.getByLabel('Border radius');
    await radius.focus();
    await page.keyboard.press('End');
    let root = await theme.rootTheme();
    expect(root.classes).toEqual(expect.arrayContaining(['high-contrast', 'reduce-motion']));
    expect(root.fontSize).toBe('16px');
    expect(root.radius).toBe('20px');
    // High contrast dark is black.
    expect(root.background).toBe('#000000');

    const download = page.waitForEvent('download');
    await theme.action('Export').click();
    const file = await (await download).path();
    const exported = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(exported).toMatchObject({
      mode: 'dark',
      colorScheme: 'neon',
      highContrast: true,
      animations: false,
      customSettings: { fontSize: 16, borderRadius: 20, spacing: 16 },
      exportedAt: expect.any(String),
    });
    await toast(page, 'Theme Exported').waitFor();

    await theme.action('Copy Config').click();
    await toast(page, 'Theme Copied').waitFor();
    const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()));
    expect(copied.colorScheme).toBe('neon');

    await theme.action('Reset').click();
    await toast(page, 'Reset Complete').waitFor();
    root = await theme.rootTheme();
    expect(root.classes).toEqual(['light', 'scheme-electric']);
    expect(root.fontSize).toBe('14px');
    expect(root.radius).toBe('8px');
  });

  it('follows the system dark mode and reduced motion on a first visit', async () => {
    const page = await openPage(browser, { colorScheme: 'dark', reducedMotion: 'reduce' });
    await page.goto(`${platform.baseUrl}/theme-settings`);
    await page.getByRole('heading', { name: 'Theme Settings', level: 1 }).waitFor();
    const classes = await page.evaluate(() => Array.from(document.documentElement.classList));
    expect(classes).toEqual(expect.arrayContaining(['dark', 'scheme-electric', 'reduce-motion']));
  });

  it('follows a signed-in person to another browser', async () => {
    const first = await openPage(browser);
    const isThemeSave = (res: Response) =>
      res.url().endsWith('/api/auth/preferences/theme') && res.request().method() === 'PUT' && res.ok();
    // A new account has no theme: it takes this browser's.
    const firstSave = first.waitForResponse(isThemeSave);
    const person = await signUp(first);
    await firstSave;
    const theme = new ThemeSettingsPage(first);
    // The saved theme is still on its way when the person picks one: their pick must win and be saved.
    let releaseSavedTheme = () => {};
    const pickMade = new Promise<void>((resolve) => (releaseSavedTheme = resolve));
    await first.route('**/api/auth/preferences/theme', async (route) => {
      if (route.request().method() === 'GET') await pickMade;
      await route.continue();
    });
    await theme.open(platform.baseUrl);
    const saved = first.waitForResponse(
      (res) => isThemeSave(res) && (res.request().postData() ?? '').includes('"neon"'),
    );
    await theme.preset('neon-dreams').click();
    releaseSavedTheme();
    await saved;
    expect((await theme.rootTheme()).classes).toContain('scheme-neon');

    const second = await openPage(browser);
    await second.goto(`${platform.baseUrl}/`);
    expect(await second.evaluate(() => document.documentElement.classList.contains('scheme-neon'))).toBe(false);
    const auth = new AuthPage(second);
    await auth.open(platform.baseUrl);
    await auth.signIn(person);
    await second.waitForURL(`${platform.baseUrl}/chat`);
    await second.waitForFunction(() => document.documentElement.classList.contains('scheme-neon'));
    expect(await second.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
  });

  it('switches mode and scheme from the navigation bar', async () => {
    const page = await openPage(browser);
    await page.goto(platform.baseUrl);
    const nav = new NavBar(page);
    await nav.themePicker().click();
    await nav.themeMenuItem('Quantum').click();
    await nav.themeMenuItem(/Switch to dark mode/).click();
    const classes = await page.evaluate(() => Array.from(document.documentElement.classList));
    expect(classes).toEqual(expect.arrayContaining(['dark', 'scheme-quantum']));
    await page.keyboard.press('Escape');
    expect(await page.getByRole('group', { name: 'Theme' }).count()).toBe(0);
  });
});

describe('settings page', () => {
  it('sends a signed-out visitor to /auth', async () => {
    const page = await openPage(browser);
    await page.goto(`${platform.baseUrl}/settings`);
    await page.waitForURL(`${platform.baseUrl}/auth`);
  });

  it('shows the theme card, five coming-soon areas and the quick actions', async () => {
    const page = await openPage(browser);
    const person = await signUp(page);
    await page.goto(`${platform.baseUrl}/settings`);
    await page.getByTestId('settings-user').getByText(person.username).waitFor();
    const areas = page.getByRole('list', { name: 'Settings areas' });
    await areas.getByText('Personalized').waitFor();
    expect(await areas.getByText('Coming Soon').count()).toBe(5);
    for (const name of ['Account', 'Notifications', 'Privacy & Security', 'Language & Region', 'Voice & Audio']) {
      await areas.getByRole('heading', { name }).waitFor();
    }
    expect(await page.getByRole('button', { name: 'Test Notifications' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Security Check' }).isDisabled()).toBe(true);
    await page.getByRole('link', { name: 'Customize Theme' }).click();
    await page.waitForURL(`${platform.baseUrl}/theme-settings`);
  });
});

describe('guided tours', () => {
  it('starts the welcome tour 2 s after a first visit to /, and Complete records it', async () => {
    const page = await openPage(freshBrowser);
    const tour = new TourOverlay(page);
    const opened = Date.now();
    await page.goto(platform.baseUrl);
    await tour.card().waitFor({ timeout: 10_000 });
    expect(Date.now() - opened).toBeGreaterThanOrEqual(1_900);
    await tour.counter().getByText('Step 1 of 5').waitFor();
    expect(await tour.button('Back').isDisabled()).toBe(true);

    await tour.button('Next').click();
    await tour.counter().getByText('Step 2 of 5').waitFor();
    await tour.button('Back').click();
    await tour.counter().getByText('Step 1 of 5').waitFor();
    for (let step = 1; step < 5; step += 1) await tour.button('Next').click();
    await tour.counter().getByText('Step 5 of 5').waitFor();
    await tour.button('Complete').click();
    await tour.card().waitFor({ state: 'detached' });
    expect(JSON.parse((await tour.guidance())!)).toEqual({
      hasSeenWelcome: true,
      completedTours: ['welcome'],
      skippedTours: [],
    });

    await page.reload();
    await page.waitForTimeout(3_000);
    expect(await tour.card().count()).toBe(0);
  });

  it('records Skip Tour and a backdrop click as seen, but not the close button', async () => {
    const page = await openPage(freshBrowser);
    const tour = new TourOverlay(page);
    await page.goto(platform.baseUrl);
    await tour.card().waitFor({ timeout: 10_000 });
    await tour.button('Close tour').click();
    await tour.card().waitFor({ state: 'detached' });
    expect(await tour.guidance()).toBeNull();

    await page.reload();
    await tour.card().waitFor({ timeout: 10_000 });
    await tour.clickBackdrop();
    await tour.card().waitFor({ state: 'detached' });
    expect(JSON.parse((await tour.guidance())!)).toMatchObject({ hasSeenWelcome: true, completedTours: [] });

    const other = await openPage(freshBrowser);
    const otherTour = new TourOverlay(other);
    await other.goto(platform.baseUrl);
    await otherTour.card().waitFor({ timeout: 10_000 });
    await otherTour.button('Skip Tour').click();
    expect(JSON.parse((await otherTour.guidance())!)).toMatchObject({ hasSeenWelcome: true });
  });

  it('starts tours from the Help & Tours menu, and Reset All Tours forgets them', async () => {
    const page = await openPage(browser);
    const nav = new NavBar(page);
    const tour = new TourOverlay(page);
    await page.goto(`${platform.baseUrl}/pricing`);
    await nav.helpMenu().click();
    await nav.helpMenuItem('Welcome to Kasa').click();
    await page.waitForURL(`${platform.baseUrl}/`);
    await tour.title().getByText('Welcome to Kasa').waitFor();
    await tour.button('Skip Tour').click();

    await nav.helpMenu().click();
    await nav.helpMenuItem('Reset All Tours').click();
    await toast(page, 'Tours Reset').waitFor();
    expect(await tour.guidance()).toBeNull();
  });

  it.each([
    ['1280 px', DESKTOP],
    ['375 px', PHONE],
  ])(
    'remembers a skipped chat tour with the account at %s: not back after two reloads, a new chat, or in another browser',
    async (_width, viewport) => {
      const page = await openPage(freshBrowser, { viewport });
      const tour = new TourOverlay(page);
      const chat = new ChatPage(page);
      const person = await signUp(page);
      await tour.card().waitFor({ timeout: 10_000 });
      expect(await tour.card().getAttribute('data-tour-id')).toBe('chat');
      const saved = page.waitForResponse(
        (res) => res.url().endsWith('/api/auth/preferences/tours') && res.request().method() === 'PUT' && res.ok(),
      );
      await tour.button('Skip Tour').click();
      await tour.card().waitFor({ state: 'detached' });
      expect((await (await saved).json()).tours).toMatchObject({ skippedTours: ['chat'] });

      for (let reload = 1; reload <= 2; reload += 1) {
        await page.reload();
        await chat.app().waitFor();
        // The chat tour would start 1.5 s after the page loads.
        await page.waitForTimeout(3_000);
        expect({ reload, tour: await tour.card().count() }).toEqual({ reload, tour: 0 });
      }

      // A conversation, then a new chat.
      await chat.send('What is Kasa?');
      await page.waitForURL(/\/chat\/[0-9a-f]{24}$/);
      await chat.waitForReplyEnd();
      if (!(await chat.newChatButton().isVisible())) await chat.sidebarToggle().click();
      await chat.newChatButton().click();
      await page.waitForURL(`${platform.baseUrl}/chat`);
      await page.waitForTimeout(3_000);
      expect(await tour.card().count()).toBe(0);

      // Another browser, with nothing stored: the account remembers.
      const other = await openPage(freshBrowser, { viewport });
      const auth = new AuthPage(other);
      await auth.open(platform.baseUrl);
      await auth.signIn(person);
      await other.waitForURL(`${platform.baseUrl}/chat`);
      await new ChatPage(other).app().waitFor();
      await other.waitForTimeout(3_000);
      expect(await new TourOverlay(other).card().count()).toBe(0);
    },
    60_000,
  );

  it.each([
    ['1280 px', DESKTOP],
    ['375 px', PHONE],
  ])(
    'takes focus when it opens, keeps Tab inside, and Escape closes it and gives focus back at %s',
    async (_width, viewport) => {
      const page = await openPage(freshBrowser, { viewport });
      const tour = new TourOverlay(page);
      await page.goto(platform.baseUrl);
      const start = page.getByRole('link', { name: 'Get Started Free' });
      await start.focus();
      await tour.card().waitFor({ timeout: 10_000 });
      const focused = () =>
        page.evaluate(() => ({
          inTour: document.activeElement?.closest('[data-testid="tour-card"]') !== null,
          text: document.activeElement?.textContent?.trim() ?? '',
        }));
      await page.waitForFunction(() => document.activeElement?.closest('[data-testid="tour-card"]') !== null);
      expect(await focused()).toEqual({ inTour: true, text: 'Next' });
      for (let press = 0; press < 5; press += 1) {
        await page.keyboard.press(press % 2 ? 'Shift+Tab' : 'Tab');
        expect((await focused()).inTour).toBe(true);
      }

      await page.keyboard.press('Escape');
      await tour.card().waitFor({ state: 'detached' });
      expect(await focused()).toEqual({ inTour: false, text: 'Get Started Free' });
      // Closed, not skipped: nothing recorded (spec section 4).
      expect(await tour.guidance()).toBeNull();
    },
  );

  it('fits a 375 px phone and never covers the control it explains', async () => {
    const page = await openPage(freshBrowser, { viewport: PHONE });
    const tour = new TourOverlay(page);
    await page.goto(platform.baseUrl);
    await tour.card().waitFor({ timeout: 10_000 });
    // Steps 1–5: the centred greeting, then the navigation controls.
    for (let step = 1; step <= 5; step += 1) {
      await tour.counter().getByText(`Step ${step} of 5`).waitFor();
      const geometry = await page.evaluate(() => {
        const card = document.querySelector('[data-testid="tour-card"]')!.getBoundingClientRect();
        const highlighted = Array.from(document.querySelectorAll('[data-tour]'))
          .map((el) => el.getBoundingClientRect())
          .filter((r) => r.width > 0);
        return { card: { left: card.left, right: card.right, top: card.top, bottom: card.bottom }, highlighted };
      });
      expect(geometry.card.left).toBeGreaterThanOrEqual(0);
      expect(geometry.card.right).toBeLessThanOrEqual(PHONE.width);
      expect(geometry.card.bottom).toBeLessThanOrEqual(PHONE.height);
      const targetName = await page.evaluate(
        (n) => ['', 'nav-chat', 'nav-pricing', 'nav-theme', 'nav-help'][n - 1],
        step,
      );
      if (targetName) {
        const target = await page.evaluate((name) => {
          const el = document.querySelector(`[data-tour="${name}"]`);
          const r = el?.getBoundingClientRect();
          return r && r.width > 0 ? { left: r.left, right: r.right, top: r.top, bottom: r.bottom } : null;
        }, targetName);
        if (target) {
          const c = geometry.card;
          const overlap =
            c.left < target.right && target.left < c.right && c.top < target.bottom && target.top < c.bottom;
          expect(overlap).toBe(false);
        }
      }
      if (step < 5) await tour.button('Next').click();
    }
    await tour.button('Complete').click();
  });
});

describe('navigation bar at phone width', () => {
  it('folds the links behind the Menu button and closes after navigating', async () => {
    const page = await openPage(browser, { viewport: PHONE });
    const nav = new NavBar(page);
    await page.goto(platform.baseUrl);
    await nav.menuToggle().waitFor();
    expect(await nav.link('Pricing').isVisible()).toBe(false);
    await nav.menuToggle().click();
    await nav.link('Pricing').click();
    await page.waitForURL(`${platform.baseUrl}/pricing`);
    await page.waitForFunction(() => document.querySelector('#main-menu') !== null);
    expect(await nav.link('Pricing').isVisible()).toBe(false);
    expect(await nav.menuToggle().getAttribute('aria-expanded')).toBe('false');
  });
});
