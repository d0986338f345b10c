import { createServiceApp, type RuntimeAppDeps } from '@kasa/service-kit';
import type { Express } from 'express';
import { createStatusRouter } from './probes/statusRouter';

export interface StatusAppDeps extends RuntimeAppDeps {
  services: Record<string, string>;
  probeTimeoutMs: number;
}

export function createApp(deps: StatusAppDeps): Express {
  return createServiceApp({ ...deps, routes: [createStatusRouter(deps)] });
}
