#!/usr/bin/env node
// @ts-check
/**
 * `npm run screenshots`: a PNG of every page of the web app (tests/support/routes.ts) at desktop (1280 px) and
 * phone (375 px) width, signed out and (for the pages that need it) signed in, into screenshots/ at the root.
 * It starts the real platform from the built output (npm run screenshots builds first) and Debian's chromium.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
require('../bench/registerTs');
const { launchBrowser } = require('../support/browser.ts');
const { startPlatform } = require('../support/platform.ts');
const { VIEWPORTS, WEB_ROUTES } = require('../support/routes.ts');
const { startEmbeddedMongo } = require('../../scripts/embedded-mongo');

const OUT = path.resolve(__dirname, '../../screenshots');

/** @param {string} routePath */
const fileName = (routePath) =>
  routePath === '/' ? 'home' : routePath.replace(/^\//, '').replace(/[^a-z0-9]+/gi, '-').replace(/-+$/, '');

async function main() {
  fs.mkdirSync(OUT, { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-screens-db-'));
  const mongo = process.env.MONGO_URL ? undefined : await startEmbeddedMongo({ dataDir });
  if (mongo) process.env.MONGO_URL = mongo.url;
  const platform = await startPlatform({ LOG_LEVEL: 'error' });
  const browser = await launchBrowser();
  let written = 0;
  try {
    for (const viewport of VIEWPORTS) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      const id = Math.random().toString(36).slice(2, 10);
      const token = await fetch(`${platform.baseUrl}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: `ama_${id}`, email: `ama.${id}@example.com`, password: 'screenshots' }),
      }).then(async (res) => /** @type {{ token: string }} */ (await res.json()).token);
      for (const signedIn of [false, true]) {
        if (signedIn) {
          await page.goto(platform.baseUrl);
          await page.evaluate((t) => localStorage.setItem('kasa_auth_token', t), token);
        }
        for (const route of WEB_ROUTES.filter((r) => Boolean(r.signedIn) === signedIn || (signedIn && r.path === '/'))) {
          await page.goto(`${platform.baseUrl}${route.path}`);
          await page
            .locator('#main')
            .getByText(route.ready)
            .filter({ visible: true })
            .first()
            .waitFor({ timeout: 15_000 })
            .catch(() => console.warn(`  ${route.path}: did not show ${route.ready}; captured as it is`));
          await page.waitForLoadState('networkidle');
          const file = path.join(OUT, `${fileName(route.path)}${signedIn && route.path === '/' ? '-signed-in' : ''}-${viewport.name}.png`);
          await page.screenshot({ path: file, fullPage: true });
          written += 1;
        }
      }
      await context.close();
    }
  } finally {
    await browser.close();
    await platform.stop();
    await mongo?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`${written} screenshots written to ${path.relative(process.cwd(), OUT) || '.'}/`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
