import {
  REQUEST_ID_HEADER,
  TRACEPARENT_HEADER,
  formatTraceparent,
  requestIdFrom,
  runWithTraceContext,
  traceContextOf,
} from '@kasa/service-kit';
import type { EgPolicy } from '../eg/types';
import { setSecurityHeaders } from '../web/securityHeaders';

/**
 * First step of every pipeline: keeps a safe incoming `x-request-id` (or makes one), puts it on the request that
 * goes upstream, on the response, and on EG's context so that EG's own log lines carry it too. It starts the
 * gateway's span of the request under the client's W3C `traceparent` (or a new trace) and sends it upstream as the
 * parent of the service's span; the rest of the pipeline runs in that trace context, so every gateway log line names
 * it. Being first, it also sets the security headers of every answer (see securityHeaders.ts).
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
    const trace = traceContextOf(req, id);
    req.kasaTrace = trace;
    req.headers[TRACEPARENT_HEADER] = formatTraceparent(trace);
    setSecurityHeaders(res);
    runWithTraceContext(trace, next);
  },
};
