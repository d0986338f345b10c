import { call, startHarness, type Harness } from './harness';

const RATE_LIMIT_MAX = 3;

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ AUTH_RATE_LIMIT_MAX: String(RATE_LIMIT_MAX), AUTH_RATE_LIMIT_WINDOW_MS: '60000' });
});
afterAll(async () => {
  await h?.stop();
});

const post = (path: string) =>
  call(`${h.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"email":"ama@example.com"}',
  });

describe('the public forms (newsletter, contact)', () => {
  it('reach the auth service without a token', async () => {
    for (const path of ['/api/newsletter', '/api/contact']) {
      const res = await post(path);
      expect(res.status).toBe(200);
      expect(res.json()).toMatchObject({ service: 'auth', method: 'POST', url: path });
      expect(h.services.auth.last().headers['x-kasa-user-id']).toBeUndefined();
    }
  });

  it('share one allowance per client address, separate from sign-in, and answer 429 past it', async () => {
    // Two of the three were used by the test above.
    expect((await post('/api/newsletter')).status).toBe(200);
    const before = h.services.auth.seen.length;
    const refused = await post('/api/contact');
    expect(refused.status).toBe(429);
    expect(refused.json()).toEqual({
      message: expect.stringMatching(/try again in/),
      code: 'rate_limited',
      requestId: refused.headers['x-request-id'],
      details: { limit: 'per_address', bucket: 'public-forms', max: RATE_LIMIT_MAX, resetsAt: expect.any(String) },
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(h.services.auth.seen.length).toBe(before);

    // Sign-in keeps its own allowance.
    const login = await call(`${h.url}/api/auth/login`, { method: 'POST', body: '{}' });
    expect(login.status).toBe(200);
  });
});
