import { buildOpenApiDocument } from '@kasa/contracts';
import type { EgPolicy } from '../eg/types';

/**
 * GET /api/openapi.json: the OpenAPI 3.1 document built from the contracts' zod schemas, built once at start-up
 * (it only changes with a deploy) and served from memory.
 */
export function createOpenApiPolicy(): EgPolicy {
  const body = Buffer.from(JSON.stringify(buildOpenApiDocument('/')));
  return {
    name: 'kasa-openapi',
    schema: { $id: 'https://kasa.example/schemas/policies/kasa-openapi.json', type: 'object' },
    policy: () => (req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': body.length,
        'cache-control': 'no-cache',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    },
  };
}
