import { readRssKb, rssGrowth, RssSampler, type RssSample } from './rss';

/** One reading a second for `seconds`, each from `kbAt(second)`. */
const series = (seconds: number, kbAt: (second: number) => number): RssSample[] =>
  Array.from({ length: seconds + 1 }, (_, second) => ({ atMs: second * 1_000, kb: kbAt(second) }));

describe('the soak memory judgment', () => {
  it('finds a process flat when its memory only wobbles around one level after warming up', () => {
    // Climbs from 60 MB to 100 MB over the first 5 s (start-up, JIT, first heap growth), then wobbles ±5 MB.
    const samples = series(100, (s) => (s < 5 ? 60_000 + s * 8_000 : 100_000 + (s % 2 ? 5_000 : -5_000)));
    const growth = rssGrowth(samples);
    expect(growth.startKb).toBe(60_000);
    expect(growth.growth).toBeLessThan(0.1);
  });

  it('finds a leak that adds memory at a steady pace', () => {
    // 100 MB plus 0.5 MB per second: the warm-up median is ~105 MB, the end's ~145 MB.
    const growth = rssGrowth(series(100, (s) => 100_000 + s * 500));
    expect(growth.warmUpKb).toBe(105_000);
    expect(growth.endKb).toBe(145_000);
    expect(growth.growth).toBeGreaterThan(0.1);
  });

  it('is not fooled by one high reading at the end (a garbage collection not yet run)', () => {
    const samples = series(100, () => 100_000);
    samples[samples.length - 1]!.kb = 300_000;
    expect(rssGrowth(samples).growth).toBe(0);
  });

  it('refuses to judge from too few samples', () => {
    expect(() => rssGrowth(series(4, () => 100_000))).toThrow(/too few memory samples/);
    expect(() => rssGrowth([])).toThrow(/no memory samples/);
  });

  it('counts memory the process allocates (anonymous pages), not only its code', () => {
    const before = readRssKb(process.pid)!;
    const block = Buffer.alloc(64 * 1024 * 1024, 1);
    const after = readRssKb(process.pid)!;
    expect(after - before).toBeGreaterThan(48 * 1024);
    expect(block[block.length - 1]).toBe(1);
  });

  it('reads the resident memory of a live process and nothing for one that is gone', () => {
    const own = readRssKb(process.pid);
    expect(own).toBeGreaterThan(10_000);
    // Above the kernel's largest pid (2^22): never a live process.
    expect(readRssKb(4_194_305)).toBeUndefined();
    const sampler = new RssSampler({ self: process.pid, gone: 4_194_305 });
    sampler.start(60_000);
    sampler.stop();
    expect(sampler.samples.get('self')).toHaveLength(2);
    // Reported as gone at the first reading (how many ms after start depends on the machine's load).
    expect(sampler.vanished.has('gone')).toBe(true);
    expect(sampler.vanished.get('gone')).toBeLessThan(60_000);
  });
});
