import { eventually } from '@kasa/test-kit';
import { call, closedPort, startHarness, type Harness } from './harness';

// One gateway per process (express-gateway keeps global state), so this has a file of its own.
describe('the gateway without a broker', () => {
  let h: Harness;

  beforeAll(async () => {
    const port = await closedPort();
    h = await startHarness({
      AMQP_URL: `amqp://guest:guest@127.0.0.1:${port}`,
      REQUEST_EVENTS_MAX_BUFFERED: '200',
      REQUEST_EVENTS_FLUSH_MS: '50',
    });
    // Ready once the auth service's keys are fetched; the broker is no part of readiness.
    await eventually(async () => ((await call(`${h.adminUrl}/readyz`)).status === 200 ? true : undefined), {
      timeoutMs: 10_000,
    });
  }, 30_000);

  afterAll(async () => {
    await h?.stop();
  });

  it('keeps serving, and drops the oldest waiting request events beyond its bound (counted)', async () => {
    const auth = { authorization: `Bearer ${h.keys.token()}` };
    for (let i = 0; i < 300; i += 1) {
      const res = await call(`${h.url}/api/personas`, { headers: auth });
      expect(res.status).toBe(200);
    }
    expect(h.gateway.revocationFeedConnected()).toBe(false);
    const metrics = await call(`${h.adminUrl}/metrics`);
    const dropped = /gateway_request_events_dropped_total(?:\{[^}]*\})? (\d+)/.exec(metrics.text);
    expect(dropped).not.toBeNull();
    // 300 requests, at most 200 kept: at least 100 dropped, the newest kept.
    expect(Number(dropped![1])).toBeGreaterThanOrEqual(100);
    expect(Number(dropped![1])).toBeLessThanOrEqual(300);
  });
});
