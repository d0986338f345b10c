import { createLogger } from '@kasa/service-kit';
import { eventually } from '@kasa/test-kit';
import { Types, type Model } from 'mongoose';
import type { ApiKeyDocument } from './apiKeyModel';
import { ApiKeyUsageRecorder } from './apiKeyUsage';

const logger = createLogger({ service: 'api-key-usage-test', version: 'test', level: 'silent' });

interface UpdateOp {
  updateOne: { filter: { _id: Types.ObjectId }; update: { $set: { lastUsedAt: Date } } };
}

/** A model whose bulk writes are recorded, and fail while `failing` is set. */
function fakeKeys() {
  const batches: UpdateOp[][] = [];
  const state = { failing: false };
  const keys = {
    bulkWrite: async (ops: UpdateOp[]) => {
      if (state.failing) throw new Error('database unavailable');
      batches.push(ops);
      return {};
    },
  } as unknown as Model<ApiKeyDocument>;
  const written = () =>
    batches.flat().map((op) => [op.updateOne.filter._id.toString(), op.updateOne.update.$set.lastUsedAt]);
  return { keys, batches, state, written };
}

const key = (lastUsedAt: Date | null = null) => ({ _id: new Types.ObjectId(), lastUsedAt });
const at = (seconds: number) => new Date(Date.UTC(2026, 6, 1, 12, 0, seconds));

describe('ApiKeyUsageRecorder', () => {
  it('writes many uses of many keys in one batch, with each key’s latest use', async () => {
    const fake = fakeKeys();
    const usage = new ApiKeyUsageRecorder({ keys: fake.keys, logger });
    const a = key();
    const b = key();
    usage.record(a, at(1));
    usage.record(b, at(2));
    usage.record(a, at(3));
    expect(fake.batches).toHaveLength(0);
    await usage.flush();
    expect(fake.batches).toHaveLength(1);
    expect(fake.written()).toEqual([
      [a._id.toString(), at(3)],
      [b._id.toString(), at(2)],
    ]);
    await usage.flush();
    expect(fake.batches).toHaveLength(1);
  });

  it('skips a key whose stored last use is under a minute old', async () => {
    const fake = fakeKeys();
    const usage = new ApiKeyUsageRecorder({ keys: fake.keys, logger });
    usage.record(key(at(0)), at(59));
    expect(usage.size).toBe(0);
    usage.record(key(at(0)), at(61));
    expect(usage.size).toBe(1);
  });

  it('keeps failed writes for the next one, within its bound, and writes the rest on close', async () => {
    const fake = fakeKeys();
    const usage = new ApiKeyUsageRecorder({ keys: fake.keys, logger, maxPending: 2 });
    const [a, b, c] = [key(), key(), key()];
    usage.record(a, at(1));
    usage.record(b, at(2));
    usage.record(c, at(3)); // beyond the bound: not recorded
    expect(usage.size).toBe(2);

    fake.state.failing = true;
    await usage.flush();
    expect(usage.size).toBe(2);
    fake.state.failing = false;
    await usage.close();
    expect(fake.written().map(([id]) => id)).toEqual([a._id.toString(), b._id.toString()]);
  });

  it('writes in the background on its own', async () => {
    const fake = fakeKeys();
    const usage = new ApiKeyUsageRecorder({ keys: fake.keys, logger, flushIntervalMs: 10 }).start();
    usage.record(key(), at(1));
    await eventually(() => fake.batches.length === 1, { what: 'the batch is written' });
    await usage.close();
  });
});
