import type { EgPolicy } from './types';

/**
 * express-gateway loads plugins by module path from system.config.yml, so the plugin cannot be handed its
 * dependencies as arguments. `startGateway` builds the policies (with their connections, caches and config) and
 * leaves them here just before it boots EG; the plugin's `init` takes them. One gateway per process.
 */
let pending: Array<EgPolicy<never>> | undefined;

export function providePolicies(policies: Array<EgPolicy<never>>): void {
  pending = policies;
}

export function takePolicies(): Array<EgPolicy<never>> {
  if (!pending)
    throw new Error(
      'The Kasa gateway plugin was loaded outside startGateway(): start the gateway with `node gateway/dist/index.js`',
    );
  const policies = pending;
  pending = undefined;
  return policies;
}
