import type { Logger, ServiceMetrics, SpanRecorder } from '@kasa/service-kit';
import type { EgPolicy } from '../eg/types';
import type { CompletedRequest } from '../events/requestEventBuffer';
import { loggablePath } from './loggablePath';

/**
 * Counts every request and its duration under the API endpoint that matched it (`route` = the apiEndpoint name of
 * gateway.config.yml, e.g. `chat`, `authCredentials`, `web`), never the raw path. A client that went away before
 * the status was sent is recorded as 499 (nginx's "client closed request"). At LOG_LEVEL=debug it also writes an
 * access log line per request (path without the query, which may carry secrets); otherwise metrics are the record.
 * `onCompleted` gets each API request (not the web app's files) with who made it, for `gateway.request.completed`;
 * it must be cheap (it runs on every request). With `spans` (OTEL_EXPORTER_OTLP_ENDPOINT set), each request is
 * also recorded as the gateway's span of its trace.
 */
export function createMetricsPolicy(
  metrics: ServiceMetrics,
  logger: Logger,
  onCompleted?: (request: CompletedRequest) => void,
  spans?: SpanRecorder,
): EgPolicy {
  return {
    name: 'kasa-metrics',
    schema: { $id: 'https://kasa.example/schemas/policies/kasa-metrics.json', type: 'object' },
    policy: () => {
      const accessLog = logger.isLevelEnabled('debug');
      return (req, res, next) => {
        const end = metrics.requestDuration.startTimer();
        const startTime = Date.now();
        res.once('close', () => {
          const status = res.headersSent ? String(res.statusCode) : '499';
          const route = req.egContext?.apiEndpoint?.apiEndpointName ?? 'unknown';
          const labels = { method: req.method, route, status };
          const seconds = end(labels);
          metrics.requests.inc(labels);
          if (spans && req.kasaTrace) {
            spans.record({
              context: req.kasaTrace,
              name: `${req.method} ${route}`,
              kind: 'server',
              startTime,
              endTime: Date.now(),
              attributes: {
                'http.request.method': req.method,
                'kasa.route': route,
                'http.response.status_code': Number(status),
              },
              failed: Number(status) >= 500,
            });
          }
          if (onCompleted && route !== 'web') {
            onCompleted({
              route,
              method: req.method,
              status: Number(status),
              durationMs: seconds * 1000,
              userId: req.kasaIdentity?.sub ?? req.kasaApiKey?.userId,
              apiKeyId: req.kasaApiKey?.keyId,
              atMs: Date.now(),
            });
          }
          if (accessLog) {
            const path = loggablePath(req.originalUrl.split('?')[0] ?? '/');
            logger.debug(
              { requestId: req.kasaRequestId, method: req.method, path, route, status, ms: seconds * 1000 },
              'request',
            );
          }
        });
        next();
      };
    },
  };
}
