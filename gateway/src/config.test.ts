import { ConfigError } from '@kasa/service-kit';
import { DEFAULT_WEB_DIST_DIR, loadGatewayConfig } from './config';

describe('loadGatewayConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadGatewayConfig({});
    expect(config).toMatchObject({
      GATEWAY_PORT: 8080,
      GATEWAY_HOST: '127.0.0.1',
      GATEWAY_ADMIN_PORT: 9876,
      AUTH_SERVICE_URL: 'http://127.0.0.1:4001',
      STATUS_SERVICE_URL: 'http://127.0.0.1:4004',
      WEB_ORIGIN: ['http://localhost:8080'],
      WEB_DIST_DIR: DEFAULT_WEB_DIST_DIR,
      AUTH_RATE_LIMIT_MAX: 100,
      AUTH_RATE_LIMIT_WINDOW_MS: 900_000,
      UPSTREAM_TIMEOUT_MS: 30_000,
      GATEWAY_MAX_BODY_BYTES: 1_048_576,
      GATEWAY_TRUST_PROXY: false,
      AMQP_URL: 'amqp://guest:guest@127.0.0.1:5672',
    });
    expect(config.REDIS_URL).toBeUndefined();
    expect(DEFAULT_WEB_DIST_DIR).toMatch(/frontends$/);
  });

  it('reads lists and strips trailing slashes from service URLs', () => {
    const config = loadGatewayConfig({
      WEB_ORIGIN: 'http://localhost:8080, https://kasa.example',
      CHAT_SERVICE_URL: 'http://chat:4002/',
      GATEWAY_TRUST_PROXY: 'loopback, 10.0.0.0/8',
    });
    expect(config.WEB_ORIGIN).toEqual(['http://localhost:8080', 'https://kasa.example']);
    expect(config.CHAT_SERVICE_URL).toBe('http://chat:4002');
    expect(config.GATEWAY_TRUST_PROXY).toBe('loopback, 10.0.0.0/8');
  });

  it('reads the plan quotas and the per-minute limit, with the spec’s numbers by default', () => {
    expect(loadGatewayConfig({})).toMatchObject({
      PLAN_FREE_MONTHLY_CALLS: 1_000,
      PLAN_PRO_MONTHLY_CALLS: 50_000,
      PLAN_ENTERPRISE_MONTHLY_CALLS: null,
      API_RATE_LIMIT_PER_MINUTE: 1_000,
      API_KEY_CACHE_TTL_MS: 30_000,
    });
    expect(
      loadGatewayConfig({
        PLAN_FREE_MONTHLY_CALLS: '5',
        PLAN_PRO_MONTHLY_CALLS: 'Unlimited',
        PLAN_ENTERPRISE_MONTHLY_CALLS: '2000000',
        API_KEY_CACHE_TTL_MS: '0',
      }),
    ).toMatchObject({
      PLAN_FREE_MONTHLY_CALLS: 5,
      PLAN_PRO_MONTHLY_CALLS: null,
      PLAN_ENTERPRISE_MONTHLY_CALLS: 2_000_000,
      API_KEY_CACHE_TTL_MS: 0,
    });
  });

  it.each([['0'], ['-5'], ['1.5'], ['lots']])('refuses a monthly quota of %s', (value) => {
    expect(() => loadGatewayConfig({ PLAN_FREE_MONTHLY_CALLS: value })).toThrow(/PLAN_FREE_MONTHLY_CALLS/);
  });

  it('requires the address of every service in production, where the loopback default would be the container itself', () => {
    expect(() => loadGatewayConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    let problems: string[] = [];
    try {
      loadGatewayConfig({ NODE_ENV: 'production', CHAT_SERVICE_URL: 'http://chat:4002' });
    } catch (err) {
      problems = (err as ConfigError).problems;
    }
    expect(problems.map((p) => p.split(':')[0])).toEqual([
      'AUTH_SERVICE_URL',
      'VOICE_SERVICE_URL',
      'STATUS_SERVICE_URL',
    ]);
    const urls = {
      AUTH_SERVICE_URL: 'http://auth:4001',
      CHAT_SERVICE_URL: 'http://chat:4002',
      VOICE_SERVICE_URL: 'http://voice:4003',
      STATUS_SERVICE_URL: 'http://status:4004',
    };
    expect(loadGatewayConfig({ NODE_ENV: 'production', ...urls })).toMatchObject(urls);
  });

  it('fails fast, naming every variable that is wrong', () => {
    let error: unknown;
    try {
      loadGatewayConfig({
        GATEWAY_PORT: 'eighty',
        AUTH_SERVICE_URL: 'localhost:4001',
        WEB_ORIGIN: 'http://localhost:8080/app',
        AUTH_RATE_LIMIT_MAX: '0',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    for (const name of ['GATEWAY_PORT', 'AUTH_SERVICE_URL', 'WEB_ORIGIN', 'AUTH_RATE_LIMIT_MAX'])
      expect(message).toContain(name);
  });
});
