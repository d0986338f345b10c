import { eventually } from '@kasa/test-kit';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { request } from 'undici';
import { call, closedPort, startHarness, type Harness } from './harness';

let h: Harness;
let webDist: string;
const INDEX = '<!doctype html><title>Kasa shell</title><div id="root"></div>';
const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

function write(file: string, content: string | Buffer) {
  mkdirSync(path.dirname(path.join(webDist, file)), { recursive: true });
  writeFileSync(path.join(webDist, file), content);
}

/** A file with the brotli and gzip copies a production build writes beside it. */
function writeWithCopies(file: string, content: string) {
  write(file, content);
  write(`${file}.br`, zlib.brotliCompressSync(content));
  write(`${file}.gz`, zlib.gzipSync(content));
}

/** GET without decoding: the body as it came over the wire. */
async function raw(url: string, headers: Record<string, string> = {}) {
  const res = await request(url, { headers });
  return { status: res.statusCode, headers: res.headers, body: Buffer.from(await res.body.arrayBuffer()) };
}

function decode(res: { headers: Record<string, unknown>; body: Buffer }): string {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(res.body).toString();
  if (encoding === 'gzip') return zlib.gunzipSync(res.body).toString();
  if (encoding === undefined) return res.body.toString();
  throw new Error(`unexpected Content-Encoding ${String(encoding)}`);
}

const APP_JS = `${'console.log("Kasa shell, compressed");\n'.repeat(200)}`;

beforeAll(async () => {
  webDist = mkdtempSync(path.join(tmpdir(), 'kasa-web-'));
  write('shell/dist/index.html', INDEX);
  write('shell/dist/main.88f08911.js', 'console.log("shell")');
  write('shell/dist/remotes.json', '{"marketing":"/remotes/marketing/remoteEntry.js"}');
  write('shell/dist/favicon.svg', '<svg/>');
  writeWithCopies('shell/dist/app.3c1f9e2a.js', APP_JS);
  write('shell/dist/index.html.br', zlib.brotliCompressSync(INDEX));
  writeWithCopies('chat/dist/remoteEntry.js', `var chat;${' '.repeat(2000)}`);
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

describe('precompressed copies', () => {
  const js = '/app.3c1f9e2a.js';

  it('sends the brotli copy when the client accepts it, preferred over gzip whatever the order', async () => {
    for (const acceptEncoding of ['br', 'gzip, deflate, br', 'gzip;q=1.0, br;q=0.9']) {
      const res = await raw(`${h.url}${js}`, { 'accept-encoding': acceptEncoding });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(decode(res)).toBe(APP_JS);
    }
  });

  it('sends the gzip copy to a client without brotli, and the file itself to one that accepts neither', async () => {
    const gzip = await raw(`${h.url}${js}`, { 'accept-encoding': 'gzip, deflate' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(decode(gzip)).toBe(APP_JS);
    const refusals: Array<Record<string, string>> = [
      {},
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'br;q=0, gzip;q=0' },
    ];
    for (const headers of refusals) {
      const plain = await raw(`${h.url}${js}`, headers);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toBe('Accept-Encoding');
      expect(plain.body.toString()).toBe(APP_JS);
    }
  });

  it("keeps index.html's and remoteEntry.js's no-cache when their compressed copy is sent", async () => {
    const page = await raw(`${h.url}/chat`, { ...html, 'accept-encoding': 'br' });
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(decode(page)).toBe(INDEX);
    const entry = await raw(`${h.url}/remotes/chat/remoteEntry.js`, { 'accept-encoding': 'gzip' });
    expect(entry.headers['content-encoding']).toBe('gzip');
    expect(entry.headers['cache-control']).toBe('no-cache');
  });

  it('sends Vary: Accept-Encoding on files that have no copy', async () => {
    const res = await raw(`${h.url}/main.88f08911.js`, { 'accept-encoding': 'br' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBe('Accept-Encoding');
  });

  it('follows a rebuild: new copies are sent, and a copy that has gone is never asked for', async () => {
    // Written after the gateway listed the folder, as a build running beside it would.
    writeWithCopies('shell/dist/late.5e6f7a8b.js', APP_JS);
    await eventually(
      async () => {
        const res = await raw(`${h.url}/late.5e6f7a8b.js`, { 'accept-encoding': 'br' });
        return res.headers['content-encoding'] === 'br' ? res : undefined;
      },
      { timeoutMs: 5_000 },
    );
    // A copy removed after the folder was listed: the answer is the next best, at once.
    rmSync(path.join(webDist, 'shell/dist/late.5e6f7a8b.js.br'));
    const res = await raw(`${h.url}/late.5e6f7a8b.js`, { 'accept-encoding': 'br, gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(decode(res)).toBe(APP_JS);
  });

  it('answers a missing file with a plain 404 even when compressed copies of other files exist', async () => {
    const res = await raw(`${h.url}/app.00000000.js`, { 'accept-encoding': 'br' });
    expect(res.status).toBe(404);
    expect(res.headers['content-encoding']).toBeUndefined();
  });
});
