import { AsyncLocalStorage } from 'node:async_hooks';
import { randomFillSync, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { REQUEST_ID_HEADER } from './requestId';

/** The W3C Trace Context header (https://www.w3.org/TR/trace-context/). */
export const TRACEPARENT_HEADER = 'traceparent';

/** What one unit of work (an HTTP request, an event being handled) runs under; every log line carries it. */
export interface TraceContext {
  requestId: string;
  /** 32 lowercase hex digits, shared by every span of one trace (gateway, services, events). */
  traceId: string;
  /** 16 lowercase hex digits: this unit of work's own span. */
  spanId: string;
  /** The span that caused this one, when it came from outside (a `traceparent` received). */
  parentSpanId?: string;
  /** Whether the trace is sampled (the `01` flag). */
  sampled: boolean;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/** Parses a `traceparent` header; anything malformed (or the all-zero ids the spec forbids) is ignored. */
export function parseTraceparent(
  value: string | undefined,
): { traceId: string; parentSpanId: string; sampled: boolean } | undefined {
  const match = value ? TRACEPARENT.exec(value.trim().toLowerCase()) : null;
  if (!match) return undefined;
  const [, traceId, parentSpanId, flags] = match as unknown as [string, string, string, string];
  if (traceId === ZERO_TRACE || parentSpanId === ZERO_SPAN) return undefined;
  return { traceId, parentSpanId, sampled: (parseInt(flags, 16) & 1) === 1 };
}

/** The `traceparent` that a call or event made under `context` sends on: this span becomes the parent. */
export function formatTraceparent(context: Pick<TraceContext, 'traceId' | 'spanId' | 'sampled'>): string {
  return `00-${context.traceId}-${context.spanId}-${context.sampled ? '01' : '00'}`;
}

/**
 * Random ids drawn from a pool refilled 4 KB at a time: one `getrandom` call per ~170 requests instead of two per
 * request (a trace id and a span id each cost a system call with `randomBytes`, about 7 % of the gateway's CPU per
 * proxied request). Node's `randomUUID` pools the same way.
 */
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let poolOffset = POOL_BYTES;

function randomHex(bytes: number): string {
  if (poolOffset + bytes > POOL_BYTES) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const hex = pool.toString('hex', poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return hex;
}

const newSpanId = () => randomHex(8);

/**
 * A new span: under the trace of `traceparent` when one was received (a child of its span), else the first span of a
 * new trace. `requestId` is kept as given, else a fresh one.
 */
export function startSpan(options: { requestId?: string; traceparent?: string } = {}): TraceContext {
  const parent = parseTraceparent(options.traceparent);
  return {
    requestId: options.requestId ?? randomUUID(),
    traceId: parent?.traceId ?? randomHex(16),
    spanId: newSpanId(),
    ...(parent ? { parentSpanId: parent.parentSpanId } : {}),
    sampled: parent?.sampled ?? true,
  };
}

const storage = new AsyncLocalStorage<TraceContext>();

/** The context of the work now running (undefined outside a request or an event handler). */
export function currentTraceContext(): TraceContext | undefined {
  return storage.getStore();
}

/** Runs `fn` (and everything it starts, sync or async) under `context`. */
export function runWithTraceContext<T>(context: TraceContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** The span started for an incoming HTTP request, from its `x-request-id` and `traceparent` headers. */
export function traceContextOf(req: IncomingMessage, requestId: string): TraceContext {
  const header = req.headers[TRACEPARENT_HEADER];
  return startSpan({ requestId, traceparent: Array.isArray(header) ? header[0] : header });
}

/**
 * The headers a service sends on its own calls to another service, so that the callee logs the same request id and
 * continues the same trace. Empty outside a request or event handler.
 */
export function propagationHeaders(context = currentTraceContext()): Record<string, string> {
  if (!context) return {};
  return { [REQUEST_ID_HEADER]: context.requestId, [TRACEPARENT_HEADER]: formatTraceparent(context) };
}
