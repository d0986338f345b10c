import { StuckConnectionWatch } from './db';

const DISCONNECTED = 0;
const CONNECTED = 1;
const CONNECTING = 2;

describe('a database connection that stays disconnected', () => {
  it('is opened again once it has been disconnected for the whole period, and not before', () => {
    const watch = new StuckConnectionWatch(20_000);
    expect(watch.observe(DISCONNECTED, 0)).toBe(false);
    expect(watch.observe(DISCONNECTED, 19_999)).toBe(false);
    expect(watch.observe(DISCONNECTED, 20_000)).toBe(true);
  });

  it('is tried again a whole period after an attempt, while the database stays away', () => {
    const watch = new StuckConnectionWatch(20_000);
    watch.observe(DISCONNECTED, 0);
    expect(watch.observe(DISCONNECTED, 20_000)).toBe(true);
    expect(watch.observe(DISCONNECTED, 25_000)).toBe(false);
    expect(watch.observe(DISCONNECTED, 40_000)).toBe(true);
  });

  it('starts counting again after it was connected', () => {
    const watch = new StuckConnectionWatch(20_000);
    watch.observe(DISCONNECTED, 0);
    watch.observe(CONNECTED, 15_000);
    expect(watch.observe(DISCONNECTED, 16_000)).toBe(false);
    expect(watch.observe(DISCONNECTED, 35_000)).toBe(false);
    expect(watch.observe(DISCONNECTED, 36_000)).toBe(true);
  });

  it('is left alone while the driver is connecting', () => {
    const watch = new StuckConnectionWatch(20_000);
    watch.observe(DISCONNECTED, 0);
    expect(watch.observe(CONNECTING, 30_000)).toBe(false);
  });
});
