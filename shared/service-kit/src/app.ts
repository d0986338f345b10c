import express, { type Express, type Request, type Response, type Router } from 'express';
import { pinoHttp } from 'pino-http';
import { errorHandler, notFoundHandler } from './errorHandler';
import { healthRouter, type ReadinessCheck } from './health';
import type { Logger } from './logger';
import { ServiceMetrics } from './metrics';
import { REQUEST_ID_HEADER, requestIdFrom, requestIdOf } from './requestId';
import type { SpanRecorder } from './telemetry';
import { runWithTraceContext, traceContextOf, type TraceContext } from './traceContext';

export interface ServiceAppOptions {
  logger: Logger;
  metrics: ServiceMetrics;
  /** Readiness checks by name, e.g. `{ database: () => db.isReady(), broker: () => bus.isConnected() }`. */
  readiness: Record<string, ReadinessCheck>;
  isShuttingDown?: () => boolean;
  /** JSON body limit (bytes, or a size such as `64kb`); bodies larger than this get a 413 naming it. */
  bodyLimit?: string | number;
  /**
   * JSON body limits of their own for the paths under some prefixes, e.g. `{ '/v1': BODY_LIMITS.openAI }`: those
   * bodies are parsed up to that limit instead of `bodyLimit`.
   */
  bodyLimits?: Record<string, string | number>;
  /**
   * Paths that other services poll (the status service reads voice's `/api/voice/status` every second): their
   * answers below 400 are logged at debug instead of info, so that a log at info shows what people do.
   */
  quietPaths?: readonly string[];
  /** Where each request's span goes (OpenTelemetry export); none when tracing is not configured. */
  spans?: SpanRecorder;
  /** The service's own routes, mounted after the shared middleware and before the 404 and error handlers. */
  routes: Router | Router[];
}

/**
 * The shared shape of every Kasa service: request ids, request logs, JSON bodies with a size limit, metrics,
 * health, the request's trace context (request id and W3C traceparent on every log line), then the service's routes, then the JSON 404 and the one error handler.
 */
export function createServiceApp(options: ServiceAppOptions): Express {
  const app = express();
  const quietPaths = new Set(options.quietPaths ?? []);
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');

  app.use(
    pinoHttp({
      logger: options.logger,
      genReqId: (req, res) => {
        const id = requestIdFrom(req);
        res.setHeader(REQUEST_ID_HEADER, id);
        return id;
      },
      autoLogging: { ignore: (req) => ['/healthz', '/readyz', '/metrics'].includes(req.url ?? '') },
      customLogLevel: (req, res, err) => {
        if (err || res.statusCode >= 500) return 'error';
        return res.statusCode < 400 && quietPaths.has((req.url ?? '').split('?')[0]!) ? 'debug' : 'info';
      },
      serializers: {
        req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    }),
  );
  app.use(options.metrics.middleware());
  app.use(healthRouter({ checks: options.readiness, isShuttingDown: options.isShuttingDown }));
  app.get('/metrics', async (_req, res) => {
    res.type(options.metrics.registry.contentType).send(await options.metrics.registry.metrics());
  });
  // A body is parsed once: the first parser that reads it marks it parsed, and the general one below skips it.
  for (const [prefix, limit] of Object.entries(options.bodyLimits ?? {})) app.use(prefix, express.json({ limit }));
  app.use(express.json({ limit: options.bodyLimit ?? '100kb' }));
  // After the body parser: it calls next() from the socket's 'end' event, which would leave the request's context.
  app.use((req, res, next) => {
    const context = traceContextOf(req, requestIdOf(req));
    if (options.spans) recordServerSpan(options.spans, context, req, res);
    runWithTraceContext(context, next);
  });

  for (const router of Array.isArray(options.routes) ? options.routes : [options.routes]) app.use(router);

  app.use(notFoundHandler());
  app.use(errorHandler());
  return app;
}

/** Records the request's span once the answer is sent, named by its route pattern (never by ids in the path). */
function recordServerSpan(spans: SpanRecorder, context: TraceContext, req: Request, res: Response): void {
  const startTime = Date.now();
  res.once('finish', () => {
    const route = (req.route as { path?: unknown } | undefined)?.path;
    const pattern = typeof route === 'string' ? `${req.baseUrl}${route}` : 'unmatched route';
    spans.record({
      context,
      name: `${req.method} ${pattern}`,
      kind: 'server',
      startTime,
      endTime: Date.now(),
      attributes: {
        'http.request.method': req.method,
        'http.route': pattern,
        'http.response.status_code': res.statusCode,
      },
      failed: res.statusCode >= 500,
    });
  });
}
