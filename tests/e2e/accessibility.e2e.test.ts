import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { seriousAxeViolations, type AxeViolation } from '../support/axe';
import { launchBrowser } from '../support/browser';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { VIEWPORTS, WEB_ROUTES, type WebRoute } from '../support/routes';
import { AuthPage } from './pages/AuthPage';

let platform: RunningPlatform;
let browser: Browser;

beforeAll(async () => {
  [platform, browser] = await Promise.all([startPlatform(), launchBrowser()]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
});

async function visit(page: Page, route: WebRoute) {
  await page.goto(`${platform.baseUrl}${route.path}`);
  await page.locator('#main').getByText(route.ready).filter({ visible: true }).first().waitFor({ timeout: 15_000 });
  // Let lazy content (remote pages, data) settle before the audit.
  await page.waitForLoadState('networkidle');
}

async function audit(page: Page, routes: readonly WebRoute[]) {
  const found: Record<string, AxeViolation[]> = {};
  for (const route of routes) {
    await visit(page, route);
    const violations = await seriousAxeViolations(page);
    if (violations.length) found[route.path] = violations;
  }
  return found;
}

describe.each(VIEWPORTS)('accessibility at $name width ($width px)', (viewport) => {
  it('has no serious or critical axe violation on any public page', async () => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    try {
      expect(
        await audit(
          page,
          WEB_ROUTES.filter((r) => !r.signedIn),
        ),
      ).toEqual({});
    } finally {
      await context.close();
    }
  }, 180_000);

  it('has none on the signed-in pages either, in dark mode with high contrast too', async () => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    try {
      const id = randomUUID().slice(0, 8);
      const auth = new AuthPage(page);
      await auth.open(platform.baseUrl);
      await auth.signUp({ username: `yaw_${id}`, email: `yaw.${id}@example.com`, password: 'adinkra-1' });
      await page.waitForURL(`${platform.baseUrl}/chat`);
      expect(
        await audit(
          page,
          WEB_ROUTES.filter((r) => r.signedIn),
        ),
      ).toEqual({});

      for (const contrast of [false, true]) {
        // A signed-in person's theme comes from their account on every load, so set it there.
        const saved = await page.evaluate(async (highContrast) => {
          const res = await fetch('/api/auth/preferences/theme', {
            method: 'PUT',
            headers: {
              'content-type': 'application/json',
              authorization: `Bearer ${localStorage.getItem('kasa_auth_token')}`,
            },
            body: JSON.stringify({
              mode: 'dark',
              colorScheme: 'neon',
              highContrast,
              animations: true,
              customSettings: { borderRadius: 8, spacing: 16, fontSize: 14 },
            }),
          });
          return res.status;
        }, contrast);
        expect(saved).toBe(200);
        const routes = WEB_ROUTES.filter((r) => ['/', '/pricing', '/settings', '/theme-settings'].includes(r.path));
        expect(await audit(page, routes)).toEqual({});
      }
    } finally {
      await context.close();
    }
  }, 180_000);
});
