import { ErrorCode, type ErrorBody } from '@kasa/contracts';
import type { Logger } from '@kasa/service-kit';
import type { Dispatcher } from 'undici';
import { sendError } from '../errors';
import type { EgConfig, EgPolicy, GatewayRequest, GatewayResponse } from '../eg/types';
import { exchangeTapOf, type ExchangeTap } from '../idempotency/idempotentExchange';
import { MAX_BODY_BYTES_JSON_SCHEMA, parseMaxBodyBytes, refuseTooLarge } from './bodyLimit';
import { clientResponseHeaders, upstreamRequestHeaders } from './headers';
import type { Upstream, Upstreams } from './upstreams';

interface ProxyParams {
  /** A name under `serviceEndpoints` in gateway.config.yml. */
  serviceEndpoint: string;
  /**
   * This route's request body limit: the name of a limit in `BODY_LIMITS` of @kasa/contracts (what the service
   * behind the route applies too) or a number of bytes; `GATEWAY_MAX_BODY_BYTES` when absent. See bodyLimit.ts.
   */
  maxBodyBytes?: number | string;
}

export interface ProxyOptions {
  upstreams: Upstreams;
  logger: Logger;
  /**
   * Request bodies above this many bytes get a 413 (before the upstream is asked when Content-Length says so), on
   * routes whose step sets no `maxBodyBytes` of its own (GATEWAY_MAX_BODY_BYTES).
   */
  maxBodyBytes: number;
  /** How long the upstream may take to send its response headers. */
  headersTimeoutMs: number;
}

class BodyTooLargeError extends Error {
  constructor() {
    super('request body too large');
    this.name = 'BodyTooLargeError';
  }
}

class ClientGoneError extends Error {
  constructor() {
    super('the client closed the connection');
    this.name = 'ClientGoneError';
  }
}

/** Errors that mean "nobody answered": the upstream is down, unreachable or dropped the connection. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_DESTROYED',
]);

function isEventStream(contentType: string | string[] | undefined): boolean {
  return typeof contentType === 'string' && contentType.startsWith('text/event-stream');
}

/**
 * One request's trip through the gateway, as an undici dispatch handler: the response streams back chunk by chunk
 * as it arrives (Server-Sent Events token by token, with backpressure from the client's socket), and the upstream
 * request is aborted the moment the client goes away (so a streamed chat reply stops being generated).
 */
class ProxyExchange implements Dispatcher.DispatchHandler {
  private controller?: Dispatcher.DispatchController;
  private clientGone = false;
  bodyTooLarge = false;
  /** A Server-Sent Events response, and whether what was forwarded of it so far ends between two events. */
  private eventStream = false;
  private betweenEvents = true;
  private endsWithNewline = false;

  constructor(
    private readonly req: GatewayRequest,
    private readonly res: GatewayResponse,
    private readonly upstream: Upstream,
    private readonly options: ProxyOptions,
    /** This route's body limit. */
    private readonly maxBodyBytes: number,
    /** Set on a request with an idempotency key: it records the answer as it passes (see idempotency/). */
    private readonly tap: ExchangeTap | undefined,
  ) {
    res.once('close', this.onClientClose);
    tap?.claim();
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.clientGone) controller.abort(new ClientGoneError());
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    if (statusCode < 200) return;
    if (this.clientGone) {
      // Still running only for the idempotency record; an event stream without its client is a stop.
      if (this.tap && isEventStream(headers['content-type'])) {
        this.tap.fail();
        controller.abort(new ClientGoneError());
      } else this.tap?.responseStart(statusCode, clientResponseHeaders(headers));
      return;
    }
    const out = clientResponseHeaders(headers);
    // An answer to an authenticated request is someone's own data: no browser or shared cache may keep it unless
    // the service said otherwise. Decided here, once, for every service and route behind a token or API key.
    const { req } = this;
    if ((req.kasaIdentity || req.kasaApiKey) && out['cache-control'] === undefined) out['cache-control'] = 'no-store';
    const streaming = isEventStream(headers['content-type']);
    this.eventStream = streaming;
    // Tell any buffering proxy in front of the gateway (nginx) to pass events through as they come.
    if (streaming && out['x-accel-buffering'] === undefined) out['x-accel-buffering'] = 'no';
    this.tap?.responseStart(statusCode, out);
    this.res.writeHead(statusCode, out);
    // Node holds headers back until the first body write; a stream's client should see them now.
    if (streaming) this.res.flushHeaders();
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.tap?.responseData(chunk);
    if (this.clientGone) return;
    if (this.eventStream && chunk.length > 0) {
      const n = chunk.length;
      const newline = chunk[n - 1] === 10;
      this.betweenEvents = newline && (n > 1 ? chunk[n - 2] === 10 : this.endsWithNewline);
      this.endsWithNewline = newline;
    }
    if (!this.res.write(chunk)) {
      controller.pause();
      this.res.once('drain', this.resume);
    }
  }

  onResponseEnd(): void {
    this.tap?.responseEnd();
    if (!this.clientGone) this.res.end();
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    this.tap?.fail();
    if (this.clientGone) return;
    const { req, res, upstream } = this;
    if (this.bodyTooLarge) {
      refuseTooLarge(req, res, this.maxBodyBytes);
      return;
    }
    const code = (err as NodeJS.ErrnoException).code ?? err.name;
    if (res.headersSent) {
      // Mid-stream: too late for an error status. Cutting the connection tells the client the body is incomplete.
      this.options.logger.warn(
        { requestId: req.kasaRequestId, upstream: upstream.name, code },
        'upstream response broke off',
      );
      if (this.eventStream && this.betweenEvents && !res.writableEnded) {
        // An event-stream client (EventSource, the chat app) reads events, not transfer framing: a last `error` event
        // in the shared error shape tells it why the stream ended. Between two events only, so nothing is garbled.
        const body: ErrorBody = {
          message: `${upstream.label} service stopped answering in the middle of the reply. Please try again.`,
          code: ErrorCode.upstreamUnavailable,
          requestId: req.kasaRequestId ?? '',
        };
        res.end(`event: error\ndata: ${JSON.stringify(body)}\n\n`);
        return;
      }
      res.destroy();
      return;
    }
    if (code === 'UND_ERR_HEADERS_TIMEOUT') {
      this.options.logger.warn(
        { requestId: req.kasaRequestId, upstream: upstream.name, timeoutMs: this.options.headersTimeoutMs },
        'upstream timed out',
      );
      sendError(
        res,
        504,
        ErrorCode.upstreamTimeout,
        `${upstream.label} service took too long to answer. Please try again.`,
        req.kasaRequestId,
      );
      return;
    }
    const level = UNAVAILABLE_CODES.has(code) ? 'warn' : 'error';
    this.options.logger[level](
      { requestId: req.kasaRequestId, upstream: upstream.name, code, err: err.message },
      'upstream unavailable',
    );
    sendError(
      res,
      503,
      ErrorCode.upstreamUnavailable,
      `${upstream.label} service is unavailable. Please try again shortly.`,
      req.kasaRequestId,
      {
        'retry-after': '2',
      },
    );
  }

  private readonly resume = () => {
    this.controller?.resume();
  };

  private readonly onClientClose = () => {
    if (this.res.writableFinished) return;
    this.clientGone = true;
    // A JSON answer to a request with an idempotency key is worth finishing: the client's retry gets it (the service
    // may well have created the thing already). A stream is not: its client leaving is the user's stop.
    if (this.tap?.outlivesClient && !this.eventStream) return;
    this.tap?.fail();
    this.controller?.abort(new ClientGoneError());
  };
}

/**
 * The request body as it arrives, counted: past the limit it throws, which aborts the upstream request (the
 * exchange then answers 413). Reading through `iterator({ destroyOnReturn: false })` keeps the client's socket
 * open when the upstream side stops early, so the gateway can still answer.
 */
async function* limitedBody(
  req: GatewayRequest,
  maxBytes: number,
  exchange: ProxyExchange,
  tap: ExchangeTap | undefined,
): AsyncGenerator<Buffer> {
  let received = 0;
  for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    received += chunk.length;
    if (received > maxBytes) {
      exchange.bodyTooLarge = true;
      throw new BodyTooLargeError();
    }
    // The idempotency key's body hash is of exactly what goes upstream.
    tap?.requestData(chunk);
    yield chunk;
  }
  tap?.requestEnd();
}

/**
 * Kasa's replacement for express-gateway's stock `proxy` policy (http-proxy: 7 % of direct throughput on the
 * benchmark machine): forwards the method, path and query, headers (see headers.ts) and body to the service through
 * undici's pooled client, and streams the response back unbuffered. Failures answer in the shared error shape:
 * 413 for a body over the route's limit (`maxBodyBytes`), 503 when the service is down or unreachable (within the
 * connect timeout), 504 when it does not answer in time.
 */
export function createProxyPolicy(options: ProxyOptions): EgPolicy<ProxyParams> {
  const { upstreams, headersTimeoutMs } = options;
  return {
    name: 'kasa-proxy',
    schema: {
      $id: 'https://kasa.example/schemas/policies/kasa-proxy.json',
      type: 'object',
      properties: { serviceEndpoint: { type: 'string', minLength: 1 }, maxBodyBytes: MAX_BODY_BYTES_JSON_SCHEMA },
      required: ['serviceEndpoint'],
    },
    policy: (params, config: EgConfig) => {
      const maxBodyBytes = parseMaxBodyBytes(
        params.maxBodyBytes,
        options.maxBodyBytes,
        `kasa-proxy (serviceEndpoint ${params.serviceEndpoint})`,
      );
      const endpoint = config.gatewayConfig.serviceEndpoints?.[params.serviceEndpoint];
      const url = endpoint?.url ?? endpoint?.urls?.[0];
      if (!url)
        throw new Error(`kasa-proxy: serviceEndpoints.${params.serviceEndpoint}.url is missing in gateway.config.yml`);
      const upstream = upstreams.get(params.serviceEndpoint, url);

      return (req, res) => {
        const path = req.originalUrl || req.url;
        if (path.charCodeAt(0) !== 47 /* '/' */) {
          sendError(res, 400, ErrorCode.badRequest, 'The request target must be a path', req.kasaRequestId);
          return;
        }
        const contentLength = req.headers['content-length'];
        if (contentLength !== undefined && Number(contentLength) > maxBodyBytes) {
          // Refused before the upstream is contacted.
          refuseTooLarge(req, res, maxBodyBytes);
          return;
        }
        const hasBody =
          contentLength !== undefined ? contentLength !== '0' : req.headers['transfer-encoding'] !== undefined;
        const tap = exchangeTapOf(req);
        // A body the idempotency policy already read (a duplicate running in place of a failed first request).
        const buffered = tap?.bufferedBody;
        if (!hasBody && !buffered) tap?.requestEnd();

        const exchange = new ProxyExchange(req, res, upstream, options, maxBodyBytes, tap);
        try {
          upstream.pool.dispatch(
            {
              origin: upstream.origin,
              method: req.method,
              path,
              headers: upstreamRequestHeaders(req),
              // undici streams async iterables (documented for dispatch; missing from its DispatchOptions type).
              body: buffered
                ? buffered.length > 0
                  ? buffered
                  : null
                : hasBody
                  ? (limitedBody(req, maxBodyBytes, exchange, tap) as unknown as Dispatcher.DispatchOptions['body'])
                  : null,
              headersTimeout: headersTimeoutMs,
              bodyTimeout: 0,
            },
            exchange,
          );
        } catch (err) {
          tap?.fail();
          // undici validates the request synchronously (e.g. a header value it will not send).
          options.logger.warn(
            { requestId: req.kasaRequestId, err: (err as Error).message },
            'request cannot be forwarded',
          );
          sendError(res, 400, ErrorCode.badRequest, 'The request cannot be forwarded', req.kasaRequestId);
        }
      };
    },
  };
}
