import { Router } from 'express';

/** A named readiness check: resolves true when the dependency answers. */
export type ReadinessCheck = () => Promise<boolean> | boolean;

/**
 * GET /healthz says the process is alive (no dependency is asked, so a slow database never gets a pod restarted);
 * GET /readyz asks every dependency and answers 503 while any is not ready or the service is shutting down.
 */
export function healthRouter(options: {
  checks: Record<string, ReadinessCheck>;
  isShuttingDown?: () => boolean;
  timeoutMs?: number;
}): Router {
  const router = Router();
  const timeoutMs = options.timeoutMs ?? 2_000;

  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  router.get('/readyz', async (_req, res) => {
    const results = await runChecks(options.checks, timeoutMs);
    const shuttingDown = options.isShuttingDown?.() ?? false;
    const ready = !shuttingDown && Object.values(results).every(Boolean);
    res
      .status(ready ? 200 : 503)
      .json({ status: ready ? 'ready' : shuttingDown ? 'shutting_down' : 'not_ready', checks: results });
  });

  return router;
}

export async function runChecks(
  checks: Record<string, ReadinessCheck>,
  timeoutMs = 2_000,
): Promise<Record<string, boolean>> {
  const results: Record<string, boolean> = {};
  await Promise.all(
    Object.entries(checks).map(async ([name, check]) => (results[name] = await withTimeout(check, timeoutMs))),
  );
  return results;
}

async function withTimeout(check: ReadinessCheck, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      Promise.resolve().then(check),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), ms);
      }),
    ]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
