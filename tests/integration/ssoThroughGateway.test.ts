import type { AuditEntry, AuthResponse, TeamResponse, TeamSsoResponse } from '@kasa/contracts';
import { connectDatabase, createLogger } from '@kasa/service-kit';
import { eventually } from '@kasa/test-kit';
import type { Connection } from 'mongoose';
import { randomUUID } from 'node:crypto';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { signInAtIdp, startTestIdp, type TestIdp } from '../support/testIdp';

/**
 * Single sign-on per team through the built platform, against a real OpenID provider (oidc-provider in a process of
 * its own, tests/support/oidcProvider.mjs): an Enterprise team's owner sets it up; a person of the team's domain signs
 * in through the provider and their first sign-in makes their account in the team; a wrong audience, an expired ID
 * token, a replayed callback, another browser's callback and a domain that is not the team's are refused; SSO made
 * required refuses password sign-in; the audit log has it all.
 */
const run = randomUUID().slice(0, 8);
const AUTH_DB_NAME = `kasa_auth_sso_${run}`;
const AUTH_CONSUMER_NAME = `auth-test-sso-${run}`;
const OPERATOR_EMAIL = `operator.${run}@example.com`;
const DOMAIN = `acme-${run}.test`;
const CLIENT = { client_id: `kasa-${run}`, client_secret: `secret-${randomUUID()}` };
const logger = createLogger({ service: 'sso-it', version: 'test', level: 'silent' });

let platform: RunningPlatform;
let idp: TestIdp;
let authDb: Connection;
let redirectUri: string;
let owner: Person;
let operator: Person;
let teamId: string;

interface Person {
  id: string;
  email: string;
  token: string;
}

const url = (p: string) => `${platform.baseUrl}${p}`;

async function call(method: string, p: string, credential?: string, body?: unknown, cookie?: string) {
  const res = await fetch(url(p), {
    method,
    redirect: 'manual',
    headers: {
      ...(credential ? { authorization: `Bearer ${credential}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(cookie ? { cookie } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: Record<string, any> = {};
  try {
    json = text ? (JSON.parse(text) as Record<string, any>) : {};
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, body: json, text };
}

async function signUp(email: string): Promise<Person> {
  const res = await call('POST', '/api/auth/register', undefined, {
    username: `p_${randomUUID().slice(0, 8)}`,
    email,
    password: 'akwaaba-123',
  });
  expect(res.status).toBe(201);
  const auth = res.body as AuthResponse;
  return { id: auth.user.id, email, token: auth.token };
}

/**
 * One single sign-on as the web app and a browser do it: start (the `kasa_sso` cookie), the provider's login and
 * consent as `login`, then Kasa's callback (the gateway's address in place of the public origin). Answers where the
 * callback sends the browser, and what it needs to replay it.
 */
async function ssoSignIn(
  email: string,
  options: { login?: string; tamper?: 'wrong_audience' | 'expired'; dropCookie?: boolean } = {},
) {
  const started = await call('POST', '/api/auth/sso/start', undefined, { email });
  expect(started.status).toBe(200);
  const cookie = started.headers
    .getSetCookie()
    .find((line) => line.startsWith('kasa_sso='))
    ?.split(';')[0];
  expect(cookie).toBeDefined();
  expect(started.headers.getSetCookie().join()).toMatch(/HttpOnly/i);
  if (options.tamper) await idp.tamperNextIdToken(options.tamper);
  const back = await signInAtIdp(started.body.redirectUrl as string, options.login ?? email, redirectUri);
  const callbackPath = back.slice(new URL(redirectUri).origin.length);
  const answer = await call('GET', callbackPath, undefined, undefined, options.dropCookie ? undefined : cookie);
  expect(answer.status).toBe(302);
  const location = answer.headers.get('location') ?? '';
  return { location, callbackPath, cookie: cookie!, error: new URL(location, 'http://x').searchParams.get('error') };
}

function codeOf(location: string): string {
  const match = /^\/auth\/sso\/callback#code=([A-Za-z0-9_-]+)$/.exec(location);
  if (!match) throw new Error(`not a successful callback: ${location}`);
  return match[1]!;
}

async function auditEntries(query: Record<string, string>): Promise<AuditEntry[]> {
  const res = await call('GET', `/api/admin/audit?${new URLSearchParams(query)}`, operator.token);
  expect(res.status).toBe(200);
  return res.body.entries as AuditEntry[];
}

beforeAll(async () => {
  platform = await startPlatform({
    AUTH_DB_NAME,
    AUTH_CONSUMER_NAME,
    KASA_OPERATOR_EMAILS: OPERATOR_EMAIL,
    SSO_ALLOW_HTTP_ISSUERS: 'true',
  });
  // The platform's public origin (WEB_ORIGIN): what providers send people back to.
  redirectUri = `http://localhost:${platform.ports.gateway}/api/auth/sso/callback`;
  idp = await startTestIdp([{ ...CLIENT, redirect_uris: [redirectUri] }]);
  authDb = await connectDatabase({ url: process.env.MONGO_URL!, dbName: AUTH_DB_NAME, logger, maxAttempts: 3 });
  operator = await signUp(OPERATOR_EMAIL);
  owner = await signUp(`owner.${run}@owner-${run}.test`);
  await authDb.collection('users').updateOne({ email: owner.email }, { $set: { subscriptionTier: 'enterprise' } });
  const team = await call('POST', '/api/developer/team', owner.token, { name: 'Acme' });
  expect(team.status).toBe(201);
  teamId = (team.body as TeamResponse).team.id;
}, 120_000);

afterAll(async () => {
  await idp?.stop();
  await authDb?.dropDatabase().catch(() => undefined);
  await authDb?.close();
  await platform?.stop();
});

describe('single sign-on per team through the gateway', () => {
  it('lets the Enterprise owner set it up after the issuer answers, showing the secret only as set', async () => {
    const unreachable = await call('PUT', '/api/developer/team/sso', owner.token, {
      issuer: 'http://127.0.0.1:9/nobody',
      clientId: CLIENT.client_id,
      clientSecret: CLIENT.client_secret,
      domains: [DOMAIN],
    });
    expect(unreachable.status).toBe(400);
    expect(unreachable.body.message).toMatch(/issuer/i);

    const invalid = await call('PUT', '/api/developer/team/sso', owner.token, {
      issuer: idp.issuer,
      clientId: CLIENT.client_id,
      clientSecret: CLIENT.client_secret,
      domains: ['10.0.0.1'],
    });
    expect(invalid.status).toBe(400);

    const saved = await call('PUT', '/api/developer/team/sso', owner.token, {
      issuer: idp.issuer,
      clientId: CLIENT.client_id,
      clientSecret: CLIENT.client_secret,
      domains: [DOMAIN.toUpperCase()],
    });
    expect(saved.status).toBe(200);
    const { sso } = saved.body as TeamSsoResponse;
    expect(sso).toMatchObject({
      issuer: idp.issuer,
      clientId: CLIENT.client_id,
      clientSecret: 'set',
      domains: [DOMAIN],
      requireSso: false,
      redirectUri,
    });
    expect(saved.text).not.toContain(CLIENT.client_secret);
    // The secret is stored sealed, never as it was typed.
    const stored = await authDb.collection('team_sso').findOne({ _id: teamId as never });
    expect(JSON.stringify(stored)).not.toContain(CLIENT.client_secret);
    expect(stored?.clientSecretSealed).toMatch(/^v1\./);

    const read = await call('GET', '/api/developer/team/sso', owner.token);
    expect(read.status).toBe(200);
    expect((read.body as TeamSsoResponse).sso?.clientSecret).toBe('set');
  });

  it('makes the account in the team at the first sign-in, and answers like password sign-in', async () => {
    const email = `ama.${run}@${DOMAIN}`;
    const { location } = await ssoSignIn(email);
    const completed = await call('POST', '/api/auth/sso/complete', undefined, { code: codeOf(location) });
    expect(completed.status).toBe(200);
    const auth = completed.body as AuthResponse;
    expect(auth.user.email).toBe(email);
    expect(completed.headers.getSetCookie().join()).toMatch(/kasa_session=/);
    expect((await call('GET', '/api/auth/me', auth.token)).body.user.id).toBe(auth.user.id);

    const team = await call('GET', '/api/developer/team', auth.token);
    expect(team.status).toBe(200);
    expect((team.body as TeamResponse).team.id).toBe(teamId);
    expect((team.body as TeamResponse).role).toBe('member');
    // The account has no password: a password sign-in is the usual refusal.
    const password = await call('POST', '/api/auth/login', undefined, { email, password: 'akwaaba-123' });
    expect(password.status).toBe(401);
    // A member sees no settings: only the owner manages them.
    expect((await call('GET', '/api/developer/team/sso', auth.token)).status).toBe(403);

    // The second sign-in finds the same account.
    const again = await ssoSignIn(email);
    const second = await call('POST', '/api/auth/sso/complete', undefined, { code: codeOf(again.location) });
    expect((second.body as AuthResponse).user.id).toBe(auth.user.id);
  });

  it('refuses a replayed callback, a used code and a callback opened without the starting browser’s cookie', async () => {
    const email = `kwame.${run}@${DOMAIN}`;
    const first = await ssoSignIn(email);
    const code = codeOf(first.location);
    const replay = await call('GET', first.callbackPath, undefined, undefined, first.cookie);
    expect(replay.headers.get('location')).toBe('/auth/sso/callback?error=invalid_state');
    expect((await call('POST', '/api/auth/sso/complete', undefined, { code })).status).toBe(200);
    expect((await call('POST', '/api/auth/sso/complete', undefined, { code })).status).toBe(401);

    const elsewhere = await ssoSignIn(email, { dropCookie: true });
    expect(elsewhere.error).toBe('invalid_state');
  });

  it('refuses an ID token for another audience and an expired one, both signed by the provider', async () => {
    const email = `efua.${run}@${DOMAIN}`;
    expect((await ssoSignIn(email, { tamper: 'wrong_audience' })).error).toBe('wrong_audience');
    expect((await ssoSignIn(email, { tamper: 'expired' })).error).toBe('token_expired');
    // Neither made an account.
    expect(await authDb.collection('users').countDocuments({ email })).toBe(0);
  });

  it('refuses a person whose verified address is not in the team’s domains, and an unverified address', async () => {
    const outsider = await ssoSignIn(`yaw.${run}@${DOMAIN}`, { login: `yaw.${run}@elsewhere-${run}.test` });
    expect(outsider.error).toBe('domain_not_in_team');
    const unverified = await ssoSignIn(`abena.${run}@${DOMAIN}`, { login: `unverified.abena@${DOMAIN}` });
    expect(unverified.error).toBe('email_not_verified');
    expect(await authDb.collection('users').countDocuments({ email: `yaw.${run}@elsewhere-${run}.test` })).toBe(0);
  });

  it('answers 404 to an address whose domain has no single sign-on', async () => {
    const res = await call('POST', '/api/auth/sso/start', undefined, { email: `kofi@nobody-${run}.test` });
    expect(res.status).toBe(404);
  });

  it('refuses password sign-in and registration for the domain once SSO is required', async () => {
    const member = await signUp(`esi.${run}@${DOMAIN}`);
    const required = await call('PUT', '/api/developer/team/sso', owner.token, {
      issuer: idp.issuer,
      clientId: CLIENT.client_id,
      domains: [DOMAIN],
      requireSso: true,
    });
    expect(required.status).toBe(200);
    expect((required.body as TeamSsoResponse).sso).toMatchObject({ requireSso: true, clientSecret: 'set' });

    const login = await call('POST', '/api/auth/login', undefined, { email: member.email, password: 'akwaaba-123' });
    expect(login.status).toBe(403);
    expect(login.body.details).toEqual({ reason: 'sso_required' });
    expect(login.body.message).toMatch(/Sign in with your organisation \(SSO\)/);
    const register = await call('POST', '/api/auth/register', undefined, {
      username: `p_${run}`,
      email: `new.${run}@${DOMAIN}`,
      password: 'akwaaba-123',
    });
    expect(register.status).toBe(403);

    // SSO still signs the same person in (the kept secret still works), and joins the team.
    const sso = await ssoSignIn(member.email);
    const completed = await call('POST', '/api/auth/sso/complete', undefined, { code: codeOf(sso.location) });
    expect((completed.body as AuthResponse).user.id).toBe(member.id);
  });

  it('records the settings, sign-ins and refusals in the audit log, and removal gives the domain back', async () => {
    const removed = await call('DELETE', '/api/developer/team/sso', owner.token);
    expect(removed.status).toBe(204);
    expect((await call('POST', '/api/auth/sso/start', undefined, { email: `ama.${run}@${DOMAIN}` })).status).toBe(404);

    const target = `team:${teamId}`;
    const settings = await eventually(
      async () => {
        const entries = await auditEntries({ target });
        return entries.some((e) => e.action === 'sso.removed') && entries;
      },
      { timeoutMs: 10_000 },
    );
    const configured = settings.filter((e) => e.action === 'sso.configured');
    expect(configured).toHaveLength(2);
    expect(configured.every((e) => e.actorId === owner.id)).toBe(true);
    expect(configured.map((e) => e.details.secretChanged).sort()).toEqual([false, true]);
    expect(JSON.stringify(settings)).not.toContain(CLIENT.client_secret);

    const failures = await eventually(
      async () => {
        const entries = await auditEntries({ action: 'sign_in.failed' });
        const reasons = entries.map((e) => e.details.reason);
        return (
          [
            'sso_wrong_audience',
            'sso_token_expired',
            'sso_invalid_state',
            'sso_domain_not_in_team',
            'sso_required',
          ].every((r) => reasons.includes(r)) && entries
        );
      },
      { timeoutMs: 10_000 },
    );
    expect(failures.filter((e) => e.details.method === 'sso').length).toBeGreaterThanOrEqual(5);
    const successes = await auditEntries({ action: 'sign_in.succeeded' });
    expect(successes.some((e) => e.details.method === 'sso')).toBe(true);
  });
});
