/**
 * Request durations as a histogram in the service rollups (`s.<service>.latency.<bucket>` of each minute and hour
 * bucket), so that a percentile is read from a few counters instead of from stored requests. Each bucket counts the
 * calls that took at most its bound (ms) and more than the bound before it; the last one counts the rest.
 */
export const LATENCY_BOUNDS_MS = [5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 60_000] as const;
const OVER = `gt${LATENCY_BOUNDS_MS.at(-1)!}`;

/** The field name of the bucket a duration falls in: `le50` (over 25 and up to 50 ms), ..., `gt60000`. */
export function latencyBucket(durationMs: number): string {
  const bound = LATENCY_BOUNDS_MS.find((b) => durationMs <= b);
  return bound === undefined ? OVER : `le${bound}`;
}

/**
 * The `quantile` (0.95) of the durations counted in `histogram` (bucket name → calls), interpolated linearly within
 * its bucket: exact to the bucket, as Prometheus estimates it. A duration past the last bound is reported as that
 * bound. null without calls.
 */
export function latencyQuantile(histogram: Record<string, number>, quantile: number): number | null {
  const counts = [...LATENCY_BOUNDS_MS.map((b) => histogram[`le${b}`] ?? 0), histogram[OVER] ?? 0];
  const total = counts.reduce((sum, n) => sum + n, 0);
  if (total === 0) return null;
  const rank = quantile * total;
  let below = 0;
  for (let i = 0; i < counts.length; i += 1) {
    const n = counts[i]!;
    if (n > 0 && below + n >= rank) {
      const upper = LATENCY_BOUNDS_MS[i];
      if (upper === undefined) return LATENCY_BOUNDS_MS.at(-1)!;
      const lower = i === 0 ? 0 : LATENCY_BOUNDS_MS[i - 1]!;
      return Math.round((lower + ((upper - lower) * (rank - below)) / n) * 10) / 10;
    }
    below += n;
  }
  return LATENCY_BOUNDS_MS.at(-1)!;
}
