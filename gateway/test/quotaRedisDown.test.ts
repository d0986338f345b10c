import { call, closedPort, startHarness, type Harness } from './harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ REDIS_URL: `redis://127.0.0.1:${await closedPort()}/0`, PLAN_FREE_MONTHLY_CALLS: '1' });
});
afterAll(async () => {
  await h?.stop();
});

describe('quotas while Redis is unreachable', () => {
  it('lets calls through rather than failing the API, without quota headers', async () => {
    const token = h.keys.token({ tier: 'free' });
    for (let i = 0; i < 3; i++) {
      const res = await call(`${h.url}/api/personas`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-limit']).toBeUndefined();
      expect(res.headers['x-quota-limit']).toBeUndefined();
    }
  });

  it('lets public requests through too: the per-address limit is not worth an outage either', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await call(`${h.url}/api/languages`);
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-limit']).toBeUndefined();
    }
  });
});
