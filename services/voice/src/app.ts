import { createServiceApp, type RuntimeAppDeps } from '@kasa/service-kit';
import { Router, type Express } from 'express';

/** The voice service's HTTP app. Speech, languages, translation, geo and video routes mount here. */
export function createApp(deps: RuntimeAppDeps): Express {
  return createServiceApp({ ...deps, routes: [Router()] });
}
