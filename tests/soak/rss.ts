import fs from 'node:fs';

/** One reading of a process's resident memory. */
export interface RssSample {
  /** Milliseconds since the sampling started. */
  atMs: number;
  kb: number;
}

/** How one process's memory moved over a run (kilobytes; `growth` is a fraction: 0.1 = 10 %). */
export interface RssGrowth {
  samples: number;
  startKb: number;
  /** Median over the warm-up window (the first `warmUpFraction` of the run). */
  warmUpKb: number;
  /** Median over the last `warmUpFraction` of the run. */
  endKb: number;
  growth: number;
}

/**
 * The memory a process holds in RAM of its own making, in kilobytes: anonymous and shared-memory pages (RssAnon +
 * RssShmem of /proc/<pid>/status: heap, native buffers, SQLite's page cache), or undefined when the process is gone.
 *
 * File-backed pages (RssFile: the program's own code and the libraries it maps) are left out: they come in as code
 * paths run for the first time (the embedded database's 60 MB binary brings in 20–25 MB of code over the first
 * minutes of mixed traffic), the kernel may drop and re-read them at any time, and no leak can make them grow past
 * the size of the files. A leak is memory the process allocated and did not give back, which is what is counted.
 */
export function readRssKb(pid: number): number | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)\\s+kB$`, 'm').exec(status)?.[1] ?? NaN);
    const kb = field('RssAnon') + field('RssShmem');
    return Number.isFinite(kb) ? kb : undefined;
  } catch {
    return undefined;
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * Growth from the warm-up window's median to the last window's median. Medians, not single readings: a garbage
 * collection or a burst of requests moves one reading by megabytes, and the question is whether the level rises.
 * Throws when either window holds fewer than three samples, since two readings cannot show a level.
 */
export function rssGrowth(samples: RssSample[], warmUpFraction = 0.2): RssGrowth {
  if (samples.length === 0) throw new Error('no memory samples');
  const first = samples[0]!.atMs;
  const last = samples[samples.length - 1]!.atMs;
  const window = (last - first) * warmUpFraction;
  const warmUp = samples.filter((s) => s.atMs <= first + window).map((s) => s.kb);
  const end = samples.filter((s) => s.atMs >= last - window).map((s) => s.kb);
  if (warmUp.length < 3 || end.length < 3) {
    throw new Error(`too few memory samples to judge (${warmUp.length} in the warm-up, ${end.length} at the end)`);
  }
  const warmUpKb = median(warmUp);
  const endKb = median(end);
  return { samples: samples.length, startKb: samples[0]!.kb, warmUpKb, endKb, growth: (endKb - warmUpKb) / warmUpKb };
}

/** Reads the memory of named processes every `intervalMs`; a process that disappears is reported, not skipped. */
export class RssSampler {
  readonly samples = new Map<string, RssSample[]>();
  /** Processes that were gone at some reading, with when (ms since the start). */
  readonly vanished = new Map<string, number>();
  private timer?: NodeJS.Timeout;
  private startedAt = 0;

  constructor(private readonly pids: Record<string, number>) {
    for (const name of Object.keys(pids)) this.samples.set(name, []);
  }

  start(intervalMs: number): void {
    this.startedAt = Date.now();
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  /** Takes a last reading and stops (once: later calls do nothing). */
  stop(): void {
    if (this.timer === undefined) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.sample();
  }

  private sample(): void {
    const atMs = Date.now() - this.startedAt;
    for (const [name, pid] of Object.entries(this.pids)) {
      const kb = readRssKb(pid);
      if (kb === undefined) {
        if (!this.vanished.has(name)) this.vanished.set(name, atMs);
      } else this.samples.get(name)!.push({ atMs, kb });
    }
  }
}
