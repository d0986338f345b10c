import { connectDatabase, createLogger } from '@kasa/service-kit';
import type { Collection, Connection } from 'mongoose';

// The limits (concurrent replies, attachment allowance, quotas) are conditional updates that the database must apply
// in one step. MongoDB does; the embedded FerretDB does with scripts/ferretdb-patches/0006. These run against the
// database the tests run on (the embedded one unless MONGO_URL names another), through the same driver the services
// use, with many updates of one document in flight at once.
const logger = createLogger({ service: 'embedded-db-atomicity-it', version: 'test', level: 'silent' });
const SIMULTANEOUS = 60;

let db: Connection;
interface Counter {
  _id: string;
  name?: string;
  count?: number;
  slots?: string[];
}

let counters: Collection<Counter>;
let jobs: Collection;

beforeAll(async () => {
  db = await connectDatabase({ url: process.env.MONGO_URL!, dbName: `kasa_atomicity_${process.pid}`, logger });
  counters = db.collection<Counter>('counters');
  jobs = db.collection('jobs');
});
afterAll(async () => {
  await db.dropDatabase().catch(() => undefined);
  await db.close();
});

const all = <T>(make: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: SIMULTANEOUS }, (_, i) => make(i)));

describe('conditional updates on the database the platform runs on', () => {
  it('"add one while fewer than ten" by _id: exactly ten of 60 simultaneous updates match', async () => {
    await counters.insertOne({ _id: 'limit', count: 0 });
    const results = await all(() => counters.updateOne({ _id: 'limit', count: { $lt: 10 } }, { $inc: { count: 1 } }));
    expect(results.filter((r) => r.modifiedCount === 1)).toHaveLength(10);
    expect(await counters.findOne({ _id: 'limit' })).toMatchObject({ count: 10 });
  });

  it('loses no $inc when the filter is not an _id (the whole collection takes turns)', async () => {
    await counters.insertOne({ _id: 'by-name-doc', name: 'by-name', count: 0 });
    await all(() => counters.updateOne({ name: 'by-name' }, { $inc: { count: 1 } }));
    expect(await counters.findOne({ name: 'by-name' })).toMatchObject({ count: SIMULTANEOUS });
  });

  it('an array bounded by a condition on its length never passes the bound ($push while slot 3 is empty)', async () => {
    await counters.insertOne({ _id: 'slots', slots: [] });
    const results = await all((i) =>
      counters.updateOne({ _id: 'slots', 'slots.2': { $exists: false } }, { $push: { slots: `s${i}` } }),
    );
    expect(results.filter((r) => r.modifiedCount === 1)).toHaveLength(3);
    expect((await counters.findOne({ _id: 'slots' }))?.slots).toHaveLength(3);
  });

  it('findOneAndUpdate hands each queued job to one claimant only', async () => {
    await jobs.insertMany(Array.from({ length: 20 }, (_, i) => ({ n: i, state: 'queued' })));
    const claimed = await all((i) =>
      jobs.findOneAndUpdate({ state: 'queued' }, { $set: { state: 'taken', by: i } }, { returnDocument: 'after' }),
    );
    const taken = claimed.filter((doc) => doc !== null).map((doc) => doc!.n as number);
    expect(taken).toHaveLength(20);
    expect(new Set(taken).size).toBe(20);
    expect(await jobs.countDocuments({ state: 'queued' })).toBe(0);
  });
});
