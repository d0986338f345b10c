import type { AuthResponse, Session, SessionPage, SessionWithMessages } from '@kasa/contracts';
import { randomUUID } from 'node:crypto';
import { isolatedRunSettings, startPlanControl, type PlanControl } from '../support/planControl';
import { startPlatform, type RunningPlatform } from '../support/platform';

/**
 * Idempotency keys through the real gateway and chat service (built output): a retried creating POST with the same
 * Idempotency-Key creates one thing and gets the first answer again, a streamed reply included.
 */
let platform: RunningPlatform;
let planControl: PlanControl;

beforeAll(async () => {
  const settings = isolatedRunSettings('idempotency');
  platform = await startPlatform(settings);
  planControl = await startPlanControl(settings);
}, 120_000);

afterAll(async () => {
  await platform?.stop();
  await planControl?.stop();
});

const url = (path: string) => `${platform.baseUrl}${path}`;

const PASSWORD = 'medaase-42';

async function register(): Promise<{ token: string; email: string }> {
  const id = randomUUID().slice(0, 8);
  const email = `idem.${id}@example.com`;
  const res = await fetch(url('/api/auth/register'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: `idem_${id}`, email, password: PASSWORD }),
  });
  expect(res.status).toBe(201);
  return { token: ((await res.json()) as AuthResponse).token, email };
}

async function signUp(): Promise<string> {
  return (await register()).token;
}

/** A new account moved to Enterprise (sold by the sales team, so set directly), signed in again to carry it. */
async function signUpEnterprise(): Promise<string> {
  const { email } = await register();
  const moved = await fetch(`${planControl.url}/plan`, {
    method: 'PUT',
    body: JSON.stringify({ email, plan: 'enterprise' }),
  });
  expect(moved.status).toBe(200);
  const login = await fetch(url('/api/auth/login'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  const body = (await login.json()) as AuthResponse;
  expect(body.user.subscriptionTier).toBe('enterprise');
  return body.token;
}

async function post(
  path: string,
  token: string,
  key: string | undefined,
  body: unknown,
  accept = 'application/json',
): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(url(path), {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept,
      ...(key === undefined ? {} : { 'idempotency-key': key }),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

async function get<T>(path: string, token: string): Promise<T> {
  const res = await fetch(url(path), { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

const newSession = { personaId: 'kasa', title: 'Retried' };

describe('POST /api/chat/sessions with an Idempotency-Key', () => {
  it('creates one session: the retry gets the same id with Idempotent-Replayed, and the list shows one', async () => {
    const token = await signUp();
    const key = randomUUID();
    const first = await post('/api/chat/sessions', token, key, newSession);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const retry = await post('/api/chat/sessions', token, key, newSession);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect((JSON.parse(retry.text) as Session).id).toBe((JSON.parse(first.text) as Session).id);

    const page = await get<SessionPage>('/api/chat/sessions', token);
    expect(page.sessions.map((s) => s.id)).toEqual([(JSON.parse(first.text) as Session).id]);
  });

  it('creates one session when the same request is sent five times at once', async () => {
    const token = await signUp();
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => post('/api/chat/sessions', token, key, newSession)),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(answers.map((a) => (JSON.parse(a.text) as Session).id)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(4);
    expect((await get<SessionPage>('/api/chat/sessions', token)).sessions).toHaveLength(1);
  });

  it('refuses the same key with another body (422), and keeps two people’s keys apart', async () => {
    const ama = await signUp();
    const kofi = await signUp();
    const key = randomUUID();
    expect((await post('/api/chat/sessions', ama, key, newSession)).status).toBe(201);
    const reused = await post('/api/chat/sessions', ama, key, { ...newSession, title: 'Something else' });
    expect(reused.status).toBe(422);
    expect(JSON.parse(reused.text)).toMatchObject({ code: 'idempotency_key_reused' });

    const theirs = await post('/api/chat/sessions', kofi, key, { ...newSession, title: 'Something else' });
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect((await get<SessionPage>('/api/chat/sessions', ama)).sessions).toHaveLength(1);
    expect((await get<SessionPage>('/api/chat/sessions', kofi)).sessions).toHaveLength(1);
  });

  it('answers 400 for a key of 256 characters and creates nothing', async () => {
    const token = await signUp();
    const res = await post('/api/chat/sessions', token, 'k'.repeat(256), newSession);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toMatchObject({ code: 'bad_request', message: expect.stringContaining('255') });
    expect((await get<SessionPage>('/api/chat/sessions', token)).sessions).toHaveLength(0);
  });
});

describe('a streamed message with an Idempotency-Key', () => {
  it('is answered once: the retry replays the whole stream and the session holds one message pair', async () => {
    const token = await signUp();
    const session = JSON.parse((await post('/api/chat/sessions', token, undefined, newSession)).text) as Session;
    const key = randomUUID();
    const message = { role: 'user', content: 'Hello Kasa, what can you do?' };
    const path = `/api/chat/sessions/${session.id}/messages`;

    const first = await post(path, token, key, message, 'text/event-stream');
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toContain('text/event-stream');
    expect(first.text).toContain('event: done');

    const retry = await post(path, token, key, message, 'text/event-stream');
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.headers.get('content-type')).toContain('text/event-stream');
    expect(retry.text).toBe(first.text);

    const stored = await get<SessionWithMessages>(`/api/chat/sessions/${session.id}`, token);
    expect(stored.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});

/**
 * The other creating POSTs: the retry gets the first answer (status and body) with Idempotent-Replayed, and one thing
 * exists afterwards, read back through the list the person sees.
 */
describe('every other creating POST with an Idempotency-Key creates one thing', () => {
  async function expectReplayed(path: string, token: string, body: unknown, status: number) {
    const key = randomUUID();
    const first = await post(path, token, key, body);
    expect(first.status).toBe(status);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const retry = await post(path, token, key, body);
    expect(retry.status).toBe(status);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(JSON.parse(retry.text)).toEqual(JSON.parse(first.text));
    return JSON.parse(first.text) as Record<string, unknown>;
  }

  it('an API key: the retry shows the same key and secret, and the list holds one', async () => {
    const token = await signUp();
    const created = await expectReplayed('/api/developer/keys', token, { name: 'Retried key' }, 201);
    expect(created.secret).toMatch(/^ksk_/);
    const { keys } = await get<{ keys: { id: string }[] }>('/api/developer/keys', token);
    expect(keys.map((k) => k.id)).toEqual([(created.key as { id: string }).id]);
  });

  it('a checkout: the retry answers with the same payment, and the person pays once', async () => {
    const token = await signUp();
    const paid = await expectReplayed('/api/billing/checkout', token, { planId: 'pro' }, 201);
    expect(paid).toMatchObject({ outcome: 'checkout', planId: 'pro', status: 'completed' });
    // A second checkout without the key finds the person already on Pro: the retry did not buy it again.
    const again = await post('/api/billing/checkout', paid.token as string, undefined, { planId: 'pro' });
    expect(again.status).toBe(200);
    expect(JSON.parse(again.text)).toMatchObject({ outcome: 'already_on_plan' });
  });

  it('an invitation: the retry answers with the same invitation, and the team shows one', async () => {
    const owner = await signUpEnterprise();
    expect((await post('/api/developer/team', owner, undefined, { name: 'Retry Devs' })).status).toBe(201);
    const invitee = await register();
    const invited = await expectReplayed(
      '/api/developer/team/invitations',
      owner,
      { email: invitee.email, role: 'member' },
      201,
    );
    const team = await get<{ invitations: { id: string; email: string }[] }>('/api/developer/team', owner);
    expect(team.invitations.map((i) => i.email)).toEqual([invitee.email]);
    expect(JSON.stringify(invited)).toContain(team.invitations[0]!.id);
  });

  it('a video job: the retry answers with the same job, and the list holds one', async () => {
    const token = await signUpEnterprise();
    const job = await expectReplayed('/api/video/generations', token, { prompt: 'Akwaaba!', language: 'en' }, 202);
    const list = await get<{ jobs: { id: string }[] }>('/api/video/generations', token);
    expect(list.jobs.map((j) => j.id)).toEqual([job.id]);
  });
});
