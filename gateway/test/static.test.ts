import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { call, closedPort, startHarness, type Harness } from './harness';

let h: Harness;
let webDist: string;
const INDEX = '<!doctype html><title>Kasa shell</title><div id="root"></div>';
const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

function write(file: string, content: string) {
  mkdirSync(path.dirname(path.join(webDist, file)), { recursive: true });
  writeFileSync(path.join(webDist, file), content);
}

beforeAll(async () => {
  webDist = mkdtempSync(path.join(tmpdir(), 'kasa-web-'));
  write('shell/dist/index.html', INDEX);
  write('shell/dist/main.88f08911.js', 'console.log("shell")');
  write('shell/dist/remotes.json', '{"marketing":"/remotes/marketing/remoteEntry.js"}');
  write('shell/dist/favicon.svg', '<svg/>');
  write('marketing/dist/remoteEntry.js', 'var marketing;');
  write('marketing/dist/108.620afa6a.js', 'chunk');
  write('marketing/dist/108.620afa6a.js.map', '{}');
  // RabbitMQ unreachable on purpose: the gateway must start and serve without it.
  h = await startHarness({ WEB_DIST_DIR: webDist, AMQP_URL: `amqp://guest:guest@127.0.0.1:${await closedPort()}` });
});
afterAll(async () => {
  await h?.stop();
  rmSync(webDist, { recursive: true, force: true });
});

describe('without RabbitMQ', () => {
  it('starts, serves and reports ready, with the revocation feed disconnected', async () => {
    expect((await call(`${h.url}/api/status`)).status).toBe(200);
    expect(
      (await call(`${h.url}/api/personas`, { headers: { authorization: `Bearer ${h.keys.token()}` } })).status,
    ).toBe(200);
    const ready = await call(`${h.adminUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.json()).toMatchObject({ info: { revocationFeed: 'disconnected' } });
  });
});

describe('the web app', () => {
  it('serves the shell at / with no-cache', async () => {
    const res = await call(`${h.url}/`, { headers: html });
    expect(res.status).toBe(200);
    expect(res.text).toBe(INDEX);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('answers a client-side route such as /some/route with index.html', async () => {
    const res = await call(`${h.url}/some/route?tab=2`, { headers: html });
    expect(res.status).toBe(200);
    expect(res.text).toBe(INDEX);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('answers a plain client such as curl (Accept */*) at / and at a route with index.html', async () => {
    for (const path of ['/', '/chat']) {
      const res = await call(`${h.url}${path}`, { headers: { accept: '*/*' } });
      expect(res.status).toBe(200);
      expect(res.text).toBe(INDEX);
    }
  });

  it('answers HEAD navigations too', async () => {
    const res = await call(`${h.url}/chat`, { method: 'HEAD', headers: html });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
  });

  it('serves content-hashed assets as immutable', async () => {
    const res = await call(`${h.url}/main.88f08911.js`);
    expect(res.status).toBe(200);
    expect(res.text).toBe('console.log("shell")');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('serves manifests and unhashed files with no-cache', async () => {
    expect((await call(`${h.url}/remotes.json`)).headers['cache-control']).toBe('no-cache');
    expect((await call(`${h.url}/favicon.svg`)).headers['cache-control']).toBe('no-cache');
  });

  it('answers a missing asset with 404, not index.html', async () => {
    const res = await call(`${h.url}/main.deadbeef.js`, { headers: { accept: '*/*' } });
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('Kasa shell');
  });

  it("serves a remote's remoteEntry.js with no-cache and its chunks as immutable", async () => {
    const entry = await call(`${h.url}/remotes/marketing/remoteEntry.js`);
    expect(entry.status).toBe(200);
    expect(entry.text).toBe('var marketing;');
    expect(entry.headers['cache-control']).toBe('no-cache');
    const chunk = await call(`${h.url}/remotes/marketing/108.620afa6a.js`);
    expect(chunk.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await call(`${h.url}/remotes/marketing/108.620afa6a.js.map`)).headers['cache-control']).toBe(
      'public, max-age=31536000, immutable',
    );
  });

  it('answers 404 for a missing remote file or an unknown remote, even for a navigation', async () => {
    expect((await call(`${h.url}/remotes/marketing/nope.js`)).status).toBe(404);
    expect((await call(`${h.url}/remotes/unknown/remoteEntry.js`, { headers: html })).status).toBe(404);
  });

  it('never serves files outside the dist folders', async () => {
    const res = await call(`${h.url}/remotes/marketing/..%2f..%2fshell%2fdist%2findex.html`);
    expect(res.status).not.toBe(200);
    expect((await call(`${h.url}/%2e%2e/%2e%2e/etc/passwd`)).text).not.toContain('root:');
  });

  it('answers non-GET requests to web paths with a JSON 404', async () => {
    const res = await call(`${h.url}/some/route`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found' });
  });

  it('says to run npm run build when the web app is not built', async () => {
    const shellDir = path.join(webDist, 'shell');
    renameSync(shellDir, `${shellDir}.away`);
    try {
      const page = await call(`${h.url}/chat`, { headers: html });
      expect(page.status).toBe(503);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.text).toContain('npm run build');
      const asset = await call(`${h.url}/main.88f08911.js`);
      expect(asset.status).toBe(503);
      expect(asset.json()).toMatchObject({ message: expect.stringContaining('npm run build') });
    } finally {
      renameSync(`${shellDir}.away`, shellDir);
    }
  });
});
