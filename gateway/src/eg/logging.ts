import type { Logger } from '@kasa/service-kit';
import { EG_LIB, egDependency, egRequire } from './expressGateway';

type PinoLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

interface WinstonInfo {
  level: string;
  message: unknown;
}
interface WinstonLogger {
  configure(options: { level: string; silent: boolean; format: unknown; transports: unknown[] }): void;
}
interface Winston {
  Transport: new (options?: object) => object;
  format: { splat(): unknown };
}

/** EG's winston loggers, by the component name its log lines carry. */
const EG_LOGGERS = ['gateway', 'policy', 'config', 'db', 'admin', 'plugins'] as const;

const WINSTON_LEVEL: Record<PinoLevel, string> = {
  fatal: 'error',
  error: 'error',
  warn: 'warn',
  info: 'info',
  debug: 'debug',
  trace: 'silly',
  silent: 'error',
};

function pinoMethod(winstonLevel: string): 'error' | 'warn' | 'info' | 'debug' | 'trace' {
  switch (winstonLevel) {
    case 'error':
    case 'warn':
    case 'info':
      return winstonLevel;
    case 'silly':
      return 'trace';
    default:
      return 'debug'; // http, verbose, debug
  }
}

/**
 * Sends express-gateway's own log lines (winston, coloured text) through the gateway's pino logger, so that every
 * line the process writes is one JSON object with `service`, `version` and the level the house style expects.
 * Must run before EG loads its configuration (it logs while doing so).
 */
export function routeEgLogsThroughPino(logger: Logger, level: PinoLevel): void {
  const winston = egDependency<Winston>('winston', EG_LIB);
  const loggers = egRequire<Record<(typeof EG_LOGGERS)[number], WinstonLogger>>('logger');
  for (const component of EG_LOGGERS) {
    const child = logger.child({ component: `express-gateway:${component}` });
    class PinoTransport extends winston.Transport {
      log(info: WinstonInfo, done: () => void): void {
        child[pinoMethod(info.level)](String(info.message));
        done();
      }
    }
    loggers[component].configure({
      level: WINSTON_LEVEL[level],
      silent: level === 'silent',
      format: winston.format.splat(),
      transports: [new PinoTransport()],
    });
  }
}
