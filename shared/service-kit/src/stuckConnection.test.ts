import { StuckConnectionWatch } from './db';

describe('a database connection that stays disconnected', () => {
  it('counts as stuck once it has been disconnected for the whole period, and not before', () => {
    const watch = new StuckConnectionWatch(20_000);
    expect(watch.isStuck(0)).toBe(false);
    watch.disconnected(0);
    expect(watch.isStuck(19_999)).toBe(false);
    expect(watch.isStuck(20_000)).toBe(true);
  });

  it('starts counting again after any moment connected, even one between two looks', () => {
    const watch = new StuckConnectionWatch(20_000);
    watch.disconnected(0);
    watch.connected();
    watch.disconnected(15_000);
    expect(watch.isStuck(30_000)).toBe(false);
    expect(watch.isStuck(35_000)).toBe(true);
  });

  it('keeps the first moment of a disconnection when it is heard of twice', () => {
    const watch = new StuckConnectionWatch(20_000);
    watch.disconnected(0);
    watch.disconnected(10_000);
    expect(watch.isStuck(20_000)).toBe(true);
  });

  it('is tried again a whole period after an attempt, while it stays disconnected', () => {
    const watch = new StuckConnectionWatch(20_000);
    watch.disconnected(0);
    watch.retried(20_000);
    expect(watch.isStuck(25_000)).toBe(false);
    expect(watch.isStuck(40_000)).toBe(true);
  });

  it('is never stuck while connected', () => {
    const watch = new StuckConnectionWatch(20_000);
    watch.retried(0);
    expect(watch.isStuck(100_000)).toBe(false);
  });
});
