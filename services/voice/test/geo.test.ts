import { GeoLookupResponse } from '@kasa/contracts';
import type { Express } from 'express';
import request from 'supertest';
import { TestEnvironment } from './support';

const env = new TestEnvironment('geo');
let app: Express;

beforeAll(async () => {
  await env.start();
  ({ app } = await env.app());
});
afterAll(() => env.stop());

// Addresses whose answers the GeoLite2 data bundled with geoip-lite gives.
const ACCRA = '41.66.199.1';
const GOOGLE_DNS = '8.8.8.8';

describe('GET /api/geo', () => {
  it('locates a Ghanaian address with its currency and languages', async () => {
    const res = await request(app).get('/api/geo').query({ ip: ACCRA });
    expect(res.status).toBe(200);
    expect(GeoLookupResponse.parse(res.body)).toEqual({
      ip: ACCRA,
      found: true,
      country: 'GH',
      countryName: 'Ghana',
      region: 'AA',
      city: 'Accra',
      timezone: 'Africa/Accra',
      currency: 'GHS',
      suggestedLanguages: ['en'],
    });
    expect(res.headers['cache-control']).toMatch(/^private/);
  });

  it('locates IPv4 and IPv6 addresses in the United States', async () => {
    for (const ip of [GOOGLE_DNS, '2001:4860:4860::8888']) {
      const res = await request(app).get('/api/geo').query({ ip });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ ip, found: true, country: 'US', countryName: 'United States', currency: 'USD' });
      expect(res.body.timezone).toBe('America/Chicago');
      expect(res.body.suggestedLanguages).toContain('en');
    }
  });

  it.each(['127.0.0.1', '10.1.2.3', '192.168.0.10', '172.16.5.4', '::1', 'fd00::1', '::ffff:127.0.0.1'])(
    'answers 200 found: false for the private or loopback address %s',
    async (ip) => {
      const res = await request(app).get('/api/geo').query({ ip });
      expect(res.status).toBe(200);
      expect(GeoLookupResponse.parse(res.body)).toMatchObject({
        found: false,
        country: null,
        timezone: null,
        currency: null,
        suggestedLanguages: [],
      });
      expect(res.body.message).toMatch(/unknown location/);
    },
  );

  it('answers found: false for a public address the database has no country for', async () => {
    const res = await request(app).get('/api/geo').query({ ip: '1.1.1.1' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ip: '1.1.1.1', found: false, message: 'unknown location' });
  });

  it.each(['not-an-ip', '999.1.1.1', '8.8.8', '41.66.199.1:80', ''])('rejects ?ip=%s with 400', async (ip) => {
    const res = await request(app).get('/api/geo').query({ ip });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  });

  it("without ?ip=, looks up the caller's socket address (loopback here: unknown location)", async () => {
    const res = await request(app).get('/api/geo');
    expect(res.status).toBe(200);
    expect(res.body.found).toBe(false);
    expect(res.body.ip).toMatch(/^(127\.0\.0\.1|::1)$/);
  });

  it('through the gateway, looks up the first address of X-Forwarded-For', async () => {
    const res = await request(app).get('/api/geo').set('X-Forwarded-For', `${ACCRA}, ${GOOGLE_DNS}`);
    expect(res.body).toMatchObject({ ip: ACCRA, found: true, country: 'GH', timezone: 'Africa/Accra' });
  });

  it('skips X-Forwarded-For entries that are not addresses and strips ports', async () => {
    const garbled = await request(app).get('/api/geo').set('X-Forwarded-For', `unknown, ${GOOGLE_DNS}`);
    expect(garbled.body).toMatchObject({ ip: GOOGLE_DNS, country: 'US' });
    const withPort = await request(app).get('/api/geo').set('X-Forwarded-For', `${ACCRA}:51234`);
    expect(withPort.body).toMatchObject({ ip: ACCRA, country: 'GH' });
  });

  it('lets ?ip= win over X-Forwarded-For', async () => {
    const res = await request(app).get('/api/geo').query({ ip: GOOGLE_DNS }).set('X-Forwarded-For', ACCRA);
    expect(res.body).toMatchObject({ ip: GOOGLE_DNS, country: 'US' });
  });
});
