/** Every read gets a time limit on the real embedded database, unless the query sets its own. */
import { unique } from '@kasa/test-kit';
import pino from 'pino';
import { Schema, type Connection } from 'mongoose';
import { connectDatabase, DEFAULT_QUERY_TIME_LIMIT_MS } from '../src/db';

let db: Connection;
const seen: Array<number | undefined> = [];

beforeAll(async () => {
  db = await connectDatabase({
    url: process.env.MONGO_URL!,
    dbName: `kasa_test_limits_${unique()}`,
    logger: pino({ level: 'silent' }),
    maxAttempts: 3,
  });
});

afterAll(async () => {
  await db.dropDatabase().catch(() => undefined);
  await db.close();
});

function model() {
  const schema = new Schema({ name: String, n: Number });
  // Registered before the model is compiled, so it sees the options the connection's plugin has set.
  schema.post(['find', 'countDocuments'], function () {
    seen.push(this.getOptions().maxTimeMS as number | undefined);
  });
  return db.model(`Thing${unique()}`, schema);
}

describe('query time limits', () => {
  it('gives a query without its own limit the default, and keeps a limit the query sets', async () => {
    const Thing = model();
    await Thing.create([
      { name: 'a', n: 1 },
      { name: 'b', n: 2 },
    ]);
    seen.length = 0;
    expect(await Thing.find({ n: { $gte: 1 } }).lean()).toHaveLength(2);
    expect(await Thing.countDocuments({ n: 2 }).maxTimeMS(750)).toBe(1);
    expect(seen).toEqual([DEFAULT_QUERY_TIME_LIMIT_MS, 750]);
  });

  it('sends the limit with aggregations too, and the embedded database accepts it', async () => {
    const Thing = model();
    await Thing.create([
      { name: 'a', n: 1 },
      { name: 'a', n: 2 },
    ]);
    const pipeline = Thing.aggregate<{ _id: string; total: number }>([
      { $group: { _id: '$name', total: { $sum: 1 } } },
    ]);
    const rows = await pipeline;
    expect(pipeline.options.maxTimeMS).toBe(DEFAULT_QUERY_TIME_LIMIT_MS);
    expect(rows).toEqual([{ _id: 'a', total: 2 }]);
  });
});
