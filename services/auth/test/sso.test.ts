import type { AuthResponse, KasaEvent, TeamResponse, TeamSsoResponse } from '@kasa/contracts';
import { EventBus, InputError, connectDatabase, createLogger, createMongoProcessedEventStore } from '@kasa/service-kit';
import { eventually, identityHeaders } from '@kasa/test-kit';
import type { Express } from 'express';
import type { Connection } from 'mongoose';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { AuthComponents } from '../src/authComponents';
import { OidcFailure, type OidcClient, type OidcIdentity, type OidcProviderSettings } from '../src/sso/oidcClient';
import { ssoDomainModel, teamSsoModel } from '../src/sso/ssoModel';
import { ssoFlowModel, ssoHandoffModel } from '../src/sso/ssoFlowModel';
import { teamModel } from '../src/teams/teamModel';
import { userModel } from '../src/users/userModel';
import { createTestAuthApp } from './authApp';

/**
 * Single sign-on's rules in the auth app (supertest, the real database and broker) with the identity provider faked
 * at the edge (the OidcClient interface): who may set it up, domains held by one team only, what a verified identity
 * becomes (a new account in the team, an existing one joining, one in another team or suspended refused, no seat
 * left), one use of each state and code, and the events. tests/integration/ssoThroughGateway.test.ts runs the same
 * against a real OpenID provider through the gateway.
 */
const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const logger = createLogger({ service: 'auth-sso-test', version: 'test', level: 'silent' });
const SSO = '/api/developer/team/sso';
const run = randomUUID().slice(0, 8);

/** The provider's side: discovery fails for issuers containing "unreachable"; the next identity is what a test sets. */
class FakeOidc implements OidcClient {
  next: OidcIdentity | OidcFailure | null = null;
  readonly checked: OidcProviderSettings[] = [];

  async check(settings: OidcProviderSettings) {
    this.checked.push(settings);
    if (settings.issuer.includes('unreachable'))
      throw new InputError('The issuer did not answer as an OpenID Connect provider.');
  }

  async authorizationUrl(settings: OidcProviderSettings, req: { state: string; nonce: string; redirectUri: string }) {
    const url = new URL(`${settings.issuer}/authorize`);
    url.searchParams.set('state', req.state);
    url.searchParams.set('redirect_uri', req.redirectUri);
    return url;
  }

  async exchange(_settings: OidcProviderSettings, callbackUrl: URL, expected: { state: string }) {
    if (callbackUrl.searchParams.get('state') !== expected.state) throw new OidcFailure('token_invalid');
    const next = this.next;
    if (!next) throw new OidcFailure('idp_error');
    if (next instanceof OidcFailure) throw next;
    return next;
  }
}

let db: Connection;
let observerDb: Connection;
let bus: EventBus;
let observer: EventBus;
let app: Express;
let components: AuthComponents;
const oidc = new FakeOidc();
const events: KasaEvent[] = [];

interface Person {
  id: string;
  email: string;
  headers: Record<string, string>;
}

async function person(email: string, tier: 'free' | 'enterprise' = 'free'): Promise<Person> {
  const res = await request(app)
    .post('/api/auth/register')
    .send({ username: `sso_${randomUUID().slice(0, 8)}`, email, password: 'akwaaba-123' });
  expect(res.status).toBe(201);
  const { user } = res.body as AuthResponse;
  if (tier !== 'free') await userModel(db).updateOne({ _id: user.id }, { subscriptionTier: tier });
  return { id: user.id, email, headers: identityHeaders({ userId: user.id, username: user.username, tier }) };
}

/** An Enterprise owner whose team signs in through the fake provider for `domain`. */
async function teamWithSso(domain: string, requireSso = false) {
  const owner = await person(`owner.${randomUUID().slice(0, 6)}@owners-${run}.test`, 'enterprise');
  const team = await request(app).post('/api/developer/team').set(owner.headers).send({ name: 'Acme' });
  expect(team.status).toBe(201);
  const saved = await request(app)
    .put(SSO)
    .set(owner.headers)
    .send({
      issuer: 'https://idp.example',
      clientId: 'kasa',
      clientSecret: 'top-secret',
      domains: [domain],
      requireSso,
    });
  expect(saved.status).toBe(200);
  return { owner, teamId: (team.body as TeamResponse).team.id };
}

/** start → the provider answers `identity` → callback; answers the callback's Location. */
async function signIn(email: string, identity: OidcIdentity | OidcFailure, options: { cookie?: string } = {}) {
  const started = await request(app).post('/api/auth/sso/start').send({ email });
  expect(started.status).toBe(200);
  const state = new URL(started.body.redirectUrl as string).searchParams.get('state')!;
  const cookie = options.cookie ?? (started.headers['set-cookie'] as unknown as string[])[0]!.split(';')[0]!;
  oidc.next = identity;
  const callback = await request(app)
    .get(`/api/auth/sso/callback?code=abc&state=${encodeURIComponent(state)}`)
    .set('Cookie', cookie);
  expect(callback.status).toBe(302);
  return { location: callback.headers.location as string, state, cookie };
}

const verified = (email: string): OidcIdentity => ({
  subject: email,
  email,
  emailVerified: true,
  name: null,
  preferredUsername: null,
});

async function complete(location: string) {
  const code = /#code=(.+)$/.exec(location)?.[1];
  expect(code).toBeDefined();
  return request(app).post('/api/auth/sso/complete').send({ code });
}

beforeAll(async () => {
  const url = process.env.MONGO_URL!;
  db = await connectDatabase({ url, dbName: `kasa_auth_sso_test_${process.pid}`, logger, maxAttempts: 3 });
  observerDb = await connectDatabase({ url, dbName: `kasa_auth_sso_obs_${process.pid}`, logger, maxAttempts: 3 });
  bus = new EventBus({ url: AMQP_URL, source: 'kasa/auth', logger });
  observer = new EventBus({
    url: AMQP_URL,
    source: 'kasa/auth-sso-test',
    logger,
    consumerName: `auth-sso-test-${run}`,
    processedEvents: createMongoProcessedEventStore(observerDb),
  });
  for (const type of ['auth.team.sso_configured', 'auth.team.sso_removed', 'auth.user.sign_in_failed'] as const)
    observer.subscribeBroadcast(type, async (event) => {
      events.push(event as KasaEvent);
    });
  await Promise.all([bus.start(), observer.start()]);
  await Promise.all(
    [userModel, teamModel, teamSsoModel, ssoDomainModel, ssoFlowModel, ssoHandoffModel].map((m) => m(db).init()),
  );
  ({ app, auth: components } = createTestAuthApp({ db, bus, logger, name: 'auth-sso-test', oidcClient: oidc }));
});

afterAll(async () => {
  await components?.apiKeyUsage.close();
  await Promise.all([bus?.close(), observer?.close()]);
  await db?.dropDatabase();
  await observerDb?.dropDatabase();
  await Promise.all([db?.close(), observerDb?.close()]);
});

describe('the team owner’s settings', () => {
  it('lets only an Enterprise team’s owner manage them', async () => {
    const free = await person(`free.${run}@free-${run}.test`);
    expect((await request(app).get(SSO).set(free.headers)).status).toBe(404);
    const { owner } = await teamWithSso(`only-owner-${run}.test`);
    // The owner's plan ended: the settings are refused, naming the plan.
    await userModel(db).updateOne({ _id: owner.id }, { subscriptionTier: 'free' });
    const refused = await request(app).get(SSO).set(owner.headers);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/Enterprise/);
  });

  it('refuses an issuer that does not answer, and a first save without a secret', async () => {
    const owner = await person(`owner2.${run}@owners-${run}.test`, 'enterprise');
    await request(app).post('/api/developer/team').set(owner.headers).send({ name: 'Beta' });
    const body = {
      issuer: 'https://unreachable.example',
      clientId: 'kasa',
      clientSecret: 's',
      domains: [`b-${run}.test`],
    };
    expect((await request(app).put(SSO).set(owner.headers).send(body)).status).toBe(400);
    const noSecret = await request(app)
      .put(SSO)
      .set(owner.headers)
      .send({ ...body, issuer: 'https://idp.example', clientSecret: undefined });
    expect(noSecret.status).toBe(400);
    expect(noSecret.body.message).toMatch(/clientSecret/);
    expect(await ssoDomainModel(db).countDocuments({ _id: `b-${run}.test` })).toBe(0);
  });

  it('refuses plain-http issuers unless allowed', async () => {
    const owner = await person(`owner3.${run}@owners-${run}.test`, 'enterprise');
    await request(app).post('/api/developer/team').set(owner.headers).send({ name: 'Gamma' });
    const res = await request(app)
      .put(SSO)
      .set(owner.headers)
      .send({ issuer: 'http://idp.example', clientId: 'kasa', clientSecret: 's', domains: [`g-${run}.test`] });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('issuer must be an https URL');
  });

  it('keeps a domain to the team that holds it: 409 naming it, and nothing claimed by the refused save', async () => {
    const taken = `taken-${run}.test`;
    await teamWithSso(taken);
    const other = await person(`owner4.${run}@owners-${run}.test`, 'enterprise');
    await request(app).post('/api/developer/team').set(other.headers).send({ name: 'Delta' });
    const fresh = `fresh-${run}.test`;
    const res = await request(app)
      .put(SSO)
      .set(other.headers)
      .send({ issuer: 'https://idp.example', clientId: 'k', clientSecret: 's', domains: [fresh, taken] });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain(taken);
    expect(await ssoDomainModel(db).countDocuments({ _id: fresh })).toBe(0);
  });

  it('keeps the stored secret when none is sent, drops domains no longer listed, and publishes each change', async () => {
    const first = `first-${run}.test`;
    const second = `second-${run}.test`;
    const { owner, teamId } = await teamWithSso(first);
    const saved = await request(app)
      .put(SSO)
      .set(owner.headers)
      .send({ issuer: 'https://idp.example', clientId: 'kasa-2', domains: [second], requireSso: true });
    expect(saved.status).toBe(200);
    expect((saved.body as TeamSsoResponse).sso).toMatchObject({ clientSecret: 'set', domains: [second] });
    expect(oidc.checked.at(-1)).toMatchObject({ clientId: 'kasa-2', clientSecret: 'top-secret' });
    expect(await ssoDomainModel(db).findById(first).lean()).toBeNull();
    expect(await ssoDomainModel(db).findById(second).lean()).toMatchObject({ teamId, requireSso: true });
    expect(JSON.stringify(saved.body)).not.toContain('top-secret');

    expect((await request(app).delete(SSO).set(owner.headers)).status).toBe(204);
    expect(await ssoDomainModel(db).countDocuments({ teamId })).toBe(0);
    const mine = await eventually(() => {
      const list = events.filter((e) => (e.data as { teamId?: string }).teamId === teamId);
      return list.length === 3 && list;
    });
    expect(mine.map((e) => e.type).sort()).toEqual([
      'auth.team.sso_configured',
      'auth.team.sso_configured',
      'auth.team.sso_removed',
    ]);
    expect(mine.map((e) => (e.data as { secretChanged?: boolean }).secretChanged)).toContain(false);
    expect(JSON.stringify(mine)).not.toContain('top-secret');
  });
});

describe('signing in', () => {
  it('makes a new person’s account in the team, with a username from the e-mail and a suffix when taken', async () => {
    const domain = `new-${run}.test`;
    const { teamId } = await teamWithSso(domain);
    await person(`kofi@other-${run}.test`).then(() =>
      userModel(db).updateOne({ email: `kofi@other-${run}.test` }, { username: 'kofi', usernameKey: 'kofi' }),
    );
    const email = `kofi@${domain}`;
    const { location } = await signIn(email, verified(email));
    const res = await complete(location);
    expect(res.status).toBe(200);
    const account = await userModel(db).findOne({ email }).lean();
    expect(account).toMatchObject({ teamId, passwordHash: null });
    expect(account!.username).toMatch(/^kofi-\d{4}$/);
    const team = await teamModel(db).findById(teamId).lean();
    expect(team!.members.find((m) => m.userId === account!._id.toString())?.role).toBe('member');
  });

  it('lets an existing account without a team join, and refuses one in another team', async () => {
    const domain = `join-${run}.test`;
    const { teamId } = await teamWithSso(domain);
    const joiner = await person(`esi@${domain}`);
    expect((await complete((await signIn(joiner.email, verified(joiner.email))).location)).status).toBe(200);
    expect((await userModel(db).findById(joiner.id).lean())!.teamId).toBe(teamId);

    const elsewhere = await person(`yaw@${domain}`, 'enterprise');
    await request(app).post('/api/developer/team').set(elsewhere.headers).send({ name: 'Own team' });
    const { location } = await signIn(elsewhere.email, verified(elsewhere.email));
    expect(location).toBe('/auth/sso/callback?error=account_in_other_team');
  });

  it('refuses a suspended account, and a newcomer past the contract’s seats (no account left behind)', async () => {
    const domain = `seats-${run}.test`;
    const { owner } = await teamWithSso(domain);
    await components.billing.grantContract(owner.id, { seats: 2, endsAt: new Date(Date.now() + 30 * 86_400_000) });
    const first = `first@${domain}`;
    expect((await complete((await signIn(first, verified(first))).location)).status).toBe(200);
    const second = `second@${domain}`;
    expect((await signIn(second, verified(second))).location).toBe('/auth/sso/callback?error=no_seats');
    expect(await userModel(db).countDocuments({ email: second })).toBe(0);

    const suspended = await person(`abena@${domain}`);
    await userModel(db).updateOne({ _id: suspended.id }, { suspendedAt: new Date() });
    expect((await signIn(suspended.email, verified(suspended.email))).location).toBe(
      '/auth/sso/callback?error=account_suspended',
    );
  });

  it('uses a state and a code once, and refuses a callback without the starting browser’s cookie', async () => {
    const domain = `once-${run}.test`;
    await teamWithSso(domain);
    const email = `ama@${domain}`;
    const first = await signIn(email, verified(email));
    const replay = await request(app)
      .get(`/api/auth/sso/callback?code=abc&state=${encodeURIComponent(first.state)}`)
      .set('Cookie', first.cookie);
    expect(replay.headers.location).toBe('/auth/sso/callback?error=invalid_state');
    expect((await complete(first.location)).status).toBe(200);
    expect((await complete(first.location)).status).toBe(401);

    const other = await signIn(email, verified(email), { cookie: 'kasa_sso=another-browser' });
    expect(other.location).toBe('/auth/sso/callback?error=invalid_state');
    expect((await request(app).get('/api/auth/sso/callback?code=abc')).headers.location).toBe(
      '/auth/sso/callback?error=invalid_state',
    );
  });

  it('says why the provider’s answer was refused, and publishes each refusal with method sso', async () => {
    const domain = `refused-${run}.test`;
    await teamWithSso(domain);
    const email = `efua@${domain}`;
    expect((await signIn(email, new OidcFailure('wrong_audience'))).location).toMatch(/error=wrong_audience$/);
    expect((await signIn(email, new OidcFailure('token_expired'))).location).toMatch(/error=token_expired$/);
    expect((await signIn(email, { ...verified(email), emailVerified: false })).location).toMatch(
      /error=email_not_verified$/,
    );
    expect((await signIn(email, verified(`efua@elsewhere-${run}.test`))).location).toMatch(/error=domain_not_in_team$/);
    const reasons = await eventually(() => {
      const mine = events.filter(
        (e) => e.type === 'auth.user.sign_in_failed' && (e.data as { email: string }).email.includes(domain),
      );
      return mine.length >= 3 && mine.map((e) => (e.data as { reason: string; method: string }).reason);
    });
    expect(reasons).toEqual(
      expect.arrayContaining(['sso_wrong_audience', 'sso_token_expired', 'sso_email_not_verified']),
    );
  });

  it('refuses password sign-in and registration for a domain that requires SSO, before any password work', async () => {
    const domain = `required-${run}.test`;
    const member = await person(`kwesi@${domain}`);
    await teamWithSso(domain, true);
    const login = await request(app).post('/api/auth/login').send({ email: member.email, password: 'wrong' });
    expect(login.status).toBe(403);
    expect(login.body).toMatchObject({ details: { reason: 'sso_required' } });
    // Refused before the throttle: many attempts never make the address wait.
    for (let i = 0; i < 6; i++) await request(app).post('/api/auth/login').send({ email: member.email, password: 'x' });
    expect((await request(app).post('/api/auth/login').send({ email: member.email, password: 'x' })).status).toBe(403);
    const register = await request(app)
      .post('/api/auth/register')
      .send({ username: `r_${run}`, email: `new@${domain}`, password: 'akwaaba-123' });
    expect(register.status).toBe(403);
  });

  it('refuses to start once the team’s plan no longer has teams', async () => {
    const domain = `lapsed-${run}.test`;
    const { owner } = await teamWithSso(domain);
    await userModel(db).updateOne({ _id: owner.id }, { subscriptionTier: 'free' });
    const res = await request(app)
      .post('/api/auth/sso/start')
      .send({ email: `ama@${domain}` });
    expect(res.status).toBe(403);
    expect(res.body.details).toMatchObject({ requiredPlan: 'enterprise' });
  });

  it('answers 404 for a domain no team signs in with', async () => {
    const res = await request(app)
      .post('/api/auth/sso/start')
      .send({ email: `x@nobody-${run}.test` });
    expect(res.status).toBe(404);
  });
});
