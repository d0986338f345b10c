import { ErrorCode } from '@kasa/contracts';
import { sendError } from '../errors';
import type { EgPolicy } from '../eg/types';

/** Any /api or /v1 path that no service claims: a JSON 404 in the shared error shape, never the web app's HTML. */
export const notFoundPolicy: EgPolicy = {
  name: 'kasa-not-found',
  schema: { $id: 'https://kasa.example/schemas/policies/kasa-not-found.json', type: 'object' },
  policy: () => (req, res) => {
    const path = req.url.split('?')[0];
    sendError(res, 404, ErrorCode.notFound, `No route for ${req.method} ${path}`, req.kasaRequestId);
  },
};
