import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { startPlatform, type RunningPlatform } from '../support/platform';

/**
 * Bad input against every operation of the OpenAPI document, through the real gateway and services: generated
 * bodies, path parameters and query strings must get a 4xx JSON answer (or a success), never a 5xx, a crash or a
 * stack trace. KASA_FUZZ_RUNS sets the inputs per operation (the short version here; `npm run test:fuzz` runs more).
 */
const RUNS = Number(process.env.KASA_FUZZ_RUNS ?? 12);

/** Calls that end the caller's own session: fuzzing them would only test a revoked token from then on. */
const SKIPPED = new Set(['GET /api/auth/logout', 'POST /api/auth/logout']);

let platform: RunningPlatform;
let token: string;
let operations: Array<{ method: string; path: string }>;

beforeAll(async () => {
  platform = await startPlatform();
  const id = randomUUID().slice(0, 8);
  const registered = await fetch(`${platform.baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: `fuzz_${id}`, email: `fuzz.${id}@example.com`, password: 'fuzzing-123' }),
  });
  token = ((await registered.json()) as { token: string }).token;
  const document = (await (await fetch(`${platform.baseUrl}/api/openapi.json`)).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => ({ method: method.toUpperCase(), path })),
  );
}, 120_000);

afterAll(async () => {
  await platform?.stop();
});

const pathValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.stringMatching(/^[0-9a-f]{24}$/),
  fc.constantFrom('..', '%00', '0', '-1', 'null', '{}', 'ksk_abc', 'KASA-0000000000', 'a'.repeat(300)),
);
const query = fc.dictionary(
  fc.constantFrom('limit', 'cursor', 'q', 'language', 'ip', 'capability', 'x'),
  fc.oneof(fc.string({ maxLength: 30 }), fc.integer().map(String), fc.constant('')),
  { maxKeys: 3 },
);
const body = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 }),
  fc.record({
    role: fc.constantFrom('user', 'assistant', 'system', 1),
    content: fc.oneof(fc.string(), fc.integer(), fc.constant('')),
    type: fc.constantFrom('text', 'voice', 'image', 'video'),
    planId: fc.constantFrom('free', 'enterprise', 'gold'),
    email: fc.oneof(fc.emailAddress(), fc.string()),
    text: fc.string({ maxLength: 200 }),
  }),
);

/** What no answer may contain: a stack frame, or an internal error's name. */
const LEAKS = [/\bat [\w.<>]+ \(/, /node_modules/, /MongoServerError/, /TypeError/, /ReferenceError/];

describe('every documented operation, with generated bad input', () => {
  it('answers 4xx JSON (or success), never 5xx, and leaks nothing', async () => {
    const failures: string[] = [];
    for (const { method, path } of operations) {
      if (SKIPPED.has(`${method} ${path}`)) continue;
      const samples = fc.sample(fc.tuple(pathValue, query, body), { numRuns: RUNS, seed: 42 });
      for (const [param, params, payload] of samples) {
        const url = new URL(path.replace(/\{\w+\}/g, encodeURIComponent(param)), platform.baseUrl);
        for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
        const hasBody = method !== 'GET' && method !== 'DELETE';
        const res = await fetch(url, {
          method,
          redirect: 'manual',
          headers: {
            authorization: `Bearer ${token}`,
            accept: 'application/json',
            ...(hasBody ? { 'content-type': 'application/json' } : {}),
          },
          body: hasBody ? JSON.stringify(payload) : undefined,
        });
        const text = await res.text();
        const where = `${method} ${url.pathname}${url.search} ${hasBody ? JSON.stringify(payload).slice(0, 120) : ''}`;
        if (res.status >= 500) failures.push(`${res.status} ${where}: ${text.slice(0, 200)}`);
        else if (res.status >= 400) {
          const json = (() => {
            try {
              return JSON.parse(text) as { message?: unknown };
            } catch {
              return undefined;
            }
          })();
          if (typeof json?.message !== 'string') failures.push(`${res.status} without a JSON message: ${where}`);
        }
        if (LEAKS.some((leak) => leak.test(text)))
          failures.push(`leak in ${res.status} ${where}: ${text.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  }, 600_000);
});
