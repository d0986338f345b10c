import type { VerifiedApiKey } from '@kasa/contracts';
import { createLogger } from '@kasa/service-kit';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GatewayRequest } from '../eg/types';
import { MemoryQuotaCounter } from './quotaCounter';
import { monthWindow } from './windows';
import { createQuotaPolicy, durationOf, extraCallsKey, extraCallsTtlMs } from './quotaPolicy';
import type { QuotaThresholdReached } from './quotaThresholds';

const logger = createLogger({ service: 'quota-policy-test', version: 'test', level: 'silent' });

/** A server that runs the quota policy with the API key named in the `x-test-key` header (JSON). */
async function serve(
  monthlyPro: number,
  counter = new MemoryQuotaCounter(),
  onThresholdReached?: (reached: QuotaThresholdReached) => void,
) {
  const policy = createQuotaPolicy({
    getCounter: () => counter,
    limits: { monthly: { free: 2, pro: monthlyPro, enterprise: null }, perMinute: 1000 },
    logger,
    onThresholdReached,
  }).policy({ monthly: true }, { gatewayConfig: {} });
  const server = http.createServer((req, res) => {
    (req as GatewayRequest).kasaApiKey = JSON.parse(String(req.headers['x-test-key'])) as VerifiedApiKey;
    policy(req as GatewayRequest, res, () => res.end('ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const call = (key: Partial<VerifiedApiKey>) => fetch(url, { headers: { 'x-test-key': JSON.stringify(key) } });
  return {
    call,
    close: async () => {
      await counter.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const key = (keyId: string, userId: string, teamId: string | null, tier: VerifiedApiKey['tier'] = 'pro') => ({
  keyId,
  userId,
  username: userId,
  tier,
  scopes: ['chat' as const],
  expiresAt: null,
  teamId,
});

describe('the monthly quota of team keys', () => {
  it('is shared by every key of the team, whoever created them', async () => {
    const gateway = await serve(3);
    try {
      const statuses = [];
      for (const k of [
        key('k1', 'ama', 't1'),
        key('k2', 'kofi', 't1'),
        key('k1', 'ama', 't1'),
        key('k2', 'kofi', 't1'),
      ]) {
        statuses.push((await gateway.call(k)).status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      // The same people's personal keys count on their own quotas.
      expect((await gateway.call(key('k3', 'ama', null))).status).toBe(200);
      expect((await gateway.call(key('k4', 'kofi', null))).status).toBe(200);
    } finally {
      await gateway.close();
    }
  });

  it('says which plan ran out, with the quota headers', async () => {
    const gateway = await serve(1);
    try {
      await gateway.call(key('k1', 'ama', 't2'));
      const refused = await gateway.call(key('k2', 'esi', 't2'));
      expect(refused.status).toBe(429);
      expect(refused.headers.get('x-quota-remaining')).toBe('0');
      // A spent month is not worth retrying: said, and no Retry-After of days.
      expect(refused.headers.get('x-should-retry')).toBe('false');
      expect(refused.headers.get('retry-after')).toBeNull();
      expect(((await refused.json()) as { message: string }).message).toMatch(/Pro plan/);
    } finally {
      await gateway.close();
    }
  });
});

describe('extra calls bought for the month', () => {
  it('raise the person’s monthly quota at once, and show in the quota headers', async () => {
    const counter = new MemoryQuotaCounter();
    const gateway = await serve(2, counter);
    try {
      const ama = key('k1', 'ama-extra', null);
      expect((await gateway.call(ama)).status).toBe(200);
      expect((await gateway.call(ama)).status).toBe(200);
      expect((await gateway.call(ama)).status).toBe(429);
      const month = monthWindow(Date.now()).id;
      counter.raise(extraCallsKey('ama-extra', month), 2, extraCallsTtlMs(month, Date.now()));
      const more = await gateway.call(ama);
      expect(more.status).toBe(200);
      expect(more.headers.get('x-quota-limit')).toBe('4');
      expect(more.headers.get('x-quota-remaining')).toBe('1');
      expect((await gateway.call(ama)).status).toBe(200);
      expect((await gateway.call(ama)).status).toBe(429);
      // Someone else's month is not raised.
      const kofi = key('k2', 'kofi-extra', null);
      expect((await gateway.call(kofi)).status).toBe(200);
      expect((await gateway.call(kofi)).status).toBe(200);
      expect((await gateway.call(kofi)).status).toBe(429);
    } finally {
      await gateway.close();
    }
  });

  it('end with their month', () => {
    const now = Date.UTC(2026, 11, 31, 23, 0);
    expect(extraCallsTtlMs('2026-12', now)).toBe(3_600_000 + 3_600_000);
    expect(extraCallsTtlMs('2026-11', now)).toBe(1);
  });
});

describe('quota thresholds', () => {
  it('are announced once each, by the call whose count reaches 80 % and 100 %, which still passes', async () => {
    const reached: QuotaThresholdReached[] = [];
    const gateway = await serve(5, new MemoryQuotaCounter(), (r) => reached.push(r));
    try {
      const ama = key('k1', 'ama-thresholds', null);
      const statuses = [];
      for (let i = 0; i < 7; i += 1) {
        statuses.push((await gateway.call(ama)).status);
        // After the fourth call (80 % of 5), exactly one announcement; after the fifth, the second.
        if (i === 3) expect(reached.map((r) => r.threshold)).toEqual([80]);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
      const period = monthWindow(Date.now()).id;
      expect(reached).toEqual([
        { userId: 'ama-thresholds', keyId: 'k1', threshold: 80, used: 4, limit: 5, period },
        { userId: 'ama-thresholds', keyId: 'k1', threshold: 100, used: 5, limit: 5, period },
      ]);
    } finally {
      await gateway.close();
    }
  });

  it('name the team for a team’s shared quota, count its extra calls in the limit, and never an unlimited plan', async () => {
    const reached: QuotaThresholdReached[] = [];
    const counter = new MemoryQuotaCounter();
    const gateway = await serve(10, counter, (r) => reached.push(r));
    try {
      for (let i = 0; i < 8; i += 1) await gateway.call(key(`k${i % 2}`, `member-${i % 2}`, 't9'));
      expect(reached).toEqual([expect.objectContaining({ userId: 'team:t9', threshold: 80, used: 8, limit: 10 })]);

      // Extra calls raise the limit the thresholds are taken from.
      const month = monthWindow(Date.now()).id;
      counter.raise(extraCallsKey('esi-extra', month), 10, extraCallsTtlMs(month, Date.now()));
      for (let i = 0; i < 16; i += 1) await gateway.call(key('k5', 'esi-extra', null));
      expect(reached.filter((r) => r.userId === 'esi-extra')).toEqual([
        expect.objectContaining({ threshold: 80, used: 16, limit: 20 }),
      ]);

      for (let i = 0; i < 20; i += 1) await gateway.call(key('k6', 'kofi-enterprise', null, 'enterprise'));
      expect(reached.filter((r) => r.userId === 'kofi-enterprise')).toEqual([]);
    } finally {
      await gateway.close();
    }
  });
});

describe("durationOf (OpenAI's x-ratelimit-reset-requests)", () => {
  it('writes milliseconds, seconds and minutes the way OpenAI does', () => {
    expect(durationOf(250)).toBe('250ms');
    expect(durationOf(0)).toBe('0ms');
    expect(durationOf(41_200)).toBe('42s');
    expect(durationOf(360_000)).toBe('6m0s');
    expect(durationOf(61_500)).toBe('1m2s');
  });
});
