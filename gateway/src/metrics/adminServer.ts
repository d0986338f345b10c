import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runChecks, type Logger, type ReadinessCheck, type ServiceMetrics } from '@kasa/service-kit';

export interface AdminServer {
  port: number;
  close(): Promise<void>;
}

/**
 * The gateway's private port (127.0.0.1 by default, never the public one): Prometheus metrics at GET /metrics,
 * liveness at GET /healthz, readiness at GET /readyz (503 while a check fails or the gateway is shutting down).
 * `info` adds facts to /readyz that do not decide readiness (e.g. whether the event bus is connected: the gateway
 * serves without it).
 */
export async function startAdminServer(options: {
  port: number;
  host: string;
  metrics: ServiceMetrics;
  checks: Record<string, ReadinessCheck>;
  info?: () => Record<string, unknown>;
  isShuttingDown: () => boolean;
  logger: Logger;
}): Promise<AdminServer> {
  const json = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    res.end(text);
  };

  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      json(res, 405, { message: 'Only GET', code: 'bad_request' });
      return;
    }
    if (path === '/healthz') {
      json(res, 200, { status: 'ok' });
    } else if (path === '/readyz') {
      runChecks(options.checks).then(
        (checks) => {
          const shuttingDown = options.isShuttingDown();
          const ready = !shuttingDown && Object.values(checks).every(Boolean);
          json(res, ready ? 200 : 503, {
            status: ready ? 'ready' : shuttingDown ? 'shutting_down' : 'not_ready',
            checks,
            ...(options.info ? { info: options.info() } : {}),
          });
        },
        () => json(res, 503, { status: 'not_ready' }),
      );
    } else if (path === '/metrics') {
      options.metrics.registry.metrics().then(
        (text) => {
          res.writeHead(200, { 'content-type': options.metrics.registry.contentType });
          res.end(text);
        },
        (err: unknown) => {
          options.logger.error({ err }, 'cannot collect metrics');
          json(res, 500, { message: 'Cannot collect metrics', code: 'internal_error' });
        },
      );
    } else {
      json(res, 404, { message: `No route for ${req.method} ${path}`, code: 'not_found' });
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  options.logger.info({ port, host: options.host }, 'admin server listening (metrics, health)');
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
