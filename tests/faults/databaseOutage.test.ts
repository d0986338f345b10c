import { eventually } from '@kasa/test-kit';
import { setTimeout as sleep } from 'node:timers/promises';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { call, expectClearError, pick, register, via, type Answer } from './support/faults';
import { TcpProxy } from './support/tcpProxy';

/**
 * The database goes away (a proxy in front of the test run's MongoDB-wire server drops every connection and refuses
 * new ones) for 10 s in `npm test`, 45 s under `npm run test:faults`, while people keep using Kasa.
 */
const OUTAGE_MS = pick(10_000, 45_000);
/** A request during the outage must be answered within this (a clear error, not a hang). */
const ANSWER_WITHIN_MS = 12_000;
/** After the database is back, the services must be ready again within this, without a restart. */
/**
 * How long the services may take to find the database again: the driver's next heartbeat, then a new pool. Seconds on
 * a quiet machine; a loaded 2-core CI machine has taken over 30 s.
 */
const RECOVER_WITHIN_MS = 60_000;

let platform: RunningPlatform;
let db: TcpProxy;

beforeAll(async () => {
  const target = new URL(process.env.MONGO_URL!);
  db = await new TcpProxy(target.hostname, Number(target.port)).start();
  platform = await startPlatform({ MONGO_URL: via(process.env.MONGO_URL!, db.address) });
}, 120_000);

afterAll(async () => {
  await db?.restore();
  await platform?.stop();
  await db?.stop();
});

const ready = async (service: 'auth' | 'chat' | 'voice' | 'status') =>
  call(`http://127.0.0.1:${platform.ports[service]}`, 'GET', '/readyz', { timeoutMs: 5_000 });

/** What each service's /readyz said last, for a recovery that does not come. */
let lastReadiness = '';

async function allReady(): Promise<boolean> {
  const services = ['auth', 'chat', 'voice', 'status'] as const;
  const answers = await Promise.all(services.map(ready));
  lastReadiness = services
    .map((service, i) => `${service}: ${answers[i]!.status} ${JSON.stringify(answers[i]!.body)}`)
    .join('\n');
  return answers.every((a) => a.status === 200);
}

/** A readable failure: the answer and the last lines the platform logged. */
function explain(what: string, answer: Answer): string {
  return `${what}: ${answer.status} after ${answer.ms} ms ${JSON.stringify(answer.body)?.slice(0, 300)}\n${platform.logs.slice(-30).join('\n')}`;
}

describe('the database stopped while Kasa is in use', () => {
  it('answers clear 503s during the outage, recovers by itself, and loses no acknowledged write', async () => {
    const person = await register(platform.baseUrl, 'dbfault');
    const created: string[] = [];
    const createSession = async (title: string) => {
      const answer = await call(platform.baseUrl, 'POST', '/api/chat/sessions', {
        token: person.token,
        body: { personaId: 'kasa', title },
        timeoutMs: ANSWER_WITHIN_MS + 5_000,
      });
      if (answer.status === 201) created.push(answer.body.id as string);
      return answer;
    };
    for (let i = 0; i < 3; i++) expect((await createSession(`before ${i}`)).status).toBe(201);

    await db.cut();
    const outageEnds = Date.now() + OUTAGE_MS;
    const during: Answer[] = [];
    let round = 0;
    while (Date.now() < outageEnds - 1_000) {
      round += 1;
      const answers = await Promise.all([
        createSession(`during ${round}`),
        call(platform.baseUrl, 'GET', '/api/chat/sessions', {
          token: person.token,
          timeoutMs: ANSWER_WITHIN_MS + 5_000,
        }),
        call(platform.baseUrl, 'POST', '/api/auth/login', {
          body: { email: `nobody.${round}@example.com`, password: 'whatever-1' },
          timeoutMs: ANSWER_WITHIN_MS + 5_000,
        }),
      ]);
      during.push(...answers);
      for (const [i, answer] of answers.entries()) {
        const what = ['create a session', 'list sessions', 'sign in'][i]!;
        if (answer.ms >= ANSWER_WITHIN_MS || answer.status !== 503)
          throw new Error(explain(`${what} during the outage`, answer));
        expectClearError(answer, [503]);
      }
      for (const service of ['auth', 'chat', 'voice', 'status'] as const) {
        const readiness = await ready(service);
        if (readiness.status !== 503) throw new Error(explain(`${service} /readyz during the outage`, readiness));
        expect(readiness.body).toMatchObject({ status: 'not_ready', checks: { database: false } });
      }
      await sleep(500);
    }
    expect(during.length).toBeGreaterThan(0);
    await sleep(Math.max(0, outageEnds - Date.now()));
    await db.restore();
    const restoredAt = Date.now();

    await eventually(allReady, {
      timeoutMs: RECOVER_WITHIN_MS,
      intervalMs: 200,
      what: 'every service ready again',
      context: () =>
        [
          lastReadiness,
          'what each service heard from its database:',
          ...platform.logs.filter((line) => /database (heartbeat|disconnected|reconnected)/.test(line)).slice(-40),
          'last lines:',
          ...platform.logs.slice(-30),
        ].join('\n'),
    });
    console.log(`every service ready ${Date.now() - restoredAt} ms after the database came back`);
    for (let i = 0; i < 3; i++) {
      const answer = await createSession(`after ${i}`);
      expect(answer.status).toBe(201);
    }
    const stored = new Set<string>();
    for (let cursor: string | null = ''; cursor !== null;) {
      const page = await call(
        platform.baseUrl,
        'GET',
        `/api/chat/sessions?limit=50${cursor ? `&cursor=${cursor}` : ''}`,
        {
          token: person.token,
        },
      );
      expect(page.status).toBe(200);
      for (const session of page.body.sessions as { id: string }[]) stored.add(session.id);
      cursor = page.body.nextCursor as string | null;
    }
    expect(created.filter((id) => !stored.has(id))).toEqual([]);
    const another = await register(platform.baseUrl, 'dbfault');
    expect(another.token).toBeTruthy();
  }, 180_000);
});

describe('audio storage failing (the database stopped during speech synthesis)', () => {
  const sample = { text: 'Hello, I am Kasa. Your voice, your AI, your world.', language: 'en' };

  it('answers a clear 503 for every kind of synthesis while storage is away, and speaks again after', async () => {
    const person = await register(platform.baseUrl, 'voicefault');
    const upgrade = await call(platform.baseUrl, 'POST', '/api/billing/checkout', {
      token: person.token,
      body: { planId: 'pro' },
    });
    expect(upgrade.status).toBe(201);
    const pro = upgrade.body.token as string;
    const ownText = (n: number) => ({ text: `Fault drill number ${n}: the storage is being tested.`, language: 'en' });
    const synthesize = (body: unknown, token?: string, accept = 'application/json') =>
      call(platform.baseUrl, 'POST', '/api/voice/synthesize', {
        token,
        body,
        headers: { accept },
        timeoutMs: ANSWER_WITHIN_MS + 5_000,
      });
    expect((await synthesize(ownText(0), pro)).status).toBe(201);

    await db.cut();
    const outageEnds = Date.now() + pick(6_000, 30_000);
    let n = 0;
    while (Date.now() < outageEnds) {
      n += 1;
      for (const answer of [
        await synthesize(sample),
        await synthesize(ownText(n), pro),
        await synthesize(ownText(n), pro, 'audio/mpeg'),
      ]) {
        if (answer.ms > ANSWER_WITHIN_MS || answer.status !== 503)
          throw new Error(explain('synthesis during the outage', answer));
        expectClearError(answer, [503]);
      }
    }
    await db.restore();
    await eventually(async () => (await ready('voice')).status === 200, {
      timeoutMs: RECOVER_WITHIN_MS,
      intervalMs: 200,
      what: 'voice ready again',
    });

    const made = await synthesize(ownText(n + 1), pro);
    if (made.status !== 201) throw new Error(explain('synthesis after the outage', made));
    const audio = await fetch(`${platform.baseUrl}${made.body.audioUrl as string}`);
    expect(audio.status).toBe(200);
    expect((await audio.arrayBuffer()).byteLength).toBeGreaterThan(1_000);
    expect((await synthesize(sample)).status).toBe(201);
  }, 120_000);
});
