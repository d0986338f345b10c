/**
 * How the gateway delivers the built web app (npm run build): precompressed brotli and gzip copies chosen by the
 * client's Accept-Encoding, cache rules that never leave a stale app after a deploy, the favicon and the web app
 * manifest with its icons. Raw HTTP (node:http), so that the bytes on the wire are seen as sent, not decoded.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { themeTokens } from '@kasa/ui/tokens';
import { DEFAULT_THEME } from '../../frontends/shell/src/theme/themeSettings';
import { startPlatform, type RunningPlatform } from '../support/platform';

const FRONTENDS = path.resolve(__dirname, '../../frontends');
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The brand colour of the default theme (the design tokens): the browser's toolbar colour. */
const THEME_COLOR = themeTokens(DEFAULT_THEME.mode, DEFAULT_THEME.colorScheme, false)['--kasa-primary'] ?? '';

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** GET without any decoding: `body` is exactly what came over the wire. */
function get(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

function decode(res: RawResponse): Buffer {
  switch (res.headers['content-encoding']) {
    case 'br':
      return zlib.brotliDecompressSync(res.body);
    case 'gzip':
      return zlib.gunzipSync(res.body);
    case undefined:
      return res.body;
    default:
      throw new Error(`unexpected Content-Encoding ${res.headers['content-encoding']}`);
  }
}

/** The largest content-hashed script of a built app that has both compressed copies beside it. */
function largestHashedScript(app: string): { file: string; name: string } {
  const dist = path.join(FRONTENDS, app, 'dist');
  if (!fs.existsSync(dist)) throw new Error(`frontends/${app}/dist is missing: run npm run build:web first`);
  const candidates = fs
    .readdirSync(dist)
    .filter((name) => /\.[0-9a-f]{8}\.js$/.test(name))
    .filter((name) => fs.existsSync(path.join(dist, `${name}.br`)) && fs.existsSync(path.join(dist, `${name}.gz`)))
    .map((name) => ({ name, file: path.join(dist, name), size: fs.statSync(path.join(dist, name)).size }))
    .sort((a, b) => b.size - a.size);
  if (!candidates[0]) throw new Error(`frontends/${app}/dist has no content-hashed script with .br and .gz copies`);
  return candidates[0];
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Buffer): string {
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  return `${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`;
}

let platform: RunningPlatform;

beforeAll(async () => {
  platform = await startPlatform();
}, 120_000);

afterAll(async () => {
  await platform?.stop();
});

describe('a content-hashed script', () => {
  const cases = [
    { app: 'shell', prefix: '' },
    { app: 'chat', prefix: '/remotes/chat' },
  ];

  it.each(cases)('of $app goes out as brotli, gzip or as is, as the client accepts', async ({ app, prefix }) => {
    const { file, name } = largestHashedScript(app);
    const original = fs.readFileSync(file);
    const url = `${platform.baseUrl}${prefix}/${name}`;
    const expected = [
      { acceptEncoding: 'br', encoding: 'br' },
      { acceptEncoding: 'gzip', encoding: 'gzip' },
      // What browsers send: brotli is preferred whatever the order.
      { acceptEncoding: 'gzip, deflate, br, zstd', encoding: 'br' },
      { acceptEncoding: 'br;q=0, gzip', encoding: 'gzip' },
      { acceptEncoding: undefined, encoding: undefined },
      { acceptEncoding: 'identity', encoding: undefined },
    ];
    for (const { acceptEncoding, encoding } of expected) {
      const res = await get(url, acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding });
      const label = `Accept-Encoding: ${acceptEncoding ?? '(none)'}`;
      expect({ label, status: res.status }).toEqual({ label, status: 200 });
      expect({ label, encoding: res.headers['content-encoding'] }).toEqual({ label, encoding });
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.headers['cache-control']).toBe(IMMUTABLE);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      if (encoding) expect(res.body.length).toBeLessThan(original.length / 2);
      expect(decode(res).equals(original)).toBe(true);
    }
  });

  it('answers HEAD with the headers of the copy a GET would get', async () => {
    const { name } = largestHashedScript('shell');
    const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http
        .request(`${platform.baseUrl}/${name}`, { method: 'HEAD', headers: { 'accept-encoding': 'gzip, br' } }, resolve)
        .on('error', reject)
        .end(),
    );
    res.resume();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(Number(res.headers['content-length'])).toBe(
      fs.statSync(path.join(FRONTENDS, 'shell', 'dist', `${name}.br`)).size,
    );
  });
});

describe('entry files', () => {
  it('sends index.html compressed and revalidated on every load, at / and at a client-side route', async () => {
    const original = fs.readFileSync(path.join(FRONTENDS, 'shell', 'dist', 'index.html'));
    for (const route of ['/', '/chat']) {
      const res = await get(`${platform.baseUrl}${route}`, {
        accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
        'accept-encoding': 'gzip, deflate, br',
      });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(decode(res).equals(original)).toBe(true);
    }
  });

  it("sends each remote's remoteEntry.js and the shell's remotes.json with no-cache", async () => {
    for (const remote of ['marketing', 'chat', 'developer', 'admin']) {
      const res = await get(`${platform.baseUrl}/remotes/${remote}/remoteEntry.js`, { 'accept-encoding': 'br' });
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-encoding']).toBe('br');
      expect(decode(res).equals(fs.readFileSync(path.join(FRONTENDS, remote, 'dist', 'remoteEntry.js')))).toBe(true);
    }
    const manifest = await get(`${platform.baseUrl}/remotes.json`, { 'accept-encoding': 'gzip' });
    expect(manifest.status).toBe(200);
    expect(manifest.headers['cache-control']).toBe('no-cache');
    expect(JSON.parse(decode(manifest).toString())).toHaveProperty('chat');
  });

  it('answers a missing script with a plain 404, never labelled as compressed', async () => {
    const res = await get(`${platform.baseUrl}/main.0badc0de.js`, { 'accept-encoding': 'br, gzip' });
    expect(res.status).toBe(404);
    expect(res.headers['content-encoding']).toBeUndefined();
  });
});

describe('the favicon and the web app manifest', () => {
  it('serves /favicon.ico and /favicon.svg', async () => {
    const ico = await get(`${platform.baseUrl}/favicon.ico`, { accept: 'image/*' });
    expect(ico.status).toBe(200);
    expect(ico.headers['content-type']).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)$/);
    // An ICO file: reserved 0, type 1 (icon), at least one image.
    expect([ico.body.readUInt16LE(0), ico.body.readUInt16LE(2)]).toEqual([0, 1]);
    expect(ico.body.readUInt16LE(4)).toBeGreaterThan(0);

    const svg = await get(`${platform.baseUrl}/favicon.svg`, { 'accept-encoding': 'br' });
    expect(svg.status).toBe(200);
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(decode(svg).toString()).toContain('<svg');
  });

  it('serves /manifest.webmanifest: Kasa, standalone from /, the theme colour, and icons that exist', async () => {
    const res = await get(`${platform.baseUrl}/manifest.webmanifest`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(res.headers['cache-control']).toBe('no-cache');
    const manifest = JSON.parse(res.body.toString()) as {
      name: string;
      start_url: string;
      display: string;
      theme_color: string;
      icons: Array<{ src: string; sizes: string; type: string; purpose?: string }>;
    };
    expect(manifest).toMatchObject({ name: 'Kasa', start_url: '/', display: 'standalone' });
    expect(manifest.theme_color).toBe(THEME_COLOR);

    const png = manifest.icons.filter((icon) => icon.type === 'image/png');
    expect(png.map((icon) => `${icon.sizes} ${icon.purpose ?? 'any'}`).sort()).toEqual(
      expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']),
    );
    for (const icon of manifest.icons) {
      const file = await get(new URL(icon.src, `${platform.baseUrl}/manifest.webmanifest`).href);
      expect({ src: icon.src, status: file.status }).toEqual({ src: icon.src, status: 200 });
      expect(file.headers['content-type']).toContain(icon.type);
      if (icon.type === 'image/png') expect(pngSize(file.body)).toBe(icon.sizes);
    }
  });

  it('is linked from index.html, with the favicon and the theme colour', async () => {
    const html = decode(await get(`${platform.baseUrl}/`, { accept: 'text/html' })).toString();
    // The built page is minified: attribute values may come without quotes.
    const escape = (text: string) => text.replace(/[.*+?^$|()[\]{}\\/]/g, '\\$&');
    const tag = (name: string, attributes: Array<[string, string]>) =>
      new RegExp(`<${name}${attributes.map(([key, value]) => ` ${key}="?${escape(value)}"?`).join('')}[ >/]`);
    expect(html).toMatch(
      tag('link', [
        ['rel', 'manifest'],
        ['href', '/manifest.webmanifest'],
      ]),
    );
    expect(html).toMatch(
      tag('link', [
        ['rel', 'icon'],
        ['href', '/favicon.ico'],
      ]),
    );
    expect(html).toMatch(
      tag('link', [
        ['rel', 'icon'],
        ['href', '/favicon.svg'],
        ['type', 'image/svg+xml'],
      ]),
    );
    expect(html).toMatch(
      tag('meta', [
        ['name', 'theme-color'],
        ['content', THEME_COLOR],
      ]),
    );
  });
});
