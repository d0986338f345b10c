import { EventBus, connectDatabase, createLogger } from '@kasa/service-kit';
import { eventually } from '@kasa/test-kit';
import { Types, type Connection } from 'mongoose';
import { randomUUID } from 'node:crypto';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { Api, callFrom } from './support';

/**
 * Accounts and keys under attack, against the running platform (the real gateway and services from their built
 * output): guessing one account's password from many addresses, telling which addresses have accounts, and using a
 * team key to reach the person who created it.
 */
const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const logger = createLogger({ service: 'account-security', version: 'test', level: 'silent' });
const authDbName = `kasa_auth_accsec_${randomUUID().slice(0, 8)}`;

let platform: RunningPlatform;
let api: Api;
let authDb: Connection;
let publisher: EventBus;

beforeAll(async () => {
  platform = await startPlatform({ AUTH_DB_NAME: authDbName });
  api = new Api(platform.baseUrl);
  authDb = await connectDatabase({ url: process.env.MONGO_URL!, dbName: authDbName, logger, maxAttempts: 3 });
  publisher = new EventBus({ url: AMQP_URL, source: 'kasa/account-security', logger });
  await publisher.start();
}, 120_000);

afterAll(async () => {
  await publisher?.close();
  await authDb?.dropDatabase().catch(() => undefined);
  await authDb?.close();
  await platform?.stop();
});

async function setTier(userId: string, tier: 'free' | 'pro' | 'enterprise', from: 'free' | 'pro' | 'enterprise') {
  await authDb.collection('users').updateOne({ _id: new Types.ObjectId(userId) }, { $set: { subscriptionTier: tier } });
  await publisher.publish('auth.user.plan_changed', { userId, from, to: tier });
}

describe('guessing one account’s password', () => {
  it('makes the account wait whichever addresses the guesses come from, and tells nothing about unknown ones', async () => {
    const person = await api.register('target');
    const nobody = `nobody.${randomUUID().slice(0, 8)}@example.com`;
    const login = `${platform.baseUrl}/api/auth/login`;
    // Two attackers take turns; each stays far below the gateway's per-address limit.
    for (let i = 0; i < 5; i++) {
      const from = i % 2 ? '127.0.0.5' : '127.0.0.4';
      const known = await callFrom(from, login, { email: person.email, password: `guess-${i}` });
      const unknown = await callFrom(from, login, { email: nobody, password: `guess-${i}` });
      expect([i, known.status, unknown.status]).toEqual([i, 401, 401]);
      expect(unknown.text.replace(/"requestId":"[^"]+"/, '')).toBe(known.text.replace(/"requestId":"[^"]+"/, ''));
    }

    // A third address, with the right password, while the account waits.
    const right = await callFrom('127.0.0.6', login, { email: person.email, password: person.password });
    const unknown = await callFrom('127.0.0.6', login, { email: nobody, password: person.password });
    for (const answer of [right, unknown]) {
      expect(answer.status).toBe(429);
      expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(JSON.parse(answer.text)).toMatchObject({
        code: 'rate_limited',
        message: expect.stringMatching(/Try again/),
      });
    }
    expect(JSON.parse(unknown.text).message).toBe(JSON.parse(right.text).message);

    // The wait is short: the person signs in after it.
    await eventually(
      async () =>
        (await callFrom('127.0.0.6', login, { email: person.email, password: person.password })).status === 200,
      { timeoutMs: 5_000, what: 'sign-in after the wait' },
    );
  });
});

describe('telling which addresses have accounts', () => {
  it('answers a registration with a taken address without confirming the account or signing anyone in', async () => {
    const owner = await api.register('owner');
    const attempt = await api.call('POST', '/api/auth/register', {
      body: { username: `other_${randomUUID().slice(0, 8)}`, email: owner.email, password: 'another-pass-1' },
    });
    expect(attempt.status).toBe(409);
    expect(attempt.body.message).not.toMatch(/exists|already|registered/i);
    expect(attempt.body).not.toHaveProperty('token');
    expect(attempt.headers.get('set-cookie')).toBeNull();
    // The owner is told by e-mail (the notice is in the outbox until the broker confirms it, or already sent).
    await eventually(async () => {
      const user = await authDb.collection('users').findOne({ _id: new Types.ObjectId(owner.id) });
      return user?.registrationNoticeAt instanceof Date;
    });
  });
});

describe('team keys', () => {
  /** An Enterprise owner, an admin who creates the team key, and the member who uses it. */
  async function team() {
    const owner = await api.register('owner');
    const admin = await api.register('admin');
    const member = await api.register('member');
    await setTier(owner.id, 'enterprise', 'free');
    expect(
      (await api.call('POST', '/api/developer/team', { token: owner.token, body: { name: 'Osu Works' } })).status,
    ).toBe(201);
    for (const [who, role] of [
      [admin, 'admin'],
      [member, 'member'],
    ] as const) {
      const invitation = await api.call('POST', '/api/developer/team/invitations', {
        token: owner.token,
        body: { email: who.email, role },
      });
      expect(invitation.status).toBe(201);
      expect(
        (await api.call('POST', `/api/developer/invitations/${invitation.body.id}/accept`, { token: who.token }))
          .status,
      ).toBe(200);
    }
    const created = await api.call('POST', '/api/developer/keys', {
      token: admin.token,
      body: { name: 'Team bot', team: true },
    });
    expect(created.status).toBe(201);
    return { owner, admin, member, key: created.body.secret as string };
  }

  it('never reach the chat history of the person who created them, before or after they leave', async () => {
    const { admin, key } = await team();
    const created = await api.call('POST', '/api/chat/sessions', {
      token: admin.token,
      body: { personaId: 'kasa', title: 'Admin’s private notes' },
    });
    expect(created.status).toBe(201);
    const mine = created.body.id as string;

    const probe = async () => {
      const list = await api.call('GET', '/api/chat/sessions', { token: key });
      expect(list.status).toBe(200);
      expect(list.text).not.toContain(mine);
      expect((await api.call('GET', `/api/chat/sessions/${mine}`, { token: key })).status).toBe(404);
    };
    await probe();

    // What the key creates belongs to the team, so every holder of the key sees it, and the admin's own token does not.
    const teamSession = await api.call('POST', '/api/chat/sessions', {
      token: key,
      body: { personaId: 'kasa', title: 'Team' },
    });
    expect(teamSession.status).toBe(201);
    expect((await api.call('GET', `/api/chat/sessions/${teamSession.body.id}`, { token: admin.token })).status).toBe(
      404,
    );

    expect((await api.call('DELETE', `/api/developer/team/members/${admin.id}`, { token: admin.token })).status).toBe(
      204,
    );
    await probe();
  });

  it('run on the team’s plan: they lose Enterprise with the team, not with the person who created them', async () => {
    const { owner, admin, key } = await team();
    const persona = (name: string) =>
      api.call('POST', '/api/personas', {
        token: key,
        body: { name, expertise: 'Invoices', systemPrompt: 'You file.' },
      });
    expect((await persona('Clerk One')).status).toBe(201);

    // The creator's own plan is not the key's.
    await setTier(admin.id, 'pro', 'free');
    expect((await persona('Clerk Two')).status).toBe(201);

    // The team's plan is: the owner moves to Free, and the key follows at once.
    await setTier(owner.id, 'free', 'enterprise');
    await eventually(async () => (await persona('Clerk Three')).status === 403, {
      timeoutMs: 3_000,
      what: 'the team key refused an Enterprise feature',
    });
  });
});
