import pino, { type Logger } from 'pino';
import { currentTraceContext } from './traceContext';

export type { Logger };

/**
 * Every line written while a request or an event is being handled names it (request id, trace and span), wherever in
 * the code it is logged: a pino `mixin`.
 */
export function traceMixin(): Record<string, string> {
  const context = currentTraceContext();
  return context ? { requestId: context.requestId, traceId: context.traceId, spanId: context.spanId } : {};
}

/** Paths never written to logs, whatever a caller passes in. */
const REDACT = [
  'password',
  'token',
  'apiKey',
  'authorization',
  '*.password',
  '*.token',
  '*.apiKey',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
];

/**
 * A pino JSON logger that carries the service's name and version on every line, the request id and trace of the work
 * being done (see traceContext), and redacts secrets.
 */
export function createLogger(options: { service: string; version: string; level?: string }): Logger {
  return pino({
    level: options.level ?? 'info',
    base: { service: options.service, version: options.version },
    redact: { paths: REDACT, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin: traceMixin,
  });
}
