import type { ServiceState } from '@kasa/contracts';

export interface ProbeResult {
  name: string;
  status: ServiceState;
  latencyMs: number | null;
  checks: Record<string, boolean>;
}

/**
 * Asks a service's /readyz. Ready → operational; answering but not ready (say, its broker is away) → degraded;
 * no answer within the timeout → down.
 */
export async function probeService(name: string, baseUrl: string, timeoutMs: number): Promise<ProbeResult> {
  const started = performance.now();
  try {
    const res = await fetch(new URL('/readyz', baseUrl), { signal: AbortSignal.timeout(timeoutMs) });
    const latencyMs = Math.round(performance.now() - started);
    const body = (await res.json().catch(() => ({}))) as { checks?: Record<string, boolean> };
    return { name, status: res.ok ? 'operational' : 'degraded', latencyMs, checks: body.checks ?? {} };
  } catch {
    return { name, status: 'down', latencyMs: null, checks: {} };
  }
}

/** The worst state wins: any service down or degraded makes the platform degraded; all down makes it down. */
export function overallState(results: ProbeResult[]): ServiceState {
  if (results.length > 0 && results.every((r) => r.status === 'down')) return 'down';
  return results.every((r) => r.status === 'operational') ? 'operational' : 'degraded';
}
