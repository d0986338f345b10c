import {
  buildOpenApiDocument,
  type AuditEntry,
  type AuthResponse,
  type CreateApiKeyResponse,
  type EventType,
  type KasaEvent,
  type TeamAuditPage,
} from '@kasa/contracts';
import { EventBus, connectDatabase, createLogger } from '@kasa/service-kit';
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
 * `/api/admin/*` route of the auth service's admin router answering 404 to a non-operator and an anonymous caller;
 * `GET /api/auth/me` saying who is an operator; a team's membership changes in the audit log, once each, for the
 * operators and for the team's owner and admins.
 */
const run = randomUUID().slice(0, 8);
const OPERATOR_EMAIL = `operator.${run}@example.com`;
const AUTH_DB_NAME = `kasa_auth_admin_${run}`;
// A queue of this platform's own: the audit consumers of other runs on the broker never take its events.
const AUTH_CONSUMER_NAME = `auth-test-${run}`;
const logger = createLogger({ service: 'admin-it', version: 'test', level: 'silent' });
const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

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

describe('GET /api/auth/me', () => {
  it('says an operator is one and anyone else is not, as the role stands at each call', async () => {
    const me = await call('GET', '/api/auth/me', operator.token);
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ id: operator.id, email: operator.email, operator: true });

    const kwesi = await signUp('kwesi');
    expect((await call('GET', '/api/auth/me', kwesi.token)).body.user).toMatchObject({ id: kwesi.id, operator: false });
    expect((await call('POST', '/api/admin/operators', operator.token, { email: kwesi.email })).status).toBe(201);
    // The same token: the role is read afresh, not carried in the token.
    expect((await call('GET', '/api/auth/me', kwesi.token)).body.user.operator).toBe(true);
    expect((await call('DELETE', `/api/admin/operators/${kwesi.id}`, operator.token)).status).toBe(204);
    expect((await call('GET', '/api/auth/me', kwesi.token)).body.user.operator).toBe(false);
  });
});

describe('team membership in the audit log', () => {
  const TEAM_EVENTS = [
    'auth.team.invitation_sent',
    'auth.team.invitation_revoked',
    'auth.team.member_joined',
    'auth.team.member_removed',
    'auth.team.member_role_changed',
    'auth.team.seats_changed',
  ] as const satisfies readonly EventType[];
  /** The team events as auth published them (a broadcast queue of this test's own). */
  const published: Array<KasaEvent<(typeof TEAM_EVENTS)[number]>> = [];
  let observer: EventBus;
  let owner: Person;
  let teamId: string;
  let expected: Array<[action: AuditEntry['action'], actor: string, target: string]>;

  /** The team's entries as its owner reads them (newest first, one page). */
  async function teamAudit(token: string, query: Record<string, string> = {}): Promise<TeamAuditPage> {
    const res = await call(
      'GET',
      `/api/developer/team/audit?${new URLSearchParams({ limit: '100', ...query })}`,
      token,
    );
    expect(res.status).toBe(200);
    return res.body as TeamAuditPage;
  }

  beforeAll(async () => {
    observer = new EventBus({ url: AMQP_URL, source: 'kasa/admin-it', logger });
    for (const type of TEAM_EVENTS) {
      observer.subscribeBroadcast(type, async (event) => {
        published.push(event);
      });
    }
    await observer.start();
  });

  afterAll(async () => {
    await observer?.close();
  });

  async function enterpriseByContract(who: Person, seats: number): Promise<void> {
    const inquiries = await call('GET', '/api/admin/inquiries', operator.token);
    let inquiry = (inquiries.body.inquiries as Array<{ id: string; email: string }>).find((i) => i.email === who.email);
    if (!inquiry) {
      expect((await call('POST', '/api/billing/checkout', who.token, { planId: 'enterprise' })).status).toBeLessThan(
        300,
      );
      const again = await call('GET', '/api/admin/inquiries?status=open', operator.token);
      inquiry = (again.body.inquiries as Array<{ id: string; email: string }>).find((i) => i.email === who.email)!;
    }
    const endsAt = new Date(Date.now() + 365 * 24 * 3600_000).toISOString();
    const granted = await call('POST', `/api/admin/inquiries/${inquiry.id}/enterprise`, operator.token, {
      seats,
      endsAt,
    });
    expect(granted.status).toBe(201);
  }

  it('records each membership action once, naming the team, who acted and the person concerned', async () => {
    owner = await signUp('owner');
    await enterpriseByContract(owner, 10);
    // A fresh token carries the new plan.
    owner = { ...owner, token: (await signIn(owner)).body.token as string };
    const created = await call('POST', '/api/developer/team', owner.token, { name: 'Tamale Agritech' });
    expect(created.status).toBe(201);
    teamId = created.body.team.id as string;
    const [admin, member, leaver] = [await signUp('admin'), await signUp('member'), await signUp('leaver')];
    const invite = async (by: Person, email: string, role: 'admin' | 'member' = 'member') => {
      const res = await call('POST', '/api/developer/team/invitations', by.token, { email, role });
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    const accept = async (who: Person, invitationId: string) =>
      expect((await call('POST', `/api/developer/invitations/${invitationId}/accept`, who.token)).status).toBe(200);

    await accept(admin, await invite(owner, admin.email, 'admin'));
    await accept(member, await invite(admin, member.email));
    const ghost = `ghost.${randomUUID().slice(0, 8)}@example.com`;
    const toGhost = await invite(owner, ghost);
    expect((await call('DELETE', `/api/developer/team/invitations/${toGhost}`, admin.token)).status).toBe(204);
    const promoted = await call('PATCH', `/api/developer/team/members/${member.id}`, owner.token, { role: 'admin' });
    expect(promoted.status).toBe(200);
    await accept(leaver, await invite(owner, leaver.email));
    expect((await call('DELETE', `/api/developer/team/members/${leaver.id}`, leaver.token)).status).toBe(204);
    expect((await call('DELETE', `/api/developer/team/members/${admin.id}`, owner.token)).status).toBe(204);
    // The operator records the contract again with more seats: the team's seats change.
    await enterpriseByContract(owner, 25);

    expected = [
      ['team.invitation_sent', owner.id, admin.id],
      ['team.member_joined', admin.id, admin.id],
      ['team.invitation_sent', admin.id, member.id],
      ['team.member_joined', member.id, member.id],
      ['team.invitation_sent', owner.id, `email:${ghost}`],
      ['team.invitation_revoked', admin.id, `email:${ghost}`],
      ['team.role_changed', owner.id, member.id],
      ['team.invitation_sent', owner.id, leaver.id],
      ['team.member_joined', leaver.id, leaver.id],
      ['team.member_left', leaver.id, leaver.id],
      ['team.member_removed', owner.id, admin.id],
      ['team.seats_changed', operator.id, owner.id],
    ];
    const page = await eventually(
      async () => {
        const found = await teamAudit(owner.token);
        return found.entries.length >= expected.length && found;
      },
      { timeoutMs: 15_000, what: 'every membership entry in the team’s audit log' },
    );
    expect(page.entries.map((e) => [e.action, e.actorId, e.targetId]).sort()).toEqual([...expected].sort());
    for (const entry of page.entries) expect(entry.details.teamId).toBe(teamId);
    const times = page.entries.map((e) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(page.entries.find((e) => e.action === 'team.seats_changed')?.details).toEqual({ teamId, from: 10, to: 25 });

    // The operators' log holds the same entries, with the client address and the request.
    const removal = await audit({ action: 'team.member_removed', target: admin.id });
    expect(removal).toEqual([
      expect.objectContaining({
        actorId: owner.id,
        clientIp: expect.any(String),
        details: expect.objectContaining({ teamId, email: admin.email, role: 'admin' }),
      }),
    ]);
    const role = await audit({ action: 'team.role_changed', target: member.id });
    expect(role).toEqual([expect.objectContaining({ requestId: promoted.headers.get('x-request-id') })]);
  }, 60_000);

  it('adds nothing when the events are delivered again', async () => {
    const ours = await eventually(() => {
      const found = published.filter((e) => e.data.teamId === teamId);
      return found.length >= expected.length && found;
    });
    expect(ours).toHaveLength(expected.length);
    const publisher = new EventBus({ url: AMQP_URL, source: 'kasa/auth', logger });
    await publisher.start();
    try {
      for (const event of ours) {
        await publisher.publish(event.type, event.data, {
          id: event.id,
          ...(event.requestId ? { requestId: event.requestId } : {}),
        });
      }
      // A fresh event behind the repeated ones: once its entry is there, the consumer has reached past them.
      await publisher.publish('auth.team.invitation_revoked', {
        teamId,
        invitationId: randomUUID(),
        email: 'marker@example.com',
        userId: null,
        actor: { userId: owner.id },
        at: new Date().toISOString(),
      });
    } finally {
      await publisher.close();
    }
    const page = await eventually(
      async () => {
        const found = await teamAudit(owner.token);
        return found.entries.some((e) => e.details.email === 'marker@example.com') && found;
      },
      { timeoutMs: 15_000, what: 'the entry of the event after the repeated ones' },
    );
    expect(page.entries).toHaveLength(expected.length + 1);
    expect(new Set(page.entries.map((e) => e.id)).size).toBe(expected.length + 1);
  }, 60_000);

  it('shows a team’s entries to its owner and admins, by action and a page at a time; to others it is 404', async () => {
    const joins = await teamAudit(owner.token, { action: 'team.member_joined' });
    expect(joins.entries.map((e) => e.action)).toEqual([
      'team.member_joined',
      'team.member_joined',
      'team.member_joined',
    ]);
    const first = await teamAudit(owner.token, { limit: '5' });
    expect(first.entries).toHaveLength(5);
    const next = await teamAudit(owner.token, { limit: '100', cursor: first.nextCursor! });
    expect(next.entries.length).toBe(expected.length + 1 - 5);
    expect(next.nextCursor).toBeNull();
    expect(first.entries.concat(next.entries).map((e) => e.id)).toEqual(
      (await teamAudit(owner.token)).entries.map((e) => e.id),
    );

    // A member of another team (and a plain member of any team), or someone in none: the log does not exist for them.
    const otherOwner = await signUp('other');
    await enterpriseByContract(otherOwner, 5);
    const otherToken = (await signIn(otherOwner)).body.token as string;
    expect((await call('POST', '/api/developer/team', otherToken, { name: 'Lagos Studio' })).status).toBe(201);
    const otherMember = await signUp('othermember');
    const toOther = await call('POST', '/api/developer/team/invitations', otherToken, { email: otherMember.email });
    expect((await call('POST', `/api/developer/invitations/${toOther.body.id}/accept`, otherMember.token)).status).toBe(
      200,
    );
    for (const [who, token] of [
      ['a member of another team', otherMember.token],
      ['someone in no team', (await signUp('loner')).token],
    ] as const) {
      const res = await call('GET', '/api/developer/team/audit', token);
      expect({ who, status: res.status, code: res.body.code }).toEqual({ who, status: 404, code: 'not_found' });
    }
    const theirs = await teamAudit(otherToken);
    for (const entry of theirs.entries) expect(entry.details.teamId).not.toBe(teamId);
    expect((await call('GET', '/api/developer/team/audit?limit=1000', owner.token)).status).toBe(400);
    expect((await call('GET', '/api/developer/team/audit?action=user.suspended', owner.token)).status).toBe(400);
    expect((await call('GET', '/api/developer/team/audit')).status).toBe(401);
  }, 60_000);
});

/**
 * The admin routes the services serve, read from their built routers (auth's people, plans, operators and audit log;
 * chat's AI providers and local model; status's health and usage): no route can be added and forgotten here.
 */
function adminRoutes(): Array<{ method: string; path: string }> {
  const built = (file: string) => path.resolve(__dirname, '../../services', file);
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { createAdminRouter } = require(built('auth/dist/operators/adminRouter')) as {
    createAdminRouter: (deps: unknown) => express.Router;
  };
  const { createProviderAdminRouter } = require(built('chat/dist/admin/providerAdminRouter')) as {
    createProviderAdminRouter: (deps: unknown) => express.Router;
  };
  const { createLocalModelRouter } = require(built('chat/dist/providers/local/localModelRouter')) as {
    createLocalModelRouter: (deps: unknown) => express.Router;
  };
  const { createAdminHealthRouter } = require(built('status/dist/admin/adminRouter')) as {
    createAdminHealthRouter: (deps: unknown, options: unknown) => express.Router;
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
  const routes: Array<{ method: string; path: string }> = [];
  const routers = [
    createAdminRouter({}),
    createProviderAdminRouter({}),
    createLocalModelRouter({}),
    createAdminHealthRouter({}, {}),
  ];
  for (const router of routers)
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
