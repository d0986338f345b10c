import { buildOpenApiDocument } from '@kasa/contracts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

/**
 * The gateway's routes against the OpenAPI document: every API path the gateway serves (its `apiEndpoints`) has an
 * operation in the document, and every documented operation reaches a service (not the 404 route or the web app).
 */
interface ApiEndpoint {
  paths: string | string[];
  methods?: string[];
}

/** Routes that are not API calls, each with why. */
const NOT_API: Record<string, string> = {
  web: 'the web apps and their static files',
  apiNotFound: 'the 404 answer of unknown /api and /v1 paths',
};
/** Served API paths the document leaves out on purpose, each with why. */
const UNDOCUMENTED: Record<string, string> = {
  '/api/openapi.json': 'the document itself',
  '/api/billing/webhooks/stripe': 'Stripe’s signed events, not an API for clients (services/auth/README.md)',
  '/api/billing/webhooks/paystack': 'Paystack’s signed events, not an API for clients (services/auth/README.md)',
  // The operators' API: 404 to everyone but an installation's operators, so not offered to integrators.
  '/api/admin/operators': 'operators only (services/auth/README.md#operators)',
  '/api/admin/operators/*': 'operators only (services/auth/README.md#operators)',
  '/api/admin/inquiries': 'operators only (services/auth/README.md#operators)',
  '/api/admin/inquiries/*': 'operators only (services/auth/README.md#operators)',
  // Single sign-on's browser steps: a redirect from the identity provider and the web app's exchange of its code.
  '/api/auth/sso/start':
    'the web app’s single sign-on (services/auth/README.md#single-sign-on-per-team-openid-connect)',
  '/api/auth/sso/complete':
    'the web app’s single sign-on (services/auth/README.md#single-sign-on-per-team-openid-connect)',
  '/api/auth/sso/callback':
    'the identity provider’s redirect back (services/auth/README.md#single-sign-on-per-team-openid-connect)',
};

const config = parse(readFileSync(path.join(__dirname, '../../gateway/config/gateway.config.yml'), 'utf8')) as {
  apiEndpoints: Record<string, ApiEndpoint>;
};
const endpoints = Object.entries(config.apiEndpoints);

type DocumentedOperation = { method: string; path: string };
function documentedOperations(): DocumentedOperation[] {
  const paths = buildOpenApiDocument().paths ?? {};
  return Object.entries(paths).flatMap(([p, item]) =>
    Object.keys(item as object)
      .filter((key) => ['get', 'post', 'put', 'patch', 'delete'].includes(key))
      .map((method) => ({ method: method.toUpperCase(), path: p })),
  );
}

/** Whether a gateway path pattern (exact, or ending in `/*`) matches a concrete path. */
function matches(pattern: string, concrete: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('/*')) return concrete.startsWith(pattern.slice(0, -1));
  return pattern === concrete;
}

/** A documented path with a value in each parameter (`/api/chat/sessions/x`). */
const concrete = (documented: string) => documented.replace(/\{[^}]+\}/g, 'x');

/** The served API paths, as "endpoint: path", that no documented operation answers. */
function undocumentedPaths(operations: DocumentedOperation[]): string[] {
  const missing: string[] = [];
  for (const [name, endpoint] of endpoints) {
    if (NOT_API[name]) continue;
    const methods = endpoint.methods?.filter((m) => m !== 'HEAD' && m !== 'OPTIONS');
    for (const pattern of [endpoint.paths].flat()) {
      if (UNDOCUMENTED[pattern]) continue;
      const found = operations.some(
        (op) => matches(pattern, concrete(op.path)) && (!methods || methods.includes(op.method)),
      );
      if (!found) missing.push(`${name}: ${pattern}`);
    }
  }
  return missing;
}

/** The endpoint that serves a request: the first whose paths and methods match, as the gateway picks it. */
function endpointOf(method: string, concretePath: string): string | undefined {
  return endpoints.find(
    ([, endpoint]) =>
      (!endpoint.methods || endpoint.methods.includes(method)) &&
      [endpoint.paths].flat().some((pattern) => matches(pattern, concretePath)),
  )?.[0];
}

describe('the gateway’s routes and the OpenAPI document', () => {
  it('documents every API path the gateway serves', () => {
    expect(undocumentedPaths(documentedOperations())).toEqual([]);
  });

  it('names a served path whose operation is missing', () => {
    const without = documentedOperations().filter((op) => op.path !== '/api/status');
    expect(undocumentedPaths(without)).toEqual(['statusPublic: /api/status']);
  });

  it('routes every documented operation to a service', () => {
    const unrouted = documentedOperations()
      .map((op) => ({ op, endpoint: endpointOf(op.method, concrete(op.path)) }))
      .filter(({ endpoint }) => endpoint === undefined || NOT_API[endpoint])
      .map(({ op, endpoint }) => `${op.method} ${op.path} → ${endpoint ?? 'nothing'}`);
    expect(unrouted).toEqual([]);
  });
});
