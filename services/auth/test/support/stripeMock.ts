/** stripe-mock for the billing tests (not a test file itself). */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { closeAtTeardown } from '../../../../tests/support/leftovers';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { freePort, waitForPort } = require('../../../../scripts/embedded-mongo') as {
  freePort: () => Promise<number>;
  waitForPort: (port: number, timeoutMs: number) => Promise<void>;
};
const ROOT = path.resolve(__dirname, '../../../..');

/** A request the service made to Stripe's API, as stripe-mock received it. */
export interface StripeCall {
  method: string;
  /** The path without the query, e.g. `/v1/checkout/sessions`. */
  path: string;
  idempotencyKey: string | undefined;
  /** The form-encoded body, decoded (`line_items[0][price]` → value). */
  params: Record<string, string>;
}

type Json = Record<string, unknown>;

function merge(target: Json, patch: Json): Json {
  const out: Json = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    const current = out[key];
    out[key] =
      value && typeof value === 'object' && !Array.isArray(value) && current && typeof current === 'object'
        ? merge(current as Json, value as Json)
        : value;
  }
  return out;
}

/**
 * Stripe's official mock of its API (github.com/stripe/stripe-mock, built by scripts/ensure-stripe-mock.sh) on a free
 * port, behind a small recording proxy. stripe-mock checks every request against Stripe's OpenAPI document (a wrong
 * parameter is a 400, as from Stripe) and answers fixtures; it keeps no state. So a test that needs Stripe to *say*
 * something (a checkout paid, a subscription past due) patches the fixture answered for one object with `answer()`,
 * which plays the processor's state while the request still goes to stripe-mock.
 */
export class StripeMock {
  readonly calls: StripeCall[] = [];
  private readonly answers = new Map<string, Json>();
  private mock?: ChildProcess;
  private proxy?: Server;
  private mockPort = 0;
  url = '';

  static async start(): Promise<StripeMock> {
    return new StripeMock().start();
  }

  /** From now on, answers to `GET path` (e.g. `/v1/subscriptions/sub_1`) carry these fields over the fixture's. */
  answer(pathname: string, fields: Json): this {
    this.answers.set(pathname, fields);
    return this;
  }

  /** The calls that changed something at Stripe (every POST). */
  mutations(): StripeCall[] {
    return this.calls.filter((call) => call.method === 'POST');
  }

  /** A fixture of stripe-mock for an object, with fields of the test's (the shape Stripe's events carry). */
  async object(pathname: string, fields: Json = {}): Promise<Json> {
    const res = await fetch(`http://127.0.0.1:${this.mockPort}${pathname}`, {
      headers: { authorization: 'Bearer sk_test_kasa' },
    });
    if (!res.ok) throw new Error(`stripe-mock ${pathname}: ${res.status} ${await res.text()}`);
    return merge((await res.json()) as Json, fields);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.proxy ? this.proxy.close(() => resolve()) : resolve()));
    if (this.mock && this.mock.exitCode === null) {
      const exited = new Promise((resolve) => this.mock!.once('exit', resolve));
      this.mock.kill('SIGTERM');
      await exited;
    }
  }

  private async start(): Promise<this> {
    execFileSync('bash', [path.join(ROOT, 'scripts', 'ensure-stripe-mock.sh')], { stdio: 'inherit' });
    this.mockPort = await freePort();
    this.mock = spawn(path.join(ROOT, '.bin', 'stripe-mock'), ['-http-addr', `127.0.0.1:${this.mockPort}`], {
      stdio: 'ignore',
    });
    // Stopped by the test environment too when a test file fails before its own afterAll can.
    const forget = closeAtTeardown('stripe-mock', () => this.stop());
    this.mock.once('exit', forget);
    await waitForPort(this.mockPort, 20_000);
    this.proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const pathname = (req.url ?? '/').split('?')[0]!;
        this.calls.push({
          method: req.method ?? '',
          path: pathname,
          idempotencyKey: req.headers['idempotency-key'] as string | undefined,
          params: Object.fromEntries(new URLSearchParams(body.toString('utf8'))),
        });
        this.forward(req.method ?? 'GET', req.url ?? '/', req.headers, body, (status, headers, answer) => {
          const patch = this.answers.get(pathname);
          let out = answer;
          if (patch && status < 300 && req.method === 'GET') {
            out = Buffer.from(JSON.stringify(merge(JSON.parse(answer.toString('utf8')) as Json, patch)));
          }
          res.writeHead(status, { ...headers, 'content-length': String(out.length) });
          res.end(out);
        });
      });
    });
    await new Promise<void>((resolve) => this.proxy!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.proxy.address() as AddressInfo).port}`;
    return this;
  }

  private forward(
    method: string,
    url: string,
    headers: IncomingHttpHeaders,
    body: Buffer,
    done: (status: number, headers: IncomingHttpHeaders, body: Buffer) => void,
  ): void {
    const upstream = httpRequest(
      {
        host: '127.0.0.1',
        port: this.mockPort,
        method,
        path: url,
        headers: { ...headers, host: `127.0.0.1:${this.mockPort}` },
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const rest = { ...answer.headers };
          delete rest['content-length'];
          delete rest['transfer-encoding'];
          done(answer.statusCode ?? 502, rest, Buffer.concat(chunks));
        });
      },
    );
    upstream.on('error', (err) => done(502, {}, Buffer.from(JSON.stringify({ error: { message: err.message } }))));
    upstream.end(body);
  }
}
