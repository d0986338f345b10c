import { connectDatabase, createLogger } from '@kasa/service-kit';
import { unique } from '@kasa/test-kit';
import type { Connection } from 'mongoose';
import {
  LEGACY_SHARDS,
  mergeLegacyShards,
  SHARDS,
  shardOf,
  statusCollections,
  userHash,
  type Doc,
} from '../src/rollups/collections';

/**
 * A database written by a release that split per-person rollups into 512 shards: after the start-up merge, every
 * person's month documents and session list are where this release reads them, and nothing is left behind.
 */
const logger = createLogger({ service: 'status-legacy-shards-test', version: 'test', level: 'silent' });

let db: Connection;

beforeAll(async () => {
  db = await connectDatabase({
    url: process.env.MONGO_URL!,
    dbName: `kasa_status_legacy_${unique()}`,
    logger,
    maxAttempts: 3,
  });
});

afterAll(async () => {
  await db?.dropDatabase();
  await db?.close();
});

const legacyName = (family: string, userId: string) =>
  `${family}_${String(userHash(userId) % LEGACY_SHARDS).padStart(2, '0')}`;

/** User ids whose old shard was beyond the new ones (their documents must move) and one whose old shard stays. */
function people(): { moving: string[]; staying: string } {
  const moving: string[] = [];
  let staying: string | undefined;
  for (let i = 0; moving.length < 6 || !staying; i += 1) {
    const id = `user-${unique()}-${i}`;
    if (userHash(id) % LEGACY_SHARDS >= SHARDS) moving.push(id);
    else staying ??= id;
  }
  return { moving: moving.slice(0, 6), staying: staying! };
}

const monthDoc = (userId: string, calls: number): Doc => ({
  _id: `u|${userId}|2026-11`,
  userId,
  month: '2026-11',
  days: { '28': { calls, errors: 0 } },
});

it('moves every document of the old shards into the person’s shard, keeps what is there, and drops the old shards', async () => {
  const raw = db.db!;
  const { moving, staying } = people();
  for (const [i, userId] of moving.entries()) {
    await raw.collection<Doc>(legacyName('usage_months', userId)).insertOne(monthDoc(userId, i + 1));
    await raw
      .collection<Doc>(legacyName('recent_sessions', userId))
      .insertOne({ _id: userId, sessions: [{ id: `s-${i}`, title: 'Hello', messages: i }] });
  }
  // Shards below SHARDS keep their names: their people's documents are already in place.
  await raw.collection<Doc>(legacyName('usage_months', staying)).insertOne(monthDoc(staying, 99));
  // A merge cut short after copying one document: the copy (here written since, with a higher count) is kept.
  const [first] = moving;
  const collections = statusCollections(db);
  await collections.usage(first!).insertOne(monthDoc(first!, 500));

  const moved = await mergeLegacyShards(raw);
  expect(moved).toBe(moving.length * 2 - 1);

  for (const [i, userId] of moving.entries()) {
    const month = await collections.usage(userId).findOne({ _id: `u|${userId}|2026-11` });
    expect(month?.days).toEqual({ '28': { calls: userId === first ? 500 : i + 1, errors: 0 } });
    const sessions = await collections.sessions(userId).findOne({ _id: userId });
    expect(sessions?.sessions).toEqual([{ id: `s-${i}`, title: 'Hello', messages: i }]);
  }
  expect((await collections.usage(staying).findOne({ _id: `u|${staying}|2026-11` }))?.days).toEqual({
    '28': { calls: 99, errors: 0 },
  });

  const names = (await raw.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
  const shardNumbers = names
    .map((name) => /^(?:usage_months|recent_sessions)_(\d+)$/.exec(name)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number);
  expect(shardNumbers.length).toBeGreaterThan(0);
  expect(Math.max(...shardNumbers)).toBeLessThan(SHARDS);
  expect(shardOf(staying)).toBe(userHash(staying) % LEGACY_SHARDS);

  // Once done, a start-up finds nothing to move.
  expect(await mergeLegacyShards(raw)).toBe(0);
});
