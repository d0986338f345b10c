import { type AuthResponse } from '@kasa/contracts';
import { EventBus, connectDatabase, createLogger } from '@kasa/service-kit';
import { identityHeaders } from '@kasa/test-kit';
import type { Express } from 'express';
import type { Connection } from 'mongoose';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import type { AuthComponents } from '../src/authComponents';
import { subscriptionModel } from '../src/billing/subscriptionModel';
import { runOperatorCommand } from '../src/operators/operatorCommand';
import { generateSigningKey } from '../src/tokens/signingKey';
import { userModel } from '../src/users/userModel';
import { createTestAuthApp } from './authApp';

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const logger = createLogger({ service: 'auth-operators-test', version: 'test', level: 'silent' });
const DB_NAME = `kasa_auth_operators_test_${process.pid}`;
const COMMAND = path.resolve(__dirname, '../dist/operators/operatorCommand.js');
const CONFIGURED_EMAIL = `configured.${randomUUID().slice(0, 8)}@example.com`;
/** One signing key for every app of the file, so that a token of one is good on another (as on replicas). */
const signingKey = generateSigningKey();

let db: Connection;
let bus: EventBus;
let app: Express;
let components: AuthComponents;

interface Person {
  id: string;
  email: string;
  headers: Record<string, string>;
  /** The access token registration gave. */
  token: string;
}

async function person(email = `op.${randomUUID().slice(0, 8)}@example.com`): Promise<Person> {
  const res = await request(app)
    .post('/api/auth/register')
    .send({ username: `op_${randomUUID().slice(0, 8)}`, email, password: 'akwaaba-123' });
  expect(res.status).toBe(201);
  const { user, token } = res.body as AuthResponse;
  return {
    id: user.id,
    email,
    token,
    headers: identityHeaders({ userId: user.id, username: user.username, tier: 'free' }),
  };
}

/** What GET /api/auth/me says of the person's role, on `on` (the app, or one with other settings). */
async function meSaysOperator(who: Person, on: Express = app): Promise<boolean> {
  const res = await request(on).get('/api/auth/me').set('Authorization', `Bearer ${who.token}`);
  expect(res.status).toBe(200);
  expect(res.body.user).toMatchObject({ id: who.id, email: who.email });
  return res.body.user.operator as boolean;
}

/** What the operator command prints, run in this process against the test's database. */
async function command(...argv: string[]): Promise<string[]> {
  const lines: string[] = [];
  await runOperatorCommand(argv, components.operators, 'http://localhost:8080', (line) => lines.push(line));
  return lines;
}

const tokenOf = (lines: string[]) => {
  const link = lines.map((line) => line.trim()).find((line) => line.startsWith('http'));
  return new URL(link!).searchParams.get('token')!;
};

beforeAll(async () => {
  db = await connectDatabase({ url: process.env.MONGO_URL!, dbName: DB_NAME, logger, maxAttempts: 3 });
  bus = new EventBus({ url: AMQP_URL, source: 'kasa/auth', logger });
  await bus.start();
  await userModel(db).init();
  ({ app, auth: components } = createTestAuthApp({ db, bus, logger, name: 'auth_operators_test', signingKey }));
});

afterAll(async () => {
  await components?.apiKeyUsage.close();
  await bus?.close();
  await db?.dropDatabase();
  await db?.close();
});

describe('the operator role', () => {
  let first: Person;

  it('starts with nobody: the setup link makes the first operator, once, of two people racing with it', async () => {
    const nobody = await person();
    expect((await request(app).get('/api/admin/operators').set(nobody.headers)).status).toBe(404);
    expect(await command('operators')).toEqual([expect.stringMatching(/Nobody is an operator yet/)]);

    const issued = await command('setup-link');
    expect(issued[1]).toMatch(/^ {2}http:\/\/localhost:8080\/setup\?token=[\w-]{40,}$/);
    // A new link replaces the one before it.
    const stale = tokenOf(issued);
    const token = tokenOf(await command('setup-link'));
    expect(token).not.toBe(stale);
    const wrong = await request(app).post('/api/auth/operator-setup').set(nobody.headers).send({ token: stale });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'setup_link_invalid', message: expect.stringMatching(/setup-link/) });

    const [a, b] = [await person(), await person()];
    const answers = await Promise.all(
      [a, b].map((who) => request(app).post('/api/auth/operator-setup').set(who.headers).send({ token })),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([200, 400]);
    first = answers[0]!.status === 200 ? a : b;
    const loser = first === a ? b : a;
    expect((await request(app).get('/api/admin/operators').set(loser.headers)).status).toBe(404);
    const list = await request(app).get('/api/admin/operators').set(first.headers);
    expect(list.status).toBe(200);
    expect(list.headers['cache-control']).toBe('no-store');
    expect(list.body.operators).toEqual([
      { id: first.id, username: expect.any(String), email: first.email, source: 'granted' },
    ]);
    // Once somebody runs Kasa, there is no link to make.
    expect(await command('setup-link')).toEqual([expect.stringMatching(/already has an operator/)]);
    expect(await command('setup-link', '--if-none')).toEqual([]);
    expect(await components.operators.issueSetupToken()).toBeNull();
  });

  it('is given and taken by operators; nobody removes themselves; the role is read afresh on every request', async () => {
    const other = await person();
    const added = await request(app).post('/api/admin/operators').set(first.headers).send({ email: other.email });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ id: other.id, source: 'granted' });
    expect((await request(app).get('/api/admin/inquiries').set(other.headers)).status).toBe(200);

    const unknown = await request(app)
      .post('/api/admin/operators')
      .set(first.headers)
      .send({ email: 'nobody.here@example.com' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toMatch(/signs up first/);
    const invalid = await request(app).post('/api/admin/operators').set(first.headers).send({ email: 'not-mail' });
    expect(invalid.status).toBe(400);

    const self = await request(app).delete(`/api/admin/operators/${first.id}`).set(first.headers);
    expect(self.status).toBe(409);
    expect((await request(app).delete(`/api/admin/operators/${other.id}`).set(first.headers)).status).toBe(204);
    // The same headers (a token issued while it was an operator) no longer open anything.
    expect((await request(app).get('/api/admin/operators').set(other.headers)).status).toBe(404);
    expect((await request(app).delete(`/api/admin/operators/${other.id}`).set(first.headers)).status).toBe(404);
  });

  it('is what GET /api/auth/me says, read afresh: false once removed or suspended, true again once restored', async () => {
    const someone = await person();
    expect(await meSaysOperator(someone)).toBe(false);
    expect(await meSaysOperator(first)).toBe(true);
    expect(
      (await request(app).post('/api/admin/operators').set(first.headers).send({ email: someone.email })).status,
    ).toBe(201);
    expect(await meSaysOperator(someone)).toBe(true);

    // The same token, unchanged: the role is the database's, not the token's.
    const suspend = await request(app)
      .post(`/api/admin/people/${someone.id}/suspend`)
      .set(first.headers)
      .send({ reason: 'Checking the console link' });
    expect(suspend.status).toBe(200);
    expect(await meSaysOperator(someone)).toBe(false);
    expect((await request(app).get('/api/admin/operators').set(someone.headers)).status).toBe(404);
    const restore = await request(app).post(`/api/admin/people/${someone.id}/restore`).set(first.headers).send({});
    expect(restore.status).toBe(200);
    expect(await meSaysOperator(someone)).toBe(true);

    expect((await request(app).delete(`/api/admin/operators/${someone.id}`).set(first.headers)).status).toBe(204);
    expect(await meSaysOperator(someone)).toBe(false);
  });

  it('is 404 on every admin route to a signed-in person who is not an operator, and 401 without identity', async () => {
    const someone = await person();
    const routes: Array<[method: 'get' | 'post' | 'delete', path: string]> = [
      ['get', '/api/admin/operators'],
      ['post', '/api/admin/operators'],
      ['delete', `/api/admin/operators/${first.id}`],
      ['get', '/api/admin/inquiries'],
      ['post', `/api/admin/inquiries/${'0'.repeat(24)}/enterprise`],
    ];
    for (const [method, path] of routes) {
      const res = await request(app)[method](path).set(someone.headers).send({ email: someone.email });
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 404 });
      const anonymous = await request(app)[method](path).send({});
      expect({ method, path, status: anonymous.status }).toEqual({ method, path, status: 401 });
    }
    expect(await userModel(db).exists({ _id: someone.id, operator: true })).toBeNull();
  });

  it('comes from KASA_OPERATOR_EMAILS while the setting names the account, which only the setting can change', async () => {
    const configured = createTestAuthApp({
      db,
      bus,
      logger,
      name: 'auth_operators_configured_test',
      operatorEmails: [CONFIGURED_EMAIL],
      signingKey,
    });
    try {
      const named = await person(CONFIGURED_EMAIL);
      expect((await request(app).get('/api/admin/operators').set(named.headers)).status).toBe(404);
      // Named in KASA_OPERATOR_EMAILS: me says so where the setting names them, and not elsewhere.
      expect(await meSaysOperator(named, configured.app)).toBe(true);
      expect(await meSaysOperator(named)).toBe(false);
      const list = await request(configured.app).get('/api/admin/operators').set(named.headers);
      expect(list.status).toBe(200);
      expect(list.body.operators).toContainEqual(expect.objectContaining({ id: named.id, source: 'configured' }));
      const removal = await request(configured.app).delete(`/api/admin/operators/${named.id}`).set(first.headers);
      expect(removal.status).toBe(409);
      expect(removal.body.message).toMatch(/KASA_OPERATOR_EMAILS/);
    } finally {
      await configured.auth.apiKeyUsage.close();
    }
  });
});

describe("the operators' view of Enterprise inquiries", () => {
  it('lists them newest first, by status, with a bounded page; a bad query is a 400', async () => {
    const operator = (await request(app).get('/api/admin/operators').set(identityHeaders('free'))).status;
    expect(operator).toBe(404);
    const op = (await components.operators.list())[0]!;
    const opHeaders = identityHeaders({ userId: op.id, username: op.username, tier: 'free' });
    const askers = [await person(), await person()];
    const form = { company: 'Tamale Agritech', seats: 12, phone: '+233 24 000 0000' };
    for (const asker of askers) {
      const res = await request(app)
        .post('/api/billing/checkout')
        .set(asker.headers)
        .send(asker === askers[1] ? { planId: 'enterprise', inquiry: form } : { planId: 'enterprise' });
      expect(res.status).toBeLessThan(300);
    }
    for (const wrong of [
      { planId: 'enterprise', inquiry: { ...form, seats: 0 } },
      { planId: 'enterprise', inquiry: { ...form, company: ' ' } },
      { planId: 'enterprise', inquiry: { ...form, extra: 'x' } },
      { planId: 'pro', inquiry: form },
    ]) {
      const res = await request(app).post('/api/billing/checkout').set(askers[0]!.headers).send(wrong);
      expect({ wrong, status: res.status }).toEqual({ wrong, status: 400 });
    }
    const all = await request(app).get('/api/admin/inquiries').set(opHeaders);
    expect(all.status).toBe(200);
    expect(all.body.inquiries.map((i: { email: string }) => i.email)).toEqual(
      expect.arrayContaining(askers.map((a) => a.email)),
    );
    expect(all.body.inquiries[0]).toMatchObject({ email: askers[1]!.email, ...form, message: null });
    expect(all.body.inquiries[1]).toMatchObject({ email: askers[0]!.email, company: null, seats: null });
    const page = await request(app).get('/api/admin/inquiries?status=open&limit=1').set(opHeaders);
    expect(page.body.inquiries).toHaveLength(1);
    const next = await request(app)
      .get(`/api/admin/inquiries?limit=1&before=${encodeURIComponent(page.body.inquiries[0]!.lastRequestedAt)}`)
      .set(opHeaders);
    expect(next.body.inquiries[0].email).toBe(askers[0]!.email);
    expect(await command('inquiries', '--status', 'open')).toEqual(
      expect.arrayContaining([expect.stringContaining(askers[0]!.email)]),
    );
    for (const query of ['limit=0', 'limit=500', 'status=lost', 'before=yesterday', 'sort=name']) {
      const res = await request(app).get(`/api/admin/inquiries?${query}`).set(opHeaders);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
    }
  });
});

describe('the operator command as a process', () => {
  const run = (...argv: string[]) =>
    promisify(execFile)(process.execPath, [COMMAND, ...argv], {
      env: { ...process.env, AUTH_DB_NAME: DB_NAME, NODE_ENV: 'test' },
    }).then(
      (done) => ({ code: 0, stdout: done.stdout, stderr: done.stderr }),
      (err: { code: number; stdout: string; stderr: string }) => err,
    );

  it('adds and removes an operator with the platform settings, and explains a mistake with the usage', async () => {
    const someone = await person();
    const added = await run('operators', 'add', someone.email);
    expect(added).toMatchObject({ code: 0, stdout: `${someone.email} is an operator.\n` });
    expect(await components.operators.isOperator(someone.id)).toBe(true);
    expect((await run('operators')).stdout).toContain(someone.email);
    expect(await run('operators', 'remove', someone.email)).toMatchObject({ code: 0 });
    expect(await components.operators.isOperator(someone.id)).toBe(false);

    const unknown = await run('operators', 'promote', someone.email);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/unknown command: operators promote[\s\S]*Usage: npm run kasa/);
    expect(await run('inquiries', '--status', 'lost')).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/--status/),
    });
    expect(await run('operators', 'add', 'nobody.here@example.com')).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/signs up first/),
    });
    expect(await run()).toMatchObject({ code: 1, stdout: expect.stringMatching(/^Usage/) });
    // Seven processes, each loading the command and reaching the database: minutes on a loaded machine.
  }, 240_000);

  it('says to start Kasa when its database does not answer', async () => {
    const res = await promisify(execFile)(process.execPath, [COMMAND, 'operators'], {
      env: { ...process.env, MONGO_URL: 'mongodb://127.0.0.1:9', NODE_ENV: 'test' },
    }).catch((err: { code: number; stderr: string }) => err);
    expect(res).toMatchObject({ code: 1, stderr: expect.stringMatching(/start Kasa first/) });
  }, 30_000);
});

describe('an Enterprise contract, recorded by an operator', () => {
  const yearAhead = () => new Date(Date.now() + 365 * 24 * 3600_000);
  let opHeaders: Record<string, string>;

  beforeAll(async () => {
    const op = (await components.operators.list())[0]!;
    opHeaders = identityHeaders({ userId: op.id, username: op.username, tier: 'free' });
  });

  it('turns an inquiry into Enterprise at once, with its seats and end date, and closes the inquiry', async () => {
    const customer = await person();
    expect(
      (await request(app).post('/api/billing/checkout').set(customer.headers).send({ planId: 'enterprise' })).status,
    ).toBeLessThan(300);
    const inquiries = await request(app).get('/api/admin/inquiries?status=open').set(opHeaders);
    const inquiry = (inquiries.body.inquiries as Array<{ id: string; email: string }>).find(
      (i) => i.email === customer.email,
    )!;
    const endsAt = yearAhead();

    const path = `/api/admin/inquiries/${inquiry.id}/enterprise`;
    expect((await request(app).post(path).set(customer.headers).send({ seats: 25, endsAt })).status).toBe(404);
    expect((await request(app).post(path).set(opHeaders).send({ seats: 0, endsAt })).status).toBe(400);
    expect((await request(app).post(path).set(opHeaders).send({ seats: 25 })).status).toBe(400);
    const past = await request(app)
      .post(path)
      .set(opHeaders)
      .send({ seats: 25, endsAt: new Date(Date.now() - 1000) });
    expect(past.status).toBe(400);
    const unknown = await request(app)
      .post(`/api/admin/inquiries/${'0'.repeat(24)}/enterprise`)
      .set(opHeaders)
      .send({ seats: 25, endsAt });
    expect(unknown.status).toBe(404);

    const granted = await request(app).post(path).set(opHeaders).send({ seats: 25, endsAt });
    expect(granted.status).toBe(201);
    expect(granted.body).toMatchObject({
      userId: customer.id,
      email: customer.email,
      subscription: {
        processor: 'contract',
        planId: 'enterprise',
        effectiveTier: 'enterprise',
        seats: 25,
        currentPeriodEnd: endsAt.toISOString(),
        canCancel: false,
        canManage: false,
      },
    });
    expect((await userModel(db).findById(customer.id).lean())?.subscriptionTier).toBe('enterprise');
    const mine = await request(app).get('/api/billing/subscription').set(customer.headers);
    expect(mine.body.subscription).toMatchObject({ processor: 'contract', seats: 25 });
    const closed = await request(app).get('/api/admin/inquiries?status=closed').set(opHeaders);
    expect(closed.body.inquiries.map((i: { id: string }) => i.id)).toContain(inquiry.id);

    // After its last day, the reconciliation's clock takes the account back to Free, data kept.
    const later = createTestAuthApp({
      db,
      bus,
      logger,
      name: 'auth_operators_later_test',
      billingClock: () => new Date(endsAt.getTime() + 1000),
    });
    try {
      await later.auth.billing.reconcile();
      expect((await userModel(db).findById(customer.id).lean())?.subscriptionTier).toBe('free');
    } finally {
      await later.auth.apiKeyUsage.close();
    }
  });

  it('is recorded by e-mail from the command, and not over a subscription a processor still renews', async () => {
    const customer = await person();
    const printed = await command('enterprise', 'grant', customer.email, '--seats', '5', '--until', '2099-12-31');
    expect(printed).toEqual([expect.stringMatching(/has Enterprise for 5 seats until 2099-12-31 \(contract KASA-/)]);
    expect((await userModel(db).findById(customer.id).lean())?.subscriptionTier).toBe('enterprise');
    await expect(
      command('enterprise', 'grant', customer.email, '--seats', 'many', '--until', '2099-12-31'),
    ).rejects.toThrow(/--seats/);
    await expect(command('enterprise', 'grant', customer.email, '--seats', '5', '--until', 'soon')).rejects.toThrow(
      /--until/,
    );

    const paying = await person();
    await subscriptionModel(db).create({
      _id: paying.id,
      processor: 'stripe',
      planId: 'pro',
      status: 'active',
      reference: 'KASA-0000000000',
      amount: 29,
      currency: 'USD',
      renews: true,
      currentPeriodEnd: yearAhead(),
      stateAt: new Date(),
      appliedTier: 'pro',
      version: 1,
    });
    await expect(command('enterprise', 'grant', paying.email, '--seats', '5', '--until', '2099-12-31')).rejects.toThrow(
      /cancel that subscription first/,
    );
  });
});
