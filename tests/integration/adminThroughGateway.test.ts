import { buildOpenApiDocument, type AuditEntry, type AuthResponse, type CreateApiKeyResponse } from '@kasa/contracts';
import { connectDatabase, createLogger } from '@kasa/service-kit';
import { eventually } from '@kasa/test-kit';
import express from 'express';
import type { Connection } from 'mongoose';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { deleteQueues, startPlatform, type RunningPlatform } from '../support/platform';

/**
 * The operators' People and audit log through the built platform (gateway, auth and the rest from their dist): search
 * and a person's page, suspension (the person's next call by token or by key is 401 within a second, sign-in is
 * refused) and restoration, a plan change with a reason, the audit log written from events with its actor, and every
 * `/api/admin/*` route of the auth service's admin router answering 404 to a non-operator and an anonymous caller.
 */
const run = randomUUID().slice(0, 8);
const OPERATOR_EMAIL = `operator.${run}@example.com`;
const AUTH_DB_NAME = `kasa_auth_admin_${run}`;
// A queue of this platform's own: the audit consumers of other runs on the broker never take its events.
const AUTH_CONSUMER_NAME = `auth-test-${run}`;
const logger = createLogger({ service: 'admin-it', version: 'test', level: 'silent' });

let platform: RunningPlatform;
let authDb: Connection;
let operator: Person;

interface Person {
  id: string;
  username: string;
  email: string;
  token: string;
  password: string;
}

const url = (p: string) => `${platform.baseUrl}${p}`;

async function call(method: string, p: string, credential?: string, body?: unknown) {
  const res = await fetch(url(p), {
    method,
    headers: {
      ...(credential ? { authorization: `Bearer ${credential}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: Record<string, any> = {};
  try {
    json = text ? (JSON.parse(text) as Record<string, any>) : {};
  } catch {
    /* not JSON (the CSV) */
  }
  return { status: res.status, headers: res.headers, text, body: json };
}

async function signUp(prefix = 'person', email?: string): Promise<Person> {
  const id = randomUUID().slice(0, 8);
  const person = {
    username: `${prefix}_${id}`,
    email: email ?? `${prefix}.${id}@example.com`,
    password: 'akwaaba-123',
  };
  const res = await call('POST', '/api/auth/register', undefined, person);
  expect(res.status).toBe(201);
  const auth = res.body as AuthResponse;
  return { ...person, id: auth.user.id, token: auth.token };
}

async function signIn(person: Pick<Person, 'email' | 'password'>) {
  return call('POST', '/api/auth/login', undefined, { email: person.email, password: person.password });
}

async function createKey(token: string): Promise<CreateApiKeyResponse> {
  const res = await call('POST', '/api/developer/keys', token, { name: 'Admin test' });
  expect(res.status).toBe(201);
  return res.body as CreateApiKeyResponse;
}

/** The audit entries of a filter (the console's first page). */
async function audit(query: Record<string, string>): Promise<AuditEntry[]> {
  const res = await call('GET', `/api/admin/audit?${new URLSearchParams(query)}`, operator.token);
  expect(res.status).toBe(200);
  return res.body.entries as AuditEntry[];
}

/** Polls `probe` until it gives `status`, for at most `withinMs` after now; answers how long it took. */
async function statusWithin(probe: () => Promise<number>, status: number, withinMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    const got = await probe();
    const elapsed = Date.now() - started;
    if (got === status) return elapsed;
    if (elapsed > withinMs) throw new Error(`still ${got} after ${elapsed} ms (expected ${status})`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  platform = await startPlatform({
    AUTH_DB_NAME,
    AUTH_CONSUMER_NAME,
    KASA_OPERATOR_EMAILS: OPERATOR_EMAIL,
  });
  authDb = await connectDatabase({ url: process.env.MONGO_URL!, dbName: AUTH_DB_NAME, logger, maxAttempts: 3 });
  // Suspensions reach the gateway over its broadcast queue: wait until it listens.
  await eventually(
    async () => {
      const ready = await fetch(`http://127.0.0.1:${platform.ports.admin}/readyz`).catch(() => undefined);
      const body = (await ready?.json().catch(() => undefined)) as { info?: { revocationFeed?: string } } | undefined;
      return body?.info?.revocationFeed === 'connected';
    },
    { timeoutMs: 15_000 },
  );
  operator = await signUp('operator', OPERATOR_EMAIL);
}, 120_000);

afterAll(async () => {
  await authDb?.dropDatabase().catch(() => undefined);
  await authDb?.close();
  await platform?.stop();
  await deleteQueues(process.env.AMQP_URL, [`kasa.${AUTH_CONSUMER_NAME}`, `kasa.${AUTH_CONSUMER_NAME}.dlq`]);
});

describe('suspend and restore', () => {
  it('refuses a suspended person’s next call by token and by key within a second, and their sign-in', async () => {
    const ama = await signUp('ama');
    const { secret } = await createKey(ama.token);
    expect((await call('GET', '/api/auth/me', ama.token)).status).toBe(200);
    expect((await call('GET', '/api/personas', secret)).status).toBe(200);

    const suspended = await call('POST', `/api/admin/people/${ama.id}/suspend`, operator.token, {
      reason: 'Sending spam through the API',
    });
    expect(suspended.status).toBe(200);
    expect(suspended.body.suspension).toMatchObject({
      suspended: true,
      reason: 'Sending spam through the API',
      suspendedBy: operator.id,
    });
    const byToken = await statusWithin(async () => (await call('GET', '/api/auth/me', ama.token)).status, 401, 1_000);
    const byKey = await statusWithin(async () => (await call('GET', '/api/personas', secret)).status, 401, 1_000);
    expect(byToken).toBeLessThan(1_000);
    expect(byKey).toBeLessThan(1_000);
    const refused = await call('GET', '/api/personas', ama.token);
    expect(refused.body).toMatchObject({ code: 'unauthenticated', message: expect.stringMatching(/suspended/) });

    const signIn1 = await signIn(ama);
    expect(signIn1.status).toBe(403);
    expect(signIn1.body).toMatchObject({
      message: expect.stringMatching(/suspended/),
      details: { reason: 'account_suspended' },
    });
    // A suspension is said only after the right password: a wrong one is the usual 401.
    expect((await signIn({ ...ama, password: 'not-the-password' })).status).toBe(401);

    const again = await call('POST', `/api/admin/people/${ama.id}/suspend`, operator.token, { reason: 'twice' });
    expect(again.status).toBe(409);

    const restored = await call('POST', `/api/admin/people/${ama.id}/restore`, operator.token, {
      reason: 'Explained and cleaned up',
    });
    expect(restored.status).toBe(200);
    expect(restored.body.suspension).toMatchObject({ suspended: false });
    await statusWithin(async () => (await call('GET', '/api/personas', secret)).status, 200, 1_000);
    const back = await signIn(ama);
    expect(back.status).toBe(200);
    expect((await call('GET', '/api/auth/me', back.body.token as string)).status).toBe(200);
    expect((await call('POST', `/api/admin/people/${ama.id}/restore`, operator.token, {})).status).toBe(409);

    // Each step is in the audit log, with its actor, address and request.
    const entries = await eventually(
      async () => {
        const found = await audit({ target: ama.id });
        const actions = new Set(found.map((e) => e.action));
        return (
          ['user.suspended', 'user.restored', 'apikey.created', 'sign_in.succeeded', 'sign_in.failed'].every((a) =>
            actions.has(a as AuditEntry['action']),
          ) && found
        );
      },
      { timeoutMs: 10_000, what: 'the audit entries of the suspension' },
    );
    const suspension = entries.find((e) => e.action === 'user.suspended')!;
    expect(suspension).toMatchObject({
      actorId: operator.id,
      targetId: ama.id,
      details: { reason: 'Sending spam through the API' },
    });
    expect(suspension.clientIp).toEqual(expect.any(String));
    expect(suspension.requestId).toBe(suspended.headers.get('x-request-id'));
    expect(entries.find((e) => e.action === 'user.restored')).toMatchObject({ actorId: operator.id });
    expect(entries.filter((e) => e.action === 'sign_in.failed').map((e) => e.details.reason)).toEqual(
      expect.arrayContaining(['suspended', 'invalid_credentials']),
    );
  }, 60_000);

  it('does not let operators suspend themselves, and says which person does not exist', async () => {
    const self = await call('POST', `/api/admin/people/${operator.id}/suspend`, operator.token, { reason: 'oops' });
    expect(self.status).toBe(409);
    expect(self.body.message).toMatch(/themselves/);
    const nobody = await call('POST', '/api/admin/people/64b7f0c2a1b2c3d4e5f60718/suspend', operator.token, {
      reason: 'nobody',
    });
    expect(nobody.status).toBe(404);
    expect((await call('POST', '/api/admin/people/not-an-id/suspend', operator.token, { reason: 'x' })).status).toBe(
      404,
    );
  });

  it('answers bad input with a 400 naming the problem', async () => {
    const kofi = await signUp('kofi');
    const noReason = await call('POST', `/api/admin/people/${kofi.id}/suspend`, operator.token, {});
    expect(noReason.status).toBe(400);
    expect(noReason.body).toMatchObject({ code: 'validation_failed', message: expect.stringMatching(/reason/) });
    const blank = await call('POST', `/api/admin/people/${kofi.id}/suspend`, operator.token, { reason: '   ' });
    expect(blank.status).toBe(400);
    const badTier = await call('POST', `/api/admin/people/${kofi.id}/plan`, operator.token, {
      tier: 'platinum',
      reason: 'x',
    });
    expect(badTier.status).toBe(400);
    expect(badTier.body.message).toMatch(/tier/);
    const tooMany = await call('GET', '/api/admin/people?limit=1000', operator.token);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toMatch(/limit/);
    const unknownField = await call('GET', '/api/admin/audit?who=me', operator.token);
    expect(unknownField.status).toBe(400);
    const backwards = await call(
      'GET',
      '/api/admin/audit?from=2026-12-08T00:00:00Z&to=2026-12-01T00:00:00Z',
      operator.token,
    );
    expect(backwards.status).toBe(400);
    expect(backwards.body.message).toMatch(/from/);
    const badAction = await call('GET', '/api/admin/audit?action=everything', operator.token);
    expect(badAction.status).toBe(400);
    const badCursor = await call('GET', '/api/admin/audit?cursor=nonsense', operator.token);
    expect(badCursor.status).toBe(400);
    expect(noReason.text).not.toMatch(/at .*\.js:\d+/);
  });
});

describe('people', () => {
  it('finds people by username prefix, e-mail prefix and id, a page at a time', async () => {
    const tag = randomUUID().slice(0, 6);
    const [a, b, c] = [await signUp(`find${tag}`), await signUp(`find${tag}`), await signUp(`find${tag}`)];
    const first = await call('GET', `/api/admin/people?q=FIND${tag}&limit=2`, operator.token);
    expect(first.status).toBe(200);
    expect(first.body.people).toHaveLength(2);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await call(
      'GET',
      `/api/admin/people?q=find${tag}&limit=2&cursor=${encodeURIComponent(first.body.nextCursor as string)}`,
      operator.token,
    );
    expect(second.body.people).toHaveLength(1);
    expect(second.body.nextCursor).toBeNull();
    const ids = [...first.body.people, ...second.body.people].map((p: { id: string }) => p.id).sort();
    expect(ids).toEqual([a.id, b.id, c.id].sort());

    const byEmail = await call('GET', `/api/admin/people?q=${encodeURIComponent(b.email)}`, operator.token);
    expect(byEmail.body.people.map((p: { id: string }) => p.id)).toEqual([b.id]);
    const byId = await call('GET', `/api/admin/people?q=${c.id}`, operator.token);
    expect(byId.body.people).toEqual([expect.objectContaining({ id: c.id, username: c.username, tier: 'free' })]);
  });

  it('shows one person’s plan, allowance, keys without secrets, team and last sign-in', async () => {
    const esi = await signUp('esi');
    const other = await signUp('other');
    const key = await createKey(esi.token);
    expect((await signIn(esi)).status).toBe(200);
    const page = await eventually(
      async () => {
        const res = await call('GET', `/api/admin/people/${esi.id}`, operator.token);
        return res.body.person?.lastSignInAt ? res : undefined;
      },
      { timeoutMs: 5_000, what: 'the last sign-in' },
    );
    const person = page.body.person as Record<string, any>;
    expect(person).toMatchObject({
      id: esi.id,
      email: esi.email,
      tier: 'free',
      suspended: false,
      plan: { tier: 'free', monthlyCalls: 1000, subscription: null },
      usage: { month: new Date().toISOString().slice(0, 7), monthlyCalls: 1000 },
      teams: [],
    });
    expect(person.apiKeys).toEqual([
      expect.objectContaining({ id: key.key.id, name: 'Admin test', prefix: key.secret.slice(0, 8), revokedAt: null }),
    ]);
    expect(page.text).not.toContain(key.secret);
    expect(page.text).not.toMatch(/hash|passwordHash/);
    // Another person's id is that person, never the caller.
    const theirs = await call('GET', `/api/admin/people/${other.id}`, operator.token);
    expect(theirs.body.person).toMatchObject({ id: other.id, email: other.email, apiKeys: [] });
    expect((await call('GET', '/api/admin/people/64b7f0c2a1b2c3d4e5f60718', operator.token)).status).toBe(404);
  });
});

describe('plan changes', () => {
  it('changes a plan with a reason, recorded with its actor; refuses over a subscription a processor renews', async () => {
    const yaw = await signUp('yaw');
    const changed = await call('POST', `/api/admin/people/${yaw.id}/plan`, operator.token, {
      tier: 'pro',
      reason: 'Goodwill after an outage',
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      from: 'free',
      to: 'pro',
      subscription: { processor: 'contract', planId: 'pro' },
    });
    const page = await call('GET', `/api/admin/people/${yaw.id}`, operator.token);
    expect(page.body.person).toMatchObject({ tier: 'pro', plan: { tier: 'pro', monthlyCalls: 50000 } });
    // The person's own view agrees after a fresh sign-in.
    expect((await signIn(yaw)).body.user.subscriptionTier).toBe('pro');
    expect(
      (await call('POST', `/api/admin/people/${yaw.id}/plan`, operator.token, { tier: 'pro', reason: 'again' })).status,
    ).toBe(409);

    const entry = await eventually(async () => (await audit({ target: yaw.id, action: 'plan.changed' }))[0], {
      timeoutMs: 10_000,
      what: 'the plan change in the audit log',
    });
    expect(entry).toMatchObject({
      actorId: operator.id,
      targetId: yaw.id,
      details: { from: 'free', to: 'pro', reason: 'Goodwill after an outage' },
    });
    const byActor = await audit({ actor: operator.id, action: 'plan.changed' });
    expect(byActor.map((e) => e.id)).toContain(entry.id);

    // Stripe renews this person's Pro: an operator's change would have them charged on; cancel that first.
    const abena = await signUp('abena');
    const now = new Date();
    await authDb.collection('subscriptions').insertOne({
      _id: abena.id as never,
      processor: 'stripe',
      planId: 'pro',
      status: 'active',
      reference: 'KASA-STRIPE0001',
      amount: 29,
      currency: 'USD',
      customerId: 'cus_test',
      subscriptionId: 'sub_test',
      subscriptionToken: null,
      renews: true,
      currentPeriodEnd: new Date(now.getTime() + 20 * 24 * 3600_000),
      cancelAtPeriodEnd: false,
      graceUntil: null,
      endedAt: null,
      stateAt: now,
      syncedAt: null,
      appliedTier: 'pro',
      pendingPlanChanges: [],
      seats: null,
      version: 1,
      createdAt: now,
      updatedAt: now,
    });
    const refused = await call('POST', `/api/admin/people/${abena.id}/plan`, operator.token, {
      tier: 'enterprise',
      reason: 'Sales deal',
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ message: expect.stringMatching(/stripe/), details: { processor: 'stripe' } });
  }, 60_000);

  it('exports the audit log as CSV with the same filters', async () => {
    const res = await fetch(url(`/api/admin/audit.csv?actor=${operator.id}`), {
      headers: { authorization: `Bearer ${operator.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="kasa-audit-/);
    const lines = (await res.text()).trim().split('\r\n');
    expect(lines[0]).toBe('time,action,actor,target,client_address,request_id,details');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines.slice(1)) expect(line.split(',')[2]).toBe(operator.id);
    const tooMany = await call('GET', '/api/admin/audit.csv?limit=10001', operator.token);
    expect(tooMany.status).toBe(400);
  });
});

/** The admin routes the auth service serves, read from its built router (no route can be added and forgotten here). */
function adminRoutes(): Array<{ method: string; path: string }> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createAdminRouter } = require(path.resolve(__dirname, '../../services/auth/dist/operators/adminRouter')) as {
    createAdminRouter: (deps: unknown) => express.Router;
  };
  const router = createAdminRouter({});
  const routes: Array<{ method: string; path: string }> = [];
  for (const layer of router.stack as Array<{ route?: { path: string; methods: Record<string, boolean> } }>) {
    if (!layer.route || !layer.route.path.startsWith('/api/admin/')) continue;
    for (const method of Object.keys(layer.route.methods))
      routes.push({ method: method.toUpperCase(), path: layer.route.path });
  }
  return routes;
}

describe('every /api/admin route', () => {
  const routes = adminRoutes();

  it('is read from the router, and covers what the OpenAPI document lists under /api/admin', () => {
    expect(routes.length).toBeGreaterThanOrEqual(12);
    const served = new Set(routes.map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`));
    const documented = Object.entries(buildOpenApiDocument().paths ?? {})
      .filter(([p]) => p.startsWith('/api/admin/'))
      .flatMap(([p, item]) => Object.keys(item as object).map((m) => `${m.toUpperCase()} ${p}`));
    expect(documented.length).toBeGreaterThan(0);
    for (const op of documented) expect(served).toContain(op);
  });

  it('is 404 to a signed-in non-operator, to their API key, to a bad token and to an anonymous caller', async () => {
    const someone = await signUp('someone');
    const victim = await signUp('victim');
    const { secret } = await createKey(someone.token);
    const callers: Array<[string, string | undefined]> = [
      ['a non-operator', someone.token],
      ['a non-operator’s API key', secret],
      ['a forged token', 'eyJhbGciOiJSUzI1NiJ9.e30.c2ln'],
      ['an anonymous caller', undefined],
    ];
    const answers: string[] = [];
    for (const route of routes) {
      // Parameters take another person's id: what a prying caller would try.
      const concrete = route.path.replace(/:\w+/g, victim.id);
      for (const [who, credential] of callers) {
        const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : { reason: 'x', tier: 'pro' };
        const res = await call(route.method, concrete, credential, body);
        answers.push(`${route.method} ${route.path} as ${who}: ${res.status} ${res.body.code}`);
        expect(`${route.method} ${route.path} as ${who}: ${res.status} ${res.body.code}`).toBe(
          `${route.method} ${route.path} as ${who}: 404 not_found`,
        );
      }
    }
    expect(answers.length).toBe(routes.length * callers.length);
    // Nothing was changed by those calls.
    const page = await call('GET', `/api/admin/people/${victim.id}`, operator.token);
    expect(page.body.person).toMatchObject({ tier: 'free', suspended: false });
    // The same routes answer the operator: the 404 is the role's, not a missing route.
    for (const route of routes.filter((r) => r.method === 'GET')) {
      const res = await call('GET', route.path.replace(/:\w+/g, victim.id), operator.token);
      expect(`${route.path}: ${res.status}`).toBe(`${route.path}: 200`);
    }
  }, 60_000);
});
