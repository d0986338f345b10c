import { takePolicies } from './runtime';
import type { EgPluginContext } from './types';

/**
 * The Kasa plugin of express-gateway (named in config/system.config.yml): registers Kasa's policies, which
 * gateway.config.yml then uses in its pipelines.
 */
export const version = '1.2.0';

export const policies = [
  'kasa-request-id',
  'kasa-metrics',
  'kasa-rate-limit',
  'kasa-jwt',
  'kasa-quota',
  'kasa-idempotency',
  'kasa-proxy',
  'kasa-openapi',
  'kasa-not-found',
  'kasa-static',
];

export const schema = { $id: 'https://kasa.example/schemas/plugins/kasa.json', type: 'object' as const };

export function init(context: EgPluginContext): void {
  for (const policy of takePolicies()) context.registerPolicy(policy);
}
