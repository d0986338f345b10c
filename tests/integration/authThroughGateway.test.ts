import { eventually } from '@kasa/test-kit';
import { randomUUID } from 'node:crypto';
import { startPlatform, type RunningPlatform } from '../support/platform';

let platform: RunningPlatform;

beforeAll(async () => {
  platform = await startPlatform();
}, 120_000);

afterAll(async () => {
  await platform?.stop();
});

const url = (path: string) => `${platform.baseUrl}${path}`;
const newUser = () => {
  const id = randomUUID().slice(0, 8);
  return { username: `kwame_${id}`, email: `kwame.${id}@example.com`, password: 'medaase-42' };
};

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url(path), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { res, body: (await res.json()) as Record<string, any> };
}

describe('a person through the gateway', () => {
  it('registers, signs in, sees who they are, and signs out', async () => {
    const person = newUser();
    const registered = await post('/api/auth/register', person);
    expect(registered.res.status).toBe(201);
    expect(registered.body).toMatchObject({
      success: true,
      user: { username: person.username, subscriptionTier: 'free' },
    });
    expect(registered.res.headers.get('x-request-id')).toBeTruthy();

    const login = await post('/api/auth/login', { email: person.email, password: person.password });
    expect(login.res.status).toBe(200);
    const token = login.body.token as string;
    const cookie = login.res.headers.get('set-cookie')!.split(';')[0]!;

    const me = await fetch(url('/api/auth/me'), { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ success: true, user: { email: person.email } });

    // The browser's logout: a navigation carrying the session cookie.
    const logout = await fetch(url('/api/auth/logout'), { headers: { cookie }, redirect: 'manual' });
    expect(logout.status).toBe(302);
    expect(logout.headers.get('location')).toBe('/');

    const after = await fetch(url('/api/auth/me'), { headers: { authorization: `Bearer ${token}` } });
    expect(after.status).toBe(401);
    // Every gateway instance learns of the revocation over the bus and refuses the token on every route.
    await eventually(
      async () => (await fetch(url('/api/personas'), { headers: { authorization: `Bearer ${token}` } })).status === 401,
      // Within a second or two on a quiet machine; the bound only stops a gateway that never hears of it.
      { timeoutMs: 15_000 },
    );
  });

  it('refuses a sign-out started by another site, and keeps the session; a Kasa page signs out', async () => {
    const { res, body } = await post('/api/auth/register', newUser());
    const token = body.token as string;
    const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
    const navigate = (headers: Record<string, string>) =>
      fetch(url('/api/auth/logout'), {
        headers: { cookie, 'sec-fetch-mode': 'navigate', ...headers },
        redirect: 'manual',
      });

    // A link on another site: the browser sends the Lax cookie along with a top-level GET.
    const forged = await navigate({ 'sec-fetch-site': 'cross-site', referer: 'https://evil.example/' });
    expect(forged.status).toBe(403);
    expect(await forged.json()).toMatchObject({ code: 'forbidden', message: expect.stringMatching(/another site/) });
    expect(forged.headers.get('set-cookie')).toBeNull();
    const me = await fetch(url('/api/auth/me'), { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);

    // The navigation bar's Logout: a same-origin navigation from a Kasa page.
    const own = await navigate({ 'sec-fetch-site': 'same-origin', referer: url('/chat') });
    expect(own.status).toBe(302);
    expect(own.headers.get('location')).toBe('/');
    const after = await fetch(url('/api/auth/me'), { headers: { authorization: `Bearer ${token}` } });
    expect(after.status).toBe(401);
  });

  it('reaches the other services with a token, and is refused without one', async () => {
    const { body } = await post('/api/auth/register', newUser());
    const personas = await fetch(url('/api/personas'), { headers: { authorization: `Bearer ${body.token}` } });
    expect(personas.status).toBe(200);
    expect(((await personas.json()) as Array<{ id: string }>).map((p) => p.id)).toEqual([
      'kasa',
      'merla',
      'ticha',
      'massa',
      'nana',
      'dokta',
    ]);

    const anonymous = await fetch(url('/api/personas'));
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ code: 'unauthenticated' });
  });
});

describe('bad input never gets a 5xx', () => {
  const cases: Array<[string, number, unknown]> = [
    ['missing fields', 400, {}],
    ['a short password', 400, { ...newUser(), password: '123' }],
    ['wrong types', 400, { username: ['a'], email: 42, password: true }],
    ['malformed JSON', 400, '{"email": '],
    ['a 1 MB body', 413, { ...newUser(), password: 'x'.repeat(1024 * 1024) }],
  ];
  it.each(cases)('register with %s answers %i in JSON', async (_case, status, body) => {
    const { res, body: error } = await post('/api/auth/register', body);
    expect(res.status).toBe(status);
    expect(error).toMatchObject({ message: expect.any(String), code: expect.any(String) });
    expect(JSON.stringify(error)).not.toMatch(/at .+\.js:\d+/);
  });

  it('answers 409 for a duplicate email without confirming that it has an account', async () => {
    const person = newUser();
    expect((await post('/api/auth/register', person)).res.status).toBe(201);
    const again = await post('/api/auth/register', { ...person, username: `${person.username}_2` });
    expect(again.res.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'conflict', message: expect.stringMatching(/If it is yours, sign in/) });
    expect(again.body.message).not.toMatch(/exists|already/i);
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await fetch(url('/api/nothing/here'));
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'not_found' });
  });
});

describe('platform documents', () => {
  it('serves the OpenAPI document generated from the contracts', async () => {
    const res = await fetch(url('/api/openapi.json'));
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/auth/register', '/api/auth/login', '/api/auth/me', '/api/chat/sessions']),
    );
  });

  it('reports every service operational', async () => {
    const res = await fetch(url('/api/status'));
    expect(res.status).toBe(200);
    const status = (await res.json()) as { status: string; services: Array<{ name: string; status: string }> };
    expect(status.services.map((s) => [s.name, s.status])).toEqual(
      expect.arrayContaining([
        ['auth', 'operational'],
        ['chat', 'operational'],
        ['voice', 'operational'],
        ['status', 'operational'],
      ]),
    );
    expect(status.status).toBe('operational');
  });
});
