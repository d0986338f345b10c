import type { AuthResponse, Session, SessionPage, SessionWithMessages } from '@kasa/contracts';
import { randomUUID } from 'node:crypto';
import { startPlatform, type RunningPlatform } from '../support/platform';

/**
 * Idempotency keys through the real gateway and chat service (built output): a retried creating POST with the same
 * Idempotency-Key creates one thing and gets the first answer again, a streamed reply included.
 */
let platform: RunningPlatform;

beforeAll(async () => {
  platform = await startPlatform();
}, 120_000);

afterAll(async () => {
  await platform?.stop();
});

const url = (path: string) => `${platform.baseUrl}${path}`;

async function signUp(): Promise<string> {
  const id = randomUUID().slice(0, 8);
  const res = await fetch(url('/api/auth/register'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: `idem_${id}`, email: `idem.${id}@example.com`, password: 'medaase-42' }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as AuthResponse).token;
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
