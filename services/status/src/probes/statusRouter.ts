import { Router } from 'express';
import { overallState, probeService } from './readinessProbe';

/** GET /api/status: a public summary of the platform's health, probed live. */
export function createStatusRouter(options: { services: Record<string, string>; probeTimeoutMs: number }): Router {
  const router = Router();
  router.get('/api/status', async (_req, res) => {
    const services = await Promise.all(
      Object.entries(options.services).map(([name, url]) => probeService(name, url, options.probeTimeoutMs)),
    );
    // The status service answering this request is itself up.
    services.push({ name: 'status', status: 'operational', latencyMs: 0, checks: {} });
    res.set('Cache-Control', 'no-store').json({
      status: overallState(services),
      checkedAt: new Date().toISOString(),
      services: services.map(({ name, status, latencyMs }) => ({ name, status, latencyMs })),
    });
  });
  return router;
}
