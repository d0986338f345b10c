import type { PlatformStatusResponse } from '@kasa/contracts';
import { Router } from 'express';
import type { DashboardHealth } from '../queries/queryLimits';
import { overallState, probeService, type ProbeResult } from './readinessProbe';

/** How long one round of probes answers GET /api/status before the next round is made. */
const PROBE_CACHE_MS = 2_000;

/**
 * GET /api/status: a public summary of the platform's health. Each service's /readyz is probed at most once per
 * PROBE_CACHE_MS whatever the number of callers (concurrent callers share one round of probes), so the public
 * endpoint never multiplies work. The status service itself is `operational` only while it can answer its
 * dashboards: a dashboard read that timed out or failed in the last minute makes it `degraded`.
 */
export function createStatusRouter(options: {
  services: Record<string, string>;
  probeTimeoutMs: number;
  health?: DashboardHealth;
}): Router {
  const router = Router();
  let cached: { at: number; results: ProbeResult[] } | undefined;
  let inFlight: Promise<ProbeResult[]> | undefined;
  const probes = async (): Promise<ProbeResult[]> => {
    if (cached && Date.now() - cached.at < PROBE_CACHE_MS) return cached.results;
    inFlight ??= Promise.all(
      Object.entries(options.services).map(([name, url]) => probeService(name, url, options.probeTimeoutMs)),
    )
      .then((results) => {
        cached = { at: Date.now(), results };
        return results;
      })
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  };

  router.get('/api/status', async (_req, res) => {
    const services = [...(await probes())];
    services.push({
      name: 'status',
      status: options.health && !options.health.isHealthy() ? 'degraded' : 'operational',
      latencyMs: 0,
      checks: {},
    });
    const body: PlatformStatusResponse = {
      status: overallState(services),
      checkedAt: new Date(cached?.at ?? Date.now()).toISOString(),
      services: services.map(({ name, status, latencyMs }) => ({ name, status, latencyMs })),
    };
    res.set('Cache-Control', 'no-store').json(body);
  });
  return router;
}
