import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { closeAtTeardown } from './leftovers';

/** A client registered at the test identity provider. */
export interface TestIdpClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

export interface TestIdp {
  /** `http://127.0.0.1:<port>`: the issuer a team's owner enters. */
  issuer: string;
  /** The next token response carries an ID token with another audience, or one that expired an hour ago. */
  tamperNextIdToken(mode: 'wrong_audience' | 'expired'): Promise<void>;
  stop(): Promise<void>;
}

/** Starts tests/support/oidcProvider.mjs (oidc-provider) in a child process with these clients. */
export async function startTestIdp(clients: TestIdpClient[]): Promise<TestIdp> {
  const child: ChildProcess = spawn(process.execPath, [path.join(__dirname, 'oidcProvider.mjs')], {
    env: { ...process.env, OIDC_CLIENTS: JSON.stringify(clients), NODE_ENV: 'test' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const errors: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => errors.push(chunk.toString()));
  const issuer = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolve((JSON.parse(line) as { issuer: string }).issuer));
    child.once('exit', (code) => reject(new Error(`the test identity provider exited (${code}): ${errors.join('')}`)));
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      closed();
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
    });
  const closed = closeAtTeardown('the test identity provider', stop);
  return {
    issuer,
    async tamperNextIdToken(mode) {
      const res = await fetch(`${issuer}/test-control/tamper`, { method: 'POST', body: JSON.stringify({ mode }) });
      if (res.status !== 204) throw new Error(`tamper control answered ${res.status}`);
    },
    stop,
  };
}

/** Cookies by name, as a browser keeps them for one site (paths ignored: the test provider's are all its own). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }
}

/**
 * Signs `login` in at the provider from its authorization URL, as a browser would: its login page, then its consent
 * page, following redirects with a cookie jar. Answers the URL the provider sends the browser back to (Kasa's
 * callback with `code` and `state`), without opening it.
 */
export async function signInAtIdp(authorizationUrl: string, login: string, callbackPrefix: string): Promise<string> {
  const jar = new CookieJar();
  let url = authorizationUrl;
  let method: 'GET' | 'POST' = 'GET';
  let body: URLSearchParams | undefined;
  for (let step = 0; step < 20; step++) {
    if (url.startsWith(callbackPrefix)) return url;
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      headers: { cookie: jar.header(), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      ...(body ? { body } : {}),
    });
    jar.take(res);
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      url = new URL(location, url).toString();
      method = 'GET';
      body = undefined;
      continue;
    }
    const html = await res.text();
    if (res.status !== 200) throw new Error(`the provider answered ${res.status} at ${url}: ${html.slice(0, 300)}`);
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
    if (!action || !prompt) throw new Error(`no sign-in form at ${url}`);
    url = new URL(action.replace(/&amp;/g, '&'), url).toString();
    method = 'POST';
    body = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any-password' } : { prompt });
  }
  throw new Error('the provider did not send the browser back');
}
