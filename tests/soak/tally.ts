import { percentile, round } from '../support/chatClient';
import type { RssGrowth } from './rss';

/** An error body's code and message (its request id differs every time, which would make each failure unique). */
function withoutRequestId(problem: string): string {
  try {
    const body = JSON.parse(problem) as { code?: unknown; message?: unknown };
    if (typeof body.code === 'string') return `${body.code}: ${String(body.message)}`;
  } catch {
    /* not a JSON body: kept as it is */
  }
  return problem;
}

/** What became of one request: its status (0 when none came back) and why it counts as failed, if it does. */
export interface Outcome {
  status: number;
  problem?: string;
}

/**
 * Counts every request of a run by kind, with its latency, and keeps each distinct failure (kind, status and the
 * first words of the answer) with how many times it happened, so a summary can say what broke without a flood.
 */
export class Tally {
  private readonly kinds = new Map<string, { latencies: number[]; at: number[]; failed: number }>();
  readonly failures = new Map<string, number>();
  private readonly startedAt = performance.now();

  record(kind: string, ms: number, outcome: Outcome): void {
    const entry = this.kinds.get(kind) ?? { latencies: [], at: [], failed: 0 };
    this.kinds.set(kind, entry);
    entry.latencies.push(ms);
    entry.at.push(performance.now() - this.startedAt);
    if (outcome.problem !== undefined) {
      entry.failed += 1;
      const key = `${kind}: ${outcome.status || 'network'} ${withoutRequestId(outcome.problem)}`.slice(0, 240);
      this.failures.set(key, (this.failures.get(key) ?? 0) + 1);
    }
  }

  /** Times `run`, records its outcome (a throw is a network failure) and passes its value on. */
  async time<T>(kind: string, run: () => Promise<{ outcome: Outcome; value?: T }>): Promise<T | undefined> {
    const started = performance.now();
    try {
      const { outcome, value } = await run();
      this.record(kind, performance.now() - started, outcome);
      return outcome.problem === undefined ? value : undefined;
    } catch (err) {
      const error = err as Error & { code?: string; cause?: { code?: string } };
      const problem = `${error.code ?? error.cause?.code ?? error.name}: ${error.message}`;
      this.record(kind, performance.now() - started, { status: 0, problem });
      return undefined;
    }
  }

  count(kind: string): number {
    return this.kinds.get(kind)?.latencies.length ?? 0;
  }

  get total(): number {
    return [...this.kinds.values()].reduce((sum, k) => sum + k.latencies.length, 0);
  }

  /**
   * Rows of kind, requests, failed, p50 and p99 (ms), and the p50 of the requests answered in the first and in the
   * last `fraction` of `[fromMs, toMs]` (ms since the tally was made): a cost that grows with the data stored shows
   * there long before it fails. In the order the kinds were first seen.
   */
  rows(
    fromMs: number,
    toMs: number,
    fraction: number,
  ): Array<{ kind: string; requests: number; failed: number; p50: number; p99: number; early: number; late: number }> {
    const p50 = (values: number[]) =>
      round(
        percentile(
          [...values].sort((a, b) => a - b),
          50,
        ),
      );
    const edge = (toMs - fromMs) * fraction;
    return [...this.kinds].map(([kind, { latencies, at, failed }]) => ({
      kind,
      requests: latencies.length,
      failed,
      p50: p50(latencies),
      p99: round(
        percentile(
          [...latencies].sort((a, b) => a - b),
          99,
        ),
      ),
      early: p50(latencies.filter((_, i) => at[i]! >= fromMs && at[i]! <= fromMs + edge)),
      late: p50(latencies.filter((_, i) => at[i]! >= toMs - edge && at[i]! <= toMs)),
    }));
  }

  /** Milliseconds since the tally was made (the clock of `rows`). */
  now(): number {
    return performance.now() - this.startedAt;
  }
}

/** Table cells: the first left-aligned, the others right-aligned; a percentile of no requests shows as '-'. */
const pad = (cells: Array<string | number>, widths: number[]) =>
  cells
    .map((c) => (typeof c === 'number' && Number.isNaN(c) ? '-' : String(c)))
    .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
    .join('  ');

/**
 * The requests table: one row per kind, then the total; `first p50` and `last p50` cover the requests of the first
 * and the last `fraction` of the traffic window `[fromMs, toMs]`.
 */
export function requestsTable(tally: Tally, window: { fromMs: number; toMs: number; fraction: number }): string {
  const widths = [28, 9, 7, 10, 10, 10, 10];
  const rows = tally.rows(window.fromMs, window.toMs, window.fraction);
  const failed = rows.reduce((sum, r) => sum + r.failed, 0);
  const perSecond = round(tally.total / ((window.toMs - window.fromMs) / 1_000));
  return [
    pad(['kind', 'requests', 'failed', 'p50 ms', 'p99 ms', 'first p50', 'last p50'], widths),
    ...rows.map((r) => pad([r.kind, r.requests, r.failed, r.p50, r.p99, r.early, r.late], widths)),
    pad([`total (${perSecond} req/s)`, tally.total, failed, '', '', '', ''], widths),
  ].join('\n');
}

/** The memory table: one row per process, in MB, with its growth after the warm-up and whether it is within `bound`. */
export function memoryTable(growth: Record<string, RssGrowth | string>, bound: number): string {
  const widths = [9, 9, 11, 9, 9, 8];
  const mb = (kb: number) => (kb / 1024).toFixed(1);
  return [
    pad(['process', 'start MB', 'warm-up MB', 'end MB', 'growth', ''], widths),
    ...Object.entries(growth).map(([name, g]) =>
      typeof g === 'string'
        ? `${name.padEnd(widths[0]!)}  ${g}`
        : pad(
            [
              name,
              mb(g.startKb),
              mb(g.warmUpKb),
              mb(g.endKb),
              `${(g.growth * 100).toFixed(1)} %`,
              g.growth <= bound ? 'ok' : 'GROWING',
            ],
            widths,
          ),
    ),
  ].join('\n');
}
