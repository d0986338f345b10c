import type { ServiceWindowFigures } from '@kasa/contracts';
import { hourOf, minuteOf } from '../rollups/buckets';
import type { Doc, RollupCollection } from '../rollups/collections';
import { latencyQuantile } from '../rollups/latency';
import type { ReadLimits } from '../queries/queryLimits';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/** One service's counters summed over some buckets of `service_rollups`. */
export interface WindowSums {
  calls: number;
  clientErrors: number;
  errors: number;
  durationMs: number;
  latency: Record<string, number>;
}

const empty = (): WindowSums => ({ calls: 0, clientErrors: 0, errors: 0, durationMs: 0, latency: {} });

/** Adds `from` into `into`. */
export function addSums(into: WindowSums, from: Partial<WindowSums>): WindowSums {
  into.calls += from.calls ?? 0;
  into.clientErrors += from.clientErrors ?? 0;
  into.errors += from.errors ?? 0;
  into.durationMs += from.durationMs ?? 0;
  for (const [bucket, n] of Object.entries(from.latency ?? {})) into.latency[bucket] = (into.latency[bucket] ?? 0) + n;
  return into;
}

/** The figures the operators see: calls, 4xx, 5xx, mean and 95th-percentile latency. */
export function windowFigures(sums: WindowSums | undefined): ServiceWindowFigures {
  const s = sums ?? empty();
  return {
    requests: s.calls,
    clientErrors: s.clientErrors,
    serverErrors: s.errors,
    averageMs: s.calls > 0 ? Math.round((s.durationMs / s.calls) * 10) / 10 : null,
    p95Ms: latencyQuantile(s.latency, 0.95),
  };
}

/**
 * Per service, the gateway's answered calls of the last hour (the current UTC minute and the 59 before it, from the
 * minute buckets) and of the last 24 hours (the current UTC hour and the 23 before it, as the status page counts
 * them): 84 bucket documents at most, of a collection that holds about 170 (its retention), in one query.
 */
export async function serviceWindows(
  services: RollupCollection,
  now: Date,
  limits: ReadLimits,
): Promise<{ lastHour: Map<string, WindowSums>; lastDay: Map<string, WindowSums> }> {
  const minutes = Array.from({ length: 60 }, (_, i) => `m|${minuteOf(now.getTime() - i * MINUTE_MS)}`);
  const hours = Array.from({ length: 24 }, (_, i) => `h|${hourOf(now.getTime() - i * HOUR_MS)}`);
  const docs = (await services
    .find({ _id: { $in: [...minutes, ...hours] } }, { maxTimeMS: limits.maxTimeMS, signal: limits.signal })
    .toArray()) as Doc[];
  const sum = (ids: Set<string>) => {
    const out = new Map<string, WindowSums>();
    for (const doc of docs) {
      if (!ids.has(doc._id)) continue;
      for (const [service, figures] of Object.entries((doc.s ?? {}) as Record<string, Partial<WindowSums>>))
        out.set(service, addSums(out.get(service) ?? empty(), figures));
    }
    return out;
  };
  return { lastHour: sum(new Set(minutes)), lastDay: sum(new Set(hours)) };
}
