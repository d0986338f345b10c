import type { Doc, RollupCollection } from './collections';
import { RollupCache } from './rollupCache';

/** A collection whose reads answer when the test says (the database between a read's start and its answer). */
function slowCollection(name: string) {
  const stored = new Map<string, Doc>();
  const waiting: Array<() => void> = [];
  let reads = 0;
  const collection = {
    collectionName: name,
    findOne: async (filter: { _id: string }) => {
      reads += 1;
      const value = stored.get(filter._id) ?? null;
      await new Promise<void>((resolve) => waiting.push(resolve));
      return value;
    },
  } as unknown as RollupCollection;
  return {
    collection,
    stored,
    reads: () => reads,
    /** Lets every read under way answer (with what was stored when it started). */
    answer: async () => {
      while (waiting.length > 0) waiting.shift()!();
      await new Promise((r) => setImmediate(r));
    },
  };
}

const limits = { maxTimeMS: 1_000 };

describe('RollupCache', () => {
  it('answers a document asked again from memory, and reads it again once it was written', async () => {
    const db = slowCollection('usage_months_01');
    const cache = new RollupCache({ maxBytes: 1_000_000, ttlMs: 60_000 });
    db.stored.set('u|a|2026-11', { _id: 'u|a|2026-11', calls: 1 });

    const first = cache.findByIds(db.collection, ['u|a|2026-11'], limits);
    await db.answer();
    expect(await first).toEqual([{ _id: 'u|a|2026-11', calls: 1 }]);
    expect(await cache.findByIds(db.collection, ['u|a|2026-11'], limits)).toEqual([{ _id: 'u|a|2026-11', calls: 1 }]);
    expect(db.reads()).toBe(1);

    db.stored.set('u|a|2026-11', { _id: 'u|a|2026-11', calls: 2 });
    cache.changed(db.collection, ['u|a|2026-11']);
    const again = cache.findByIds(db.collection, ['u|a|2026-11'], limits);
    await db.answer();
    expect(await again).toEqual([{ _id: 'u|a|2026-11', calls: 2 }]);
    expect(db.reads()).toBe(2);
  });

  it('remembers that a document does not exist, until it is written', async () => {
    const db = slowCollection('recent_sessions_01');
    const cache = new RollupCache({ maxBytes: 1_000_000, ttlMs: 60_000 });
    const none = cache.findByIds(db.collection, ['new-user'], limits);
    await db.answer();
    expect(await none).toEqual([]);
    expect(await cache.findByIds(db.collection, ['new-user'], limits)).toEqual([]);
    expect(db.reads()).toBe(1);

    db.stored.set('new-user', { _id: 'new-user', s: {} });
    cache.changed(db.collection, ['new-user']);
    const created = cache.findByIds(db.collection, ['new-user'], limits);
    await db.answer();
    expect(await created).toEqual([{ _id: 'new-user', s: {} }]);
  });

  it('does not keep what a read returned when the document was written while it was under way', async () => {
    const db = slowCollection('usage_months_02');
    const cache = new RollupCache({ maxBytes: 1_000_000, ttlMs: 60_000 });
    db.stored.set('u|b|2026-11', { _id: 'u|b|2026-11', calls: 1 });

    const underWay = cache.findByIds(db.collection, ['u|b|2026-11'], limits);
    // The write lands while the read is in the database; the read still answers what it saw.
    db.stored.set('u|b|2026-11', { _id: 'u|b|2026-11', calls: 5 });
    cache.changed(db.collection, ['u|b|2026-11']);
    await db.answer();
    expect(await underWay).toEqual([{ _id: 'u|b|2026-11', calls: 1 }]);

    // The next read goes to the database and sees the write.
    const next = cache.findByIds(db.collection, ['u|b|2026-11'], limits);
    await db.answer();
    expect(await next).toEqual([{ _id: 'u|b|2026-11', calls: 5 }]);
    expect(db.reads()).toBe(2);
  });

  it('keeps documents of other collections apart, and holds no more than its size allows', async () => {
    const a = slowCollection('usage_months_03');
    const b = slowCollection('usage_months_04');
    a.stored.set('x', { _id: 'x', from: 'a', pad: 'p'.repeat(400) });
    b.stored.set('x', { _id: 'x', from: 'b', pad: 'p'.repeat(400) });
    const cache = new RollupCache({ maxBytes: 600, ttlMs: 60_000 });

    const fromA = cache.findByIds(a.collection, ['x'], limits);
    await a.answer();
    const fromB = cache.findByIds(b.collection, ['x'], limits);
    await b.answer();
    expect((await fromA)[0]?.from).toBe('a');
    expect((await fromB)[0]?.from).toBe('b');
    // Two documents of ~430 bytes do not fit in 600: the older one went.
    expect(cache.size).toBe(1);
  });
});
