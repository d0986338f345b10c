import { call, startHarness, type Harness } from './harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  h.services.chat.route('/api/chat/cacheable', (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'private, max-age=60' });
    res.end('{}');
  });
});
afterAll(async () => {
  await h?.stop();
});

describe('Cache-Control on private answers', () => {
  it('is no-store on an answer to an authenticated request that sets none (GET /api/chat/sessions)', async () => {
    const res = await call(`${h.url}/api/chat/sessions`, {
      headers: { authorization: `Bearer ${h.keys.token()}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it("keeps the service's own Cache-Control", async () => {
    const res = await call(`${h.url}/api/chat/cacheable`, {
      headers: { authorization: `Bearer ${h.keys.token()}` },
    });
    expect(res.headers['cache-control']).toBe('private, max-age=60');
  });

  it('leaves public answers to the service', async () => {
    const res = await call(`${h.url}/api/languages`);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBeUndefined();
  });
});
