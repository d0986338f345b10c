import { randomUUID } from 'node:crypto';
import { call, deleteRedisKeys, startHarness, startSecondGateway, type Harness, type Reply } from './harness';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0';

let h: Harness;
let second: { url: string; stop: () => Promise<void> } | undefined;
const users: string[] = [];
let sessionsCreated = 0;
let failuresLeft = 0;

/**
 * Two gateway instances keeping idempotency keys in the same Redis: this process's, and a second one started from
 * the build (express-gateway allows one gateway per process).
 */
beforeAll(async () => {
  h = await startHarness({ REDIS_URL });
  h.services.chat.route('/api/chat/sessions', (_req, res, body) => {
    if (failuresLeft > 0) {
      failuresLeft--;
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'down', code: 'upstream_unavailable', requestId: 'r' }));
      return;
    }
    sessionsCreated++;
    const id = randomUUID();
    // Slow enough for a duplicate on the other instance to arrive while the first runs.
    setTimeout(() => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id, title: JSON.parse(body.toString()).title }));
    }, 300);
  });
  second = await startSecondGateway(h, { REDIS_URL });
}, 30_000);

afterAll(async () => {
  await second?.stop();
  await h?.stop();
  await deleteRedisKeys(
    REDIS_URL,
    users.flatMap((user) => [`kasa:idempotency:{${user}}:*`, `kasa:quota:{${user}}:*`]),
  );
});

function newToken(): string {
  const sub = randomUUID();
  users.push(sub);
  return h.keys.token({ sub });
}

function createSession(base: string, token: string, key: string, title = 'Hi'): Promise<Reply> {
  return call(`${base}/api/chat/sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify({ title }),
  });
}

describe('idempotency keys in Redis, shared by two gateway instances', () => {
  it('creates once when the same request reaches both instances at the same time', async () => {
    const token = newToken();
    const key = randomUUID();
    const before = sessionsCreated;
    const answers = await Promise.all([
      createSession(h.url, token, key),
      createSession(second!.url, token, key),
      createSession(second!.url, token, key),
    ]);
    expect(sessionsCreated).toBe(before + 1);
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    expect(new Set(answers.map((a) => a.json<{ id: string }>().id)).size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(2);
  });

  it('replays on one instance what the other answered, and refuses another body there with 422', async () => {
    const token = newToken();
    const key = randomUUID();
    const first = await createSession(h.url, token, key);
    const replayed = await createSession(second!.url, token, key);
    expect(replayed.status).toBe(201);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.json()).toEqual(first.json());
    const reused = await createSession(second!.url, token, key, 'Another title');
    expect(reused.status).toBe(422);
    expect(reused.json()).toMatchObject({ code: 'idempotency_key_reused' });
  });

  it('keeps two people’s keys apart across instances', async () => {
    const key = randomUUID();
    const mine = await createSession(h.url, newToken(), key);
    const theirs = await createSession(second!.url, newToken(), key);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json<{ id: string }>().id).not.toBe(mine.json<{ id: string }>().id);
  });

  it('does not record a 5xx: the retry on the other instance runs again', async () => {
    const token = newToken();
    const key = randomUUID();
    failuresLeft = 1;
    const before = sessionsCreated;
    expect((await createSession(h.url, token, key)).status).toBe(503);
    const retried = await createSession(second!.url, token, key);
    expect(retried.status).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(sessionsCreated).toBe(before + 1);
  });
});
