import { ErrorCode } from '@kasa/contracts';
import { REQUEST_ID_HEADER, requestIdFrom, type Logger } from '@kasa/service-kit';
import { sendError } from './errors';
import type { GatewayRequest, GatewayResponse, Next } from './eg/types';

/**
 * The last handler of EG's Express app: whatever a route or policy threw (a URL Express cannot decode, a bug)
 * becomes the shared JSON error body instead of Express 4's HTML page with a stack trace. 5xx are logged.
 */
export function jsonErrorHandler(logger: Logger) {
  return (err: unknown, req: GatewayRequest, res: GatewayResponse, next: Next): void => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const requestId = req.kasaRequestId ?? requestIdFrom(req);
    if (!res.getHeader(REQUEST_ID_HEADER)) res.setHeader(REQUEST_ID_HEADER, requestId);
    const status =
      (err as { status?: unknown; statusCode?: unknown }).status ?? (err as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      sendError(res, status, ErrorCode.badRequest, 'The request is malformed', requestId);
      return;
    }
    logger.error({ err, requestId }, 'request failed in the gateway');
    sendError(res, 500, ErrorCode.internal, 'Something went wrong on our side. Please try again.', requestId);
  };
}
