import { createSign, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** An HTTP answer read in full: status, headers and the body as text and (when it is JSON) parsed. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** A small client of one Kasa origin for the security suite. */
export class Api {
  constructor(readonly baseUrl: string) {}

  async call(
    method: string,
    path: string,
    options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
    const hasBody = options.body !== undefined;
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        accept: 'application/json',
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(hasBody ? { 'content-type': 'application/json' } : {}),
        ...options.headers,
      },
      body: hasBody ? (typeof options.body === 'string' ? options.body : JSON.stringify(options.body)) : undefined,
    });
    const text = await res.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return { status: res.status, headers: res.headers, text, body };
  }

  /** Registers a new person; `extra` fields go in the same body. */
  async register(prefix = 'sec', extra: Record<string, unknown> = {}) {
    const id = randomUUID().slice(0, 8);
    const person = { username: `${prefix}_${id}`, email: `${prefix}.${id}@example.com`, password: 'secret-pass-1' };
    const answer = await this.call('POST', '/api/auth/register', { body: { ...person, ...extra } });
    if (answer.status !== 201) throw new Error(`register: ${answer.status} ${answer.text}`);
    return { ...person, token: answer.body.token as string, id: answer.body.user.id as string, answer };
  }

  /** Moves a person to `planId` through the built-in checkout; resolves with the token carrying the new tier. */
  async upgrade(token: string, planId: 'pro' | 'enterprise'): Promise<{ token: string; reference: string }> {
    const answer = await this.call('POST', '/api/billing/checkout', { token, body: { planId } });
    if (answer.status >= 300) throw new Error(`checkout: ${answer.status} ${answer.text}`);
    return { token: answer.body.token as string, reference: answer.body.reference as string };
  }
}

const b64url = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** An RSA key pair for the auth service (JWT_PRIVATE_KEY), so that the suite can sign tokens as auth would. */
export function signingKeyPair(): { pem: string; privateKey: KeyObject } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { pem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), privateKey };
}

/** A compact JWS: RS256 with `key`, or unsigned (`alg: none`) without one. */
export function signToken(header: Record<string, unknown>, payload: Record<string, unknown>, key?: KeyObject): string {
  const input = `${b64url(header)}.${b64url(payload)}`;
  if (!key) return `${input}.`;
  const signer = createSign('RSA-SHA256');
  signer.update(input);
  return `${input}.${signer.sign(key).toString('base64url')}`;
}

/** A local HTTP listener that records every request it gets (the target of the SSRF probes). */
export async function listener(): Promise<{ url: string; hits: string[]; close: () => Promise<void> }> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.end('internal secret');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A call from another loopback address (127.0.0.2): another client IP to the gateway. */
export function callFrom(
  localAddress: string,
  url: string,
  body: unknown,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', localAddress, headers: { 'content-type': 'application/json', connection: 'close' } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** What no answer may contain: a stack frame, a file path of the code, or an internal error's name. */
export const LEAKS = [
  /\bat [\w.<>]+ \(/,
  /node_modules/,
  /\/dist\//,
  /MongoServerError/,
  /TypeError/,
  /ReferenceError/,
];
