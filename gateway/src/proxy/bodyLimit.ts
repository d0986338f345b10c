import { BODY_LIMITS, ErrorCode, formatByteSize, payloadTooLargeMessage, type BodyLimitName } from '@kasa/contracts';
import { z } from 'zod';
import type { EgConfig, GatewayRequest, GatewayResponse } from '../eg/types';
import { sendError } from '../errors';

/** No route may take more than this (the gateway holds a retried request's body in memory to compare it). */
export const MAX_ROUTE_BODY_BYTES = 100 * 1024 * 1024;

const LIMIT_NAMES = Object.keys(BODY_LIMITS) as [BodyLimitName, ...BodyLimitName[]];

const bytes = z
  .number()
  .int({ error: 'must be a whole number of bytes' })
  .min(1, { error: 'must be at least 1 byte' })
  .max(MAX_ROUTE_BODY_BYTES, {
    error: `must be at most ${MAX_ROUTE_BODY_BYTES} (${formatByteSize(MAX_ROUTE_BODY_BYTES)})`,
  });

/**
 * `maxBodyBytes` of a `kasa-proxy` step: the name of a limit in `BODY_LIMITS` of @kasa/contracts (`chat`, `openAI`,
 * `transcription`...: the number the service behind the route applies too), or a number of bytes (YAML templating
 * may hand it over as a string of digits).
 */
export const MaxBodyBytes = z.union([
  bytes,
  z.string().regex(/^\d+$/).transform(Number).pipe(bytes),
  z.enum(LIMIT_NAMES).transform((name) => BODY_LIMITS[name]),
]);

/** JSON Schema of the option, for EG's start-up check of gateway.config.yml (MaxBodyBytes has the last word). */
export const MAX_BODY_BYTES_JSON_SCHEMA = {
  anyOf: [
    { type: 'integer', minimum: 1, maximum: MAX_ROUTE_BODY_BYTES },
    { type: 'string', enum: LIMIT_NAMES },
    { type: 'string', pattern: '^[0-9]+$' },
  ],
} as const;

/** The limit a step's `maxBodyBytes` sets; `fallback` (GATEWAY_MAX_BODY_BYTES) without one. Throws a readable error. */
export function parseMaxBodyBytes(value: unknown, fallback: number, where = 'kasa-proxy'): number {
  if (value === undefined || value === null) return fallback;
  const parsed = MaxBodyBytes.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new Error(
    `${where}: maxBodyBytes ${JSON.stringify(value)} is not valid: use a number of bytes (1 to ${MAX_ROUTE_BODY_BYTES}) or the name of a shared limit (${LIMIT_NAMES.join(', ')})`,
  );
}

/** The `action` of every `kasa-proxy` step of a pipeline (`{ kasa-proxy: [{ condition?, action? }] }` in the YAML). */
function proxyActionsOf(policies: unknown): Array<Record<string, unknown>> {
  const actions: Array<Record<string, unknown>> = [];
  for (const step of Array.isArray(policies) ? policies : []) {
    if (!step || typeof step !== 'object' || !('kasa-proxy' in step)) continue;
    const entries: unknown = (step as Record<string, unknown>)['kasa-proxy'];
    for (const entry of Array.isArray(entries) ? entries : [entries])
      actions.push((entry as { action?: Record<string, unknown> } | null | undefined)?.action ?? {});
  }
  return actions;
}

/**
 * The body limit of each API endpoint (route name), read from the `kasa-proxy` steps of the pipeline that serves it:
 * the policies before the proxy in the same pipeline (`kasa-idempotency`, which reads a retried request's body)
 * apply the same limit. Where a pipeline's proxy steps differ (conditions), the largest, so that nothing the proxy
 * takes is refused earlier. Routes without a proxy step are absent (the caller's default applies). Read once per
 * pipeline at start-up.
 */
export function routeBodyLimits(config: EgConfig | undefined, fallback: number): Map<string, number> {
  const gatewayConfig = config?.gatewayConfig;
  const limits = new Map<string, number>();
  for (const [name, pipeline] of Object.entries(gatewayConfig?.pipelines ?? {})) {
    const actions = proxyActionsOf(pipeline?.policies);
    if (actions.length === 0) continue;
    const limit = Math.max(
      ...actions.map((action) => parseMaxBodyBytes(action.maxBodyBytes, fallback, `pipeline ${name}, kasa-proxy`)),
    );
    const endpoints = pipeline?.apiEndpoints;
    for (const endpoint of Array.isArray(endpoints) ? endpoints : endpoints ? [endpoints] : [])
      limits.set(String(endpoint), limit);
  }
  return limits;
}

/** How much, and for how long, the gateway goes on reading a refused body so that its client reads the 413. */
const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
const DRAIN_MAX_MS = 10_000;

/**
 * Answers 413 `payload_too_large` naming the route's limit, then reads and drops what the client still sends before
 * the connection may close. An HTTP/1.1 client still uploading when the answer comes (a browser or `fetch` sending a
 * recording) reports a broken connection instead of the answer if the connection is cut under it, so the gateway
 * lingers as nginx does: at most 64 MB or 10 s, then it cuts. A body declared larger than that is not waited for.
 */
export function refuseTooLarge(req: GatewayRequest, res: GatewayResponse, limitBytes: number): void {
  const message = payloadTooLargeMessage(limitBytes);
  const declared = Number(req.headers['content-length']);
  if (req.readableEnded || declared > DRAIN_MAX_BYTES) {
    sendError(res, 413, ErrorCode.payloadTooLarge, message, req.kasaRequestId, { connection: 'close' });
    return;
  }
  const socket = req.socket;
  let drained = 0;
  const cut = () => socket.destroy();
  const timer = setTimeout(cut, DRAIN_MAX_MS).unref();
  const stop = () => clearTimeout(timer);
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_MAX_BYTES) cut();
  });
  req.once('end', stop);
  req.once('close', stop);
  req.resume();
  sendError(res, 413, ErrorCode.payloadTooLarge, message, req.kasaRequestId);
}
