import { existsSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { ErrorCode } from '@kasa/contracts';
import expressStaticGzip from 'express-static-gzip';
import { sendError } from '../errors';
import type { EgPolicy, GatewayRequest, GatewayResponse } from '../eg/types';

type StaticHandler = (req: GatewayRequest, res: GatewayResponse, next: () => void) => void;

/** Files that say which other files to load: always revalidated, so a deploy is picked up on the next load. */
const ENTRY_FILES = /(?:^index\.html$|\.html$|^remoteEntry\.js$|\.json$)/;
/** Files named by their content hash (webpack's `[name].[contenthash:8].js` and friends, maps included). */
const HASHED_FILES = /[.-][0-9a-f]{8,}\.[a-z0-9.]+$/i;
/** A remote's name as it appears in /remotes/<name>/...: what the frontends/ folder names look like. */
const REMOTE_PATH = /^\/remotes\/([a-z0-9][a-z0-9-]*)(\/.*)$/;

/** The suffix of a precompressed copy that the build writes beside a file (`main.88f08911.js.br`). */
const COMPRESSED_COPY = /\.(?:br|gz)$/;
/** How often, at most, a dist folder is checked for a rebuild (its compressed copies are listed once per build). */
const RESCAN_INTERVAL_MS = 1000;

function setCacheHeaders(res: ServerResponse, filePath: string): void {
  // The rules follow the file asked for, not the compressed copy sent for it (index.html.br is index.html).
  const file = path.basename(filePath).replace(COMPRESSED_COPY, '');
  if (ENTRY_FILES.test(file)) res.setHeader('Cache-Control', 'no-cache');
  else if (HASHED_FILES.test(file)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  else res.setHeader('Cache-Control', 'no-cache');
  // Every file may have compressed copies, so a shared cache must key every answer by Accept-Encoding.
  res.setHeader('Vary', 'Accept-Encoding');
}

/** When the folder's listing last changed (a build replaces its files), or -1 while it does not exist. */
function folderStamp(root: string): number {
  try {
    return statSync(root).mtimeMs;
  } catch {
    return -1;
  }
}

/**
 * Files of `root`, each sent as the best precompressed copy the client accepts (`<file>.br`, then `<file>.gz`, else
 * the file itself; express-static-gzip over serve-static) with `Content-Encoding` and `Vary: Accept-Encoding`.
 * express-static-gzip lists the compressed copies once, when created, so it is created again when the folder
 * changes (a rebuild, or a build that finished after the gateway started), checked at most once a second.
 */
function createServer(root: string): StaticHandler {
  const create = (): StaticHandler =>
    // Its types are Express's; at runtime it takes the Express request and response that EG's pipelines pass.
    expressStaticGzip(root, {
      enableBrotli: true,
      orderPreference: ['br', 'gzip'],
      index: false,
      serveStatic: {
        index: false,
        redirect: false,
        fallthrough: true,
        dotfiles: 'ignore',
        setHeaders: setCacheHeaders,
      },
    }) as unknown as StaticHandler;
  let handler = create();
  let stamp = folderStamp(root);
  let checkedAt = Date.now();
  const rescan = () => {
    stamp = folderStamp(root);
    handler = create();
  };
  const serve: (req: GatewayRequest, res: GatewayResponse, next: () => void, retry: boolean) => void = (
    req,
    res,
    next,
    retry,
  ) => {
    const url = req.url;
    handler(req, res, () => {
      // Nothing was sent: undo what was set for a compressed copy, so that whatever answers instead (index.html,
      // a 404) is not labelled as compressed. A copy that was chosen but is gone means the folder was rebuilt
      // since it was listed: list it again and serve the request once more.
      req.url = url;
      const choseCopy = res.hasHeader('Content-Encoding');
      res.removeHeader('Content-Encoding');
      res.removeHeader('Content-Type');
      if (choseCopy && retry) {
        rescan();
        serve(req, res, next, false);
      } else next();
    });
  };
  return (req, res, next) => {
    const now = Date.now();
    // While the folder is missing (not built yet, or being replaced) every request looks again, so that files are
    // listed, compressed copies included, from the first request after it is back.
    if (stamp === -1 || now - checkedAt >= RESCAN_INTERVAL_MS) {
      checkedAt = now;
      if (folderStamp(root) !== stamp) rescan();
    }
    serve(req, res, next, true);
  };
}

/** A browser navigation (not a script, image or fetch), which the single-page app answers with its index.html. */
function isNavigation(req: GatewayRequest): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const accept = req.headers.accept ?? '';
  if (accept.includes('text/html')) return true;
  // curl and other plain clients send `*/*` (or nothing): an extension-less path is a page of the app, not a file.
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  return (accept === '' || accept.includes('*/*')) && !/\.[a-z0-9]+$/i.test(path);
}

/** Serves `handler` with the request's URL temporarily set to `url` (serve-static reads the path from req.url). */
function serveAs(
  handler: StaticHandler,
  req: GatewayRequest,
  res: GatewayResponse,
  url: string,
  fallthrough: () => void,
) {
  const original = req.url;
  req.url = url;
  handler(req, res, () => {
    req.url = original;
    fallthrough();
  });
}

/**
 * The web app: `/remotes/<name>/*` from `<WEB_DIST_DIR>/<name>/dist/`, everything else from
 * `<WEB_DIST_DIR>/shell/dist/`, with the shell's index.html for any other browser navigation (client-side routes
 * such as /chat). Each file goes out as its precompressed brotli or gzip copy when the build wrote one and the
 * client accepts it. Entry files (index.html, remoteEntry.js, manifests) are revalidated on every load;
 * content-hashed assets are cached for a year. A missing asset is a 404, never index.html (a script that is HTML breaks loudly
 * and confusingly). When nothing is built yet, says to run `npm run build`.
 */
export function createStaticPolicy(options: { webDistDir: string }): EgPolicy {
  const shellDir = path.join(options.webDistDir, 'shell', 'dist');
  const shell = createServer(shellDir);
  const remotes = new Map<string, StaticHandler>();

  const remote = (name: string): StaticHandler => {
    let handler = remotes.get(name);
    if (!handler) {
      handler = createServer(path.join(options.webDistDir, name, 'dist'));
      remotes.set(name, handler);
    }
    return handler;
  };

  const notFound = (req: GatewayRequest, res: GatewayResponse) => {
    const body = 'Not found\n';
    res.writeHead(404, {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': body.length,
      'cache-control': 'no-cache',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  const notBuilt = (req: GatewayRequest, res: GatewayResponse) => {
    const message = `The Kasa web app has not been built yet (no ${path.join(shellDir, 'index.html')}). Run \`npm run build\` in the repository, then reload.`;
    if (isNavigation(req)) {
      const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Kasa: web app not built</title></head><body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;line-height:1.5"><h1>The web app is not built yet</h1><p>The gateway is running, but it has no web app to serve. In the repository, run:</p><pre style="background:#f4f4f5;padding:1rem">npm run build</pre><p>then reload this page. The API is available under <code>/api</code>.</p></body></html>`;
      res.writeHead(503, {
        'content-type': 'text/html; charset=utf-8',
        'content-length': Buffer.byteLength(html),
        'cache-control': 'no-store',
      });
      res.end(req.method === 'HEAD' ? undefined : html);
      return;
    }
    sendError(res, 503, ErrorCode.upstreamUnavailable, message, req.kasaRequestId);
  };

  const indexHtml = (req: GatewayRequest, res: GatewayResponse) => {
    serveAs(shell, req, res, '/index.html', () => {
      if (existsSync(path.join(shellDir, 'index.html'))) notFound(req, res);
      else notBuilt(req, res);
    });
  };

  return {
    name: 'kasa-static',
    schema: { $id: 'https://kasa.example/schemas/policies/kasa-static.json', type: 'object' },
    policy: () => (req, res) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        sendError(
          res,
          404,
          ErrorCode.notFound,
          `No route for ${req.method} ${req.url.split('?')[0]}`,
          req.kasaRequestId,
        );
        return;
      }
      const match = REMOTE_PATH.exec(req.url);
      if (match) {
        const [, name = '', rest = '/'] = match;
        serveAs(remote(name), req, res, rest, () => notFound(req, res));
        return;
      }
      shell(req, res, () => {
        if (isNavigation(req)) indexHtml(req, res);
        else if (!existsSync(shellDir)) notBuilt(req, res);
        else notFound(req, res);
      });
    },
  };
}
