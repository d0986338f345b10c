import { AdminHealthResponse, AdminUsageQuery, AdminUsageResponse } from './admin';
import type { Operation } from './openapi';

const TAG = 'Operators';

/**
 * The operators' health and usage (the status service, from its rollups; access tokens of operators only, to anyone
 * else each is a 404, as an unknown path): services/status/README.md#operators-health-and-usage.
 */
export const adminHealthOperations: Operation[] = [
  {
    method: 'get',
    path: '/api/admin/health',
    summary:
      'Operators: each service’s state, uptime over 24 hours and 30 days, and its calls, 4xx and 5xx answers, mean ' +
      'and 95th-percentile latency over the last hour and the last 24 hours; the parts (AI providers, speech)',
    tag: TAG,
    auth: true,
    response: AdminHealthResponse,
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/admin/usage',
    summary:
      'Operators: a UTC month’s calls (all, 4xx, 5xx, against quotas, with API keys) and the ten people and ten API ' +
      'keys with the most calls, by id (names, e-mails and plans: GET /api/admin/people/{id})',
    tag: TAG,
    auth: true,
    query: AdminUsageQuery,
    response: AdminUsageResponse,
    errors: [404],
  },
];
