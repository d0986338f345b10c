#!/usr/bin/env node
// Reports the JavaScript that `/` loads (shell plus the landing page's remote), gzip-compressed, against the web
// budgets in ARCHITECTURE.md: first load ≤ 200 KB gzip; each remoteEntry.js ≤ 30 KB gzip.
//
// Which files `/` loads is decided at runtime (the shell fetches remotes.json, the federation runtime picks
// shared modules), so the script serves the built dist folders the way the gateway does (/ → shell with SPA
// fallback, /remotes/<name>/ → that remote's dist), opens `/` in headless Chromium, records every script the
// page fetches, and measures those files on disk. It also reports the largest contentful paint of `/`.
//
// Usage: npm run build:web, then `node frontends/shell/scripts/size.js [--json] [--no-fail]`.
// Chromium: $KASA_CHROMIUM, else /usr/bin/chromium. Exit code 1 when a budget is exceeded (unless --no-fail).
'use strict';

const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const zlib = require('node:zlib');

const FRONTENDS = path.resolve(__dirname, '..', '..');
const SHELL_DIST = path.join(FRONTENDS, 'shell', 'dist');
const BUDGET_FIRST_LOAD = 200 * 1024;
const BUDGET_REMOTE_ENTRY = 30 * 1024;
/** Visits of / whose median largest contentful paint is reported (one visit is noisy on a busy machine). */
const LCP_VISITS = 3;
const CONTENT_TYPES = { '.js': 'text/javascript', '.html': 'text/html', '.json': 'application/json' };

const args = new Set(process.argv.slice(2));
const asJson = args.has('--json');
const failOnBudget = !args.has('--no-fail');

/** gzip at zlib's default level (6), what servers use when compressing on the fly. */
const gzipSize = (file) => zlib.gzipSync(fs.readFileSync(file)).length;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** remote name → dist folder, from the shell's remotes.json (entries like /remotes/<name>/remoteEntry.js). */
function remoteDists() {
  const manifest = JSON.parse(fs.readFileSync(path.join(SHELL_DIST, 'remotes.json'), 'utf8'));
  return Object.keys(manifest).map((name) => ({
    name,
    prefix: `/remotes/${name}/`,
    dist: path.join(FRONTENDS, name, 'dist'),
  }));
}

/** URL path → file in a dist folder (null when it escapes the folder), and the remote it belongs to, if any. */
function resolveFile(remotes, urlPath) {
  const remote = remotes.find((r) => urlPath.startsWith(r.prefix));
  const [root, rest] = remote ? [remote.dist, urlPath.slice(remote.prefix.length)] : [SHELL_DIST, urlPath];
  const file = path.normalize(path.join(root, rest));
  return { file: file.startsWith(root) ? file : null, remote };
}

/** The gateway's static layout, in-process; /api/* answers 401 so the page renders for a signed-out visitor. */
function startServer(remotes) {
  const server = http.createServer((req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    if (urlPath.startsWith('/api/')) {
      res.writeHead(401, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ message: 'Not signed in', code: 'unauthenticated' }));
      return;
    }
    let { file, remote } = resolveFile(remotes, urlPath);
    if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      if (remote || path.extname(urlPath)) {
        res.writeHead(404).end();
        return;
      }
      file = path.join(SHELL_DIST, 'index.html'); // SPA fallback
    }
    res.writeHead(200, { 'Content-Type': CONTENT_TYPES[path.extname(file)] || 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function loadedScripts(origin, remotes) {
  const { chromium } = require('playwright-core');
  const executablePath = process.env.KASA_CHROMIUM || '/usr/bin/chromium';
  if (!fs.existsSync(executablePath)) {
    throw new Error(`Chromium not found at ${executablePath}; set KASA_CHROMIUM to a Chromium/Chrome binary`);
  }
  const browser = await chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  // Each visit in a fresh context (empty cache, like a first visit); scripts from the first, LCP as the median.
  const visit = async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.addInitScript(() => {
        globalThis.__kasaLcp = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) globalThis.__kasaLcp = entry.startTime;
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      });
      const scripts = [];
      page.on('response', (response) => {
        if (response.request().resourceType() === 'script') scripts.push(new URL(response.url()).pathname);
      });
      await page.goto(`${origin}/`, { waitUntil: 'networkidle' });
      await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 10_000 });
      return { scripts: [...new Set(scripts)], lcpMs: await page.evaluate(() => globalThis.__kasaLcp) };
    } finally {
      await context.close();
    }
  };
  try {
    const visits = [];
    for (let i = 0; i < LCP_VISITS; i++) visits.push(await visit());
    const lcps = visits.map((v) => v.lcpMs).sort((a, b) => a - b);
    return {
      files: visits[0].scripts.map((urlPath) => ({ urlPath, file: resolveFile(remotes, urlPath).file })),
      lcpMs: lcps[Math.floor(lcps.length / 2)],
      lcpSamplesMs: visits.map((v) => Math.round(v.lcpMs)),
    };
  } finally {
    await browser.close();
  }
}

async function main() {
  if (!fs.existsSync(path.join(SHELL_DIST, 'index.html'))) {
    throw new Error('frontends/shell/dist is missing: run `npm run build:web` first');
  }
  const remotes = remoteDists();
  for (const remote of remotes) {
    if (!fs.existsSync(path.join(remote.dist, 'remoteEntry.js'))) {
      throw new Error(`frontends/${remote.name}/dist/remoteEntry.js is missing: build that remote first`);
    }
  }
  const server = await startServer(remotes);
  const origin = `http://127.0.0.1:${server.address().port}`;
  let result;
  try {
    result = await loadedScripts(origin, remotes);
  } finally {
    server.close();
  }

  const firstLoad = result.files.map(({ urlPath, file }) => ({
    url: urlPath,
    bytes: fs.statSync(file).size,
    gzipBytes: gzipSize(file),
  }));
  const firstLoadGzip = firstLoad.reduce((sum, f) => sum + f.gzipBytes, 0);
  const remoteEntries = remotes.map((remote) => ({
    remote: remote.name,
    gzipBytes: gzipSize(path.join(remote.dist, 'remoteEntry.js')),
  }));
  const failures = [];
  if (firstLoadGzip > BUDGET_FIRST_LOAD) failures.push(`first load ${kb(firstLoadGzip)} > ${kb(BUDGET_FIRST_LOAD)}`);
  for (const entry of remoteEntries) {
    if (entry.gzipBytes > BUDGET_REMOTE_ENTRY) {
      failures.push(`${entry.remote} remoteEntry.js ${kb(entry.gzipBytes)} > ${kb(BUDGET_REMOTE_ENTRY)}`);
    }
  }

  if (asJson) {
    const { lcpMs, lcpSamplesMs } = result;
    const report = { firstLoad, firstLoadGzip, remoteEntries, lcpMs, lcpSamplesMs, failures };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    console.log('JavaScript loaded by / (gzip -6):');
    for (const f of firstLoad)
      console.log(`  ${kb(f.gzipBytes).padStart(9)}  ${kb(f.bytes).padStart(9)} raw  ${f.url}`);
    console.log(`  ${kb(firstLoadGzip).padStart(9)}  total (budget ${kb(BUDGET_FIRST_LOAD)})`);
    for (const e of remoteEntries) {
      console.log(`remoteEntry.js of ${e.remote}: ${kb(e.gzipBytes)} gzip (budget ${kb(BUDGET_REMOTE_ENTRY)})`);
    }
    console.log(
      `largest contentful paint of /: ${Math.round(result.lcpMs)} ms, median of ${result.lcpSamplesMs.join(', ')} ms ` +
        '(fresh contexts, local static server, headless; not a budget check here: machine load skews it)',
    );
    console.log(failures.length ? `OVER BUDGET: ${failures.join('; ')}` : 'within budget');
  }
  if (failures.length && failOnBudget) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 2;
});
