/**
 * Analytics and status benchmark (ARCHITECTURE.md, "Budgets": with 1,000,000 request records and 100,000 messages
 * stored, every analytics and status call p99 ≤ 200 ms), against the real platform on the embedded database.
 *
 * Seeding: a bulk loader writes exactly what the status service's event path writes — it runs the service's own
 * `rollupUpdates`, `sessionUpdates` and `messageUpdates` (services/status/dist) over 1,000 generated
 * `gateway.request.completed` batches of 1,000 requests and 100,000 `chat.message.created` events, applies the
 * resulting `$inc`/`$max`/`$set` updates to documents in memory, and inserts the final documents plus the raw ids the
 * handlers keep (batch ids, message and session ids) in a few bulk inserts. Sessions keep the newest 100 per person,
 * as the service's trimming does. The requests spread over the last 90 days: a fifth from one heavy user (half of
 * them with an API key), the rest from the other signed-up users and 5,000 more people who never sign in here.
 *
 * Measured through the gateway: first, rounds of 20 concurrent dashboard calls of 20 people whose figures nobody has
 * read yet (so that the status service's RollupCache holds none of them: every read goes to the database); then
 * p50/p99 of every analytics and status call for many users and for the heavy one (the first call of each person
 * reads the database, the next ones mostly memory); then rounds of 20 concurrent dashboard calls of people read
 * before (every one must answer 200).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { percentile, round } from '../support/chatClient';
import { startPlatform, type RunningPlatform } from '../support/platform';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startEmbeddedMongo } = require('../../scripts/embedded-mongo') as {
  startEmbeddedMongo: (o: { dataDir: string }) => Promise<{ url: string; stop: () => Promise<void> }>;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { MongoClient } = require('mongodb') as typeof import('mongodb');
const STATUS_DIST = path.resolve(__dirname, '../../services/status/dist');
/* eslint-disable @typescript-eslint/no-require-imports */
const { rollupUpdates } = require(
  `${STATUS_DIST}/requests/requestStore`,
) as typeof import('../../services/status/src/requests/requestStore');
const { sessionUpdates, messageUpdates } = require(
  `${STATUS_DIST}/chatActivity/chatActivityStore`,
) as typeof import('../../services/status/src/chatActivity/chatActivityStore');
const { statusCollections } = require(
  `${STATUS_DIST}/rollups/collections`,
) as typeof import('../../services/status/src/rollups/collections');
/* eslint-enable @typescript-eslint/no-require-imports */
type RollupUpdate = import('../../services/status/src/rollups/rollupWriter').RollupUpdate;

const REQUESTS = Number(process.env.BENCH_ANALYTICS_REQUESTS ?? 1_000_000);
const MESSAGES = Number(process.env.BENCH_ANALYTICS_MESSAGES ?? 100_000);
const SIGNED_UP = Number(process.env.BENCH_ANALYTICS_USERS ?? 121);
const OTHER_PEOPLE = 5_000;
const SAMPLES = Number(process.env.BENCH_ANALYTICS_SAMPLES ?? 100);
const CONCURRENT = 20;
const ROUNDS = Number(process.env.BENCH_ANALYTICS_ROUNDS ?? 10);
const DAY_MS = 86_400_000;

export interface AnalyticsBenchResult {
  seed: { requests: number; messages: number; documents: number; seconds: number };
  calls: Array<{ name: string; p50Ms: number; p99Ms: number; samples: number; failed: number }>;
  concurrent: ConcurrentFigures;
  /** The same, each call the first read of that person's figures. */
  concurrentCold: ConcurrentFigures;
}

interface ConcurrentFigures {
  calls: number;
  ok: number;
  p50Ms: number;
  p99Ms: number;
  statuses: Record<string, number>;
}

/** p50/p99 and statuses of timed calls. */
function concurrentFigures(results: Array<{ ms: number; status: number }>): ConcurrentFigures {
  const ms = results.map((r) => r.ms).sort((a, b) => a - b);
  const statuses: Record<string, number> = {};
  for (const { status } of results) statuses[status] = (statuses[status] ?? 0) + 1;
  return {
    calls: results.length,
    ok: statuses['200'] ?? 0,
    p50Ms: round(percentile(ms, 50)),
    p99Ms: round(percentile(ms, 99)),
    statuses,
  };
}

interface Person {
  userId: string;
  token: string;
  keyId?: string;
}

/** A small deterministic random source, so that two runs seed the same data. */
function random(seed = 42) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Applies one update to the in-memory document, as the database would. */
function applyUpdate(doc: Record<string, unknown>, u: RollupUpdate, created: boolean): void {
  const at = (path: string): [Record<string, unknown>, string] => {
    const parts = path.split('.');
    let node = doc;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    return [node, parts.at(-1)!];
  };
  if (created) for (const [p, v] of Object.entries(u.setOnInsert ?? {})) at(p)[0][at(p)[1]] = v;
  for (const [p, v] of Object.entries(u.set ?? {})) at(p)[0][at(p)[1]] = v;
  for (const [p, n] of Object.entries(u.inc ?? {})) {
    const [node, key] = at(p);
    node[key] = ((node[key] as number | undefined) ?? 0) + n;
  }
  for (const [p, d] of Object.entries(u.max ?? {})) {
    const [node, key] = at(p);
    if (!(node[key] instanceof Date) || (node[key] as Date) < d) node[key] = d;
  }
}

async function seed(
  mongoUrl: string,
  dbName: string,
  people: Person[],
  heavy: Person,
): Promise<AnalyticsBenchResult['seed']> {
  const started = Date.now();
  const client = await MongoClient.connect(mongoUrl);
  try {
    return await seedInto(client.db(dbName), people, heavy, started);
  } finally {
    await client.close();
  }
}

/** `target` with every count of `extra` added (and the later of two dates). */
function addInto(target: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
  for (const [key, value] of Object.entries(extra)) {
    const mine = target[key];
    if (typeof value === 'number') target[key] = ((mine as number | undefined) ?? 0) + value;
    else if (value instanceof Date) target[key] = mine instanceof Date && mine > value ? mine : value;
    else if (value && typeof value === 'object')
      target[key] = addInto((mine ?? {}) as Record<string, unknown>, value as Record<string, unknown>);
    else if (mine === undefined) target[key] = value;
  }
  return target;
}

async function seedInto(
  db: import('mongodb').Db,
  people: Person[],
  heavy: Person,
  started: number,
): Promise<AnalyticsBenchResult['seed']> {
  const collections = statusCollections({ collection: (name: string) => db.collection(name) } as never);
  const docs = new Map<string, { collection: string; doc: Record<string, unknown> }>();
  const apply = (updates: RollupUpdate[]) => {
    for (const u of updates) {
      const key = `${u.collection.collectionName}\0${u.id}`;
      let entry = docs.get(key);
      const created = !entry;
      if (!entry) docs.set(key, (entry = { collection: u.collection.collectionName, doc: { _id: u.id } }));
      applyUpdate(entry.doc, u, created);
    }
  };
  const raw: Record<string, Array<{ _id: string; at: Date }>> = { request_batches: [], status_markers: [] };
  const rnd = random();
  const now = Date.now();
  const others = Array.from({ length: OTHER_PEOPLE }, (_, i) => `bench-person-${i}`);
  const signedUp = people.filter((p) => p !== heavy);
  const routes = [
    ['chat', 'POST'],
    ['chat', 'GET'],
    ['voiceSynthesize', 'POST'],
    ['status', 'GET'],
    ['auth', 'GET'],
    ['voice', 'GET'],
  ] as const;

  process.stderr.write(`analytics bench: building ${REQUESTS} requests and ${MESSAGES} messages\n`);
  for (let b = 0; b * 1_000 < REQUESTS; b += 1) {
    const requests = Array.from({ length: Math.min(1_000, REQUESTS - b * 1_000) }, () => {
      const pick = rnd();
      const who =
        pick < 0.2
          ? heavy.userId
          : pick < 0.6
            ? signedUp[Math.floor(rnd() * signedUp.length)]!.userId
            : others[Math.floor(rnd() * others.length)]!;
      const [route, method] = routes[Math.floor(rnd() * routes.length)]!;
      const s = rnd();
      const apiKeyId = who === heavy.userId && rnd() < 0.5 ? heavy.keyId : rnd() < 0.2 ? `key-of-${who}` : undefined;
      return {
        route,
        method,
        status: s < 0.9 ? 200 : s < 0.95 ? 400 : s < 0.98 ? 429 : 500,
        durationMs: Math.round(5 + rnd() * 200),
        userId: who,
        ...(apiKeyId ? { apiKeyId } : {}),
        at: new Date(now - Math.floor(rnd() * 90 * DAY_MS)).toISOString(),
      };
    });
    apply(rollupUpdates(collections, { requests }));
    raw.request_batches!.push({ _id: randomUUID(), at: new Date(now - rnd() * 7 * DAY_MS) });
  }

  const personas = ['kasa', 'merla', 'ticha', 'massa', 'nana', 'dokta'];
  const languages = ['en', 'fr', 'sw', 'ha', 'yo', 'tw', 'ee'];
  const perSession = 10;
  for (let s = 0; s * perSession < MESSAGES; s += 1) {
    const pick = rnd();
    const userId =
      pick < 0.2
        ? heavy.userId
        : pick < 0.6
          ? signedUp[Math.floor(rnd() * signedUp.length)]!.userId
          : others[Math.floor(rnd() * others.length)]!;
    const sessionId = randomUUID();
    const personaId = personas[Math.floor(rnd() * personas.length)]!;
    const createdAt = now - Math.floor(rnd() * 90 * DAY_MS);
    apply(
      sessionUpdates(
        collections,
        { sessionId, userId, personaId, title: `Chat ${s}`, createdAt: new Date(createdAt).toISOString() },
        new Date(createdAt).toISOString(),
        true,
      ),
    );
    raw.status_markers!.push({ _id: `session:${sessionId}`, at: new Date(createdAt) });
    for (let m = 0; m < perSession && s * perSession + m < MESSAGES; m += 1) {
      const messageId = randomUUID();
      const role = m % 2 === 0 ? 'user' : 'assistant';
      const at = new Date(createdAt + m * 30_000).toISOString();
      apply(
        messageUpdates(
          collections,
          { sessionId, userId, messageId, personaId, role, language: languages[Math.floor(rnd() * languages.length)]! },
          at,
        ),
      );
      raw.status_markers!.push({ _id: `message:${messageId}`, at: new Date(at) });
    }
  }
  // What the event path holds once its clean-up has run: service minute buckets of the last 2 hours and hour buckets
  // of the last 2 days (services/status/src/retention.ts), and a person's newest 100 sessions.
  for (const [key, { collection, doc }] of docs) {
    if (collection !== 'service_rollups' || doc._id === 'last') continue;
    const keep = doc.grain === 'minute' ? 2 * 3_600_000 : 2 * DAY_MS;
    if ((doc.at as Date).getTime() < now - keep) docs.delete(key);
  }
  for (const { collection, doc } of docs.values()) {
    if (!collection.startsWith('recent_sessions')) continue;
    const entries = Object.entries(doc.s as Record<string, { createdAt?: Date }>);
    if (entries.length <= 100) continue;
    entries.sort(([, a], [, b]) => (b.createdAt?.getTime() ?? 0) - (a.createdAt?.getTime() ?? 0));
    doc.s = Object.fromEntries(entries.slice(0, 100));
  }

  const byCollection = new Map<string, Array<Record<string, unknown>>>();
  for (const { collection, doc } of docs.values())
    byCollection.set(collection, [...(byCollection.get(collection) ?? []), doc]);
  for (const [name, list] of Object.entries(raw)) byCollection.set(name, list as never);
  let documents = 0;
  process.stderr.write(
    `analytics bench: inserting ${[...byCollection.values()].reduce((n, l) => n + l.length, 0)} documents (${Math.round((Date.now() - started) / 1000)} s so far)\n`,
  );
  for (const [name, list] of byCollection) {
    for (let i = 0; i < list.length; i += 1_000) {
      const chunk = list.slice(i, i + 1_000);
      try {
        await db.collection(name).insertMany(chunk as never[], { ordered: false });
      } catch (err) {
        // The signed-up people's own calls (creating the key) were already counted by the event path: those few
        // documents get the seeded figures added to what is stored.
        const writeErrors = (err as { writeErrors?: unknown }).writeErrors;
        const list = (Array.isArray(writeErrors) ? writeErrors : [writeErrors]) as Array<{
          code?: number;
          index: number;
        }>;
        if (!list.every((e) => e?.code === 11000)) throw err;
        for (const { index } of list) {
          const doc = chunk[index]!;
          const stored = await db.collection(name).findOne({ _id: doc._id as never });
          await db.collection(name).replaceOne({ _id: doc._id as never }, addInto(doc, stored ?? {}));
        }
      }
    }
    documents += list.length;
  }
  return { requests: REQUESTS, messages: MESSAGES, documents, seconds: round((Date.now() - started) / 1000) };
}

async function signUp(platform: RunningPlatform, i: number): Promise<Person> {
  const id = `${Date.now().toString(36)}${i}`;
  const res = await fetch(`${platform.baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: `bench_${id}`, email: `bench.${id}@example.com`, password: `Kasa-${id}-pass!` }),
  });
  if (res.status !== 201) throw new Error(`sign-up answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { token: string; user: { id: string } };
  return { userId: body.user.id, token: body.token };
}

async function timedGet(
  platform: RunningPlatform,
  path: string,
  token?: string,
): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const res = await fetch(`${platform.baseUrl}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  await res.arrayBuffer();
  return { ms: performance.now() - started, status: res.status };
}

export async function runAnalyticsBench(): Promise<AnalyticsBenchResult> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-bench-analytics-'));
  let mongo: { url: string; stop: () => Promise<void> } | undefined;
  let platform: RunningPlatform | undefined;
  if (!process.env.MONGO_URL) {
    mongo = await startEmbeddedMongo({ dataDir });
    process.env.MONGO_URL = mongo.url;
  }
  const dbName = `kasa_status_bench_${randomUUID().slice(0, 8)}`;
  try {
    platform = await startPlatform({
      STATUS_DB_NAME: dbName,
      API_RATE_LIMIT_PER_MINUTE: '1000000',
      PUBLIC_RATE_LIMIT_MAX: '1000000',
      AUTH_RATE_LIMIT_MAX: '1000000',
    });
    const people: Person[] = [];
    for (let i = 0; i < SIGNED_UP; i += 1) people.push(await signUp(platform, i));
    const heavy = people[0]!;
    const key = await fetch(`${platform.baseUrl}/api/developer/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${heavy.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench', scopes: ['chat', 'voice', 'analytics'] }),
    });
    heavy.keyId = ((await key.json()) as { key: { id: string } }).key.id;

    const seeded = await seed(process.env.MONGO_URL!, dbName, people, heavy);

    // Half of the signed-up people are sampled; the other half is read only in the cold rounds.
    const others = people.slice(1);
    const many = others.slice(0, Math.ceil(others.length / 2));
    const unread = others.slice(many.length);
    const kinds: Array<{ name: string; path: (p: Person) => string; who: 'many' | 'heavy' | 'anyone' }> = [
      { name: 'analytics overview, many users', path: () => '/api/developer/analytics', who: 'many' },
      { name: 'analytics overview, heavy user', path: () => '/api/developer/analytics', who: 'heavy' },
      { name: 'usage 30 days, many users', path: () => '/api/analytics/usage?days=30', who: 'many' },
      { name: 'usage 90 days, many users', path: () => '/api/analytics/usage?days=90', who: 'many' },
      { name: 'usage 90 days, heavy user', path: () => '/api/analytics/usage?days=90', who: 'heavy' },
      {
        name: 'usage 90 days by key, heavy user',
        path: (p) => `/api/analytics/usage?days=90&keyId=${p.keyId}`,
        who: 'heavy',
      },
      { name: 'sessions, many users', path: () => '/api/analytics/sessions', who: 'many' },
      { name: 'sessions, heavy user', path: () => '/api/analytics/sessions?limit=100', who: 'heavy' },
      { name: 'services status', path: () => '/api/developer/services/status', who: 'many' },
      { name: 'public status', path: () => '/api/status', who: 'anyone' },
    ];
    // Cold: people nobody has read yet, 20 at a time, each read once (after a few calls that warm up the processes).
    for (const kind of kinds)
      await timedGet(platform, kind.path(heavy), kind.who === 'anyone' ? undefined : heavy.token);
    const perPerson = kinds.filter((k) => k.who === 'many');
    const cold: Array<{ ms: number; status: number }> = [];
    for (let start = 0; start + CONCURRENT <= unread.length; start += CONCURRENT) {
      cold.push(
        ...(await Promise.all(
          unread.slice(start, start + CONCURRENT).map((who, i) => {
            const kind = perPerson[i % perPerson.length]!;
            return timedGet(platform!, kind.path(who), who.token);
          }),
        )),
      );
    }

    const calls: AnalyticsBenchResult['calls'] = [];
    for (const kind of kinds) {
      const samples: number[] = [];
      let failed = 0;
      for (let i = 0; i < SAMPLES + 5; i += 1) {
        const who = kind.who === 'heavy' ? heavy : many[i % many.length]!;
        const { ms, status } = await timedGet(platform, kind.path(who), kind.who === 'anyone' ? undefined : who.token);
        if (status !== 200) failed += 1;
        if (i >= 5) samples.push(ms); // the first few warm up connections and JIT
      }
      samples.sort((a, b) => a - b);
      calls.push({
        name: kind.name,
        p50Ms: round(percentile(samples, 50)),
        p99Ms: round(percentile(samples, 99)),
        samples: samples.length,
        failed,
      });
    }

    const concurrent: Array<{ ms: number; status: number }> = [];
    for (let r = 0; r < ROUNDS; r += 1) {
      concurrent.push(
        ...(await Promise.all(
          Array.from({ length: CONCURRENT }, (_, i) => {
            const kind = kinds[i % kinds.length]!;
            const who = kind.who === 'heavy' ? heavy : many[(r + i) % many.length]!;
            return timedGet(platform!, kind.path(who), kind.who === 'anyone' ? undefined : who.token);
          }),
        )),
      );
    }
    return {
      seed: seeded,
      calls,
      concurrent: concurrentFigures(concurrent),
      concurrentCold: concurrentFigures(cold),
    };
  } finally {
    await platform?.stop();
    await mongo?.stop();
    if (mongo) delete process.env.MONGO_URL;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  runAnalyticsBench().then(
    (r) => console.log(JSON.stringify(r, null, 2)),
    (err) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
