import pino, { type Logger } from 'pino';

export type { Logger };

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

/** A pino JSON logger that carries the service's name and version on every line and redacts secrets. */
export function createLogger(options: { service: string; version: string; level?: string }): Logger {
  return pino({
    level: options.level ?? 'info',
    base: { service: options.service, version: options.version },
    redact: { paths: REDACT, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
