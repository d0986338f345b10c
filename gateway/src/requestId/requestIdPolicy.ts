import { REQUEST_ID_HEADER, requestIdFrom } from '@kasa/service-kit';
import type { EgPolicy } from '../eg/types';
import { setSecurityHeaders } from '../web/securityHeaders';

/**
 * First step of every pipeline: keeps a safe incoming `x-request-id` (or makes one), puts it on the request that
 * goes upstream, on the response, and on EG's context so that EG's own log lines carry it too. Being first, it also
 * sets the security headers of every answer (see securityHeaders.ts).
 */
export const requestIdPolicy: EgPolicy = {
  name: 'kasa-request-id',
  schema: { $id: 'https://kasa.example/schemas/policies/kasa-request-id.json', type: 'object' },
  policy: () => (req, res, next) => {
    const id = requestIdFrom(req);
    req.kasaRequestId = id;
    req.headers[REQUEST_ID_HEADER] = id;
    if (req.egContext) req.egContext.requestID = id;
    res.setHeader(REQUEST_ID_HEADER, id);
    setSecurityHeaders(res);
    next();
  },
};
