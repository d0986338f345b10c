import { randomUUID } from 'node:crypto';

/**
 * `npm test` runs the short versions of the fault scenarios; `npm run test:faults` sets KASA_FAULTS_LONG=1, which
 * lengthens the outages and repeats the faults more times.
 */
export const LONG = process.env.KASA_FAULTS_LONG === '1';

/** `short` in `npm test`, `long` under `npm run test:faults`. */
export const pick = <T>(short: T, long: T): T => (LONG ? long : short);

/** The broker every fault test's platform goes through (a proxy in front of it) and the test's own consumer uses. */
export const AMQP_TARGET = new URL(process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672');

/** `url` with its host and port replaced by `address` (`host:port`). */
export function via(url: string | URL, address: string): string {
  const copy = new URL(url.toString());
  const [host, port] = address.split(':');
  copy.hostname = host!;
  copy.port = port!;
  return copy.toString();
}

export interface Answer {
  status: number;
  body: any;
  /** Milliseconds from sending the request to the end of the response. */
  ms: number;
  contentType: string;
}

/** Calls the platform and reads the whole answer; `timeoutMs` bounds a hang (the test then fails on status 0). */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; timeoutMs?: number; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const started = Date.now();
  try {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: kept as text so an assertion shows it */
    }
    return { status: res.status, body, ms: Date.now() - started, contentType: res.headers.get('content-type') ?? '' };
  } catch (err) {
    return { status: 0, body: String((err as Error).message), ms: Date.now() - started, contentType: '' };
  }
}

/** A new person; resolves with their id, token and username. */
export async function register(baseUrl: string, prefix = 'fault') {
  const id = randomUUID().slice(0, 8);
  const username = `${prefix}_${id}`;
  const answer = await call(baseUrl, 'POST', '/api/auth/register', {
    body: { username, email: `${prefix}.${id}@example.com`, password: 'fault-password' },
  });
  if (answer.status !== 201) throw new Error(`register: ${answer.status} ${JSON.stringify(answer.body)}`);
  return { token: answer.body.token as string, userId: answer.body.user.id as string, username };
}

/** Fails unless `answer` is the shared JSON error body (`message` and `code`) with one of `statuses`. */
export function expectClearError(answer: Answer, statuses: number[]): void {
  const body = answer.body as { message?: unknown; code?: unknown } | undefined;
  const clear =
    statuses.includes(answer.status) &&
    answer.contentType.includes('application/json') &&
    typeof body?.message === 'string' &&
    body.message.length > 10 &&
    typeof body.code === 'string';
  if (!clear)
    throw new Error(
      `expected a JSON error with status ${statuses.join(' or ')}, got ${answer.status} (${answer.contentType}) ` +
        `after ${answer.ms} ms: ${JSON.stringify(answer.body)?.slice(0, 300)}`,
    );
}
