import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { resolveWebhookTarget, WebhookTargetError, type HostLookup, type WebhookTarget } from './webhookTarget';

/** One attempt's time limit: resolving the host, connecting, and the answer's status line. */
export const ATTEMPT_TIMEOUT_MS = 10_000;

/** What an attempt came to: a 2xx answer, or the status code and a few words on why not. */
export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

export interface WebhookMessageToSend {
  url: string;
  /** The endpoint's signing secret (`whsec_…`). */
  secret: string;
  /** `webhook-id`: the same on every retry and replay of the message. */
  eventId: string;
  /** The JSON body, byte for byte as signed. */
  body: string;
}

export interface SendOptions {
  allowPrivateNetworks: boolean;
  timeoutMs?: number;
  lookup?: HostLookup;
  now?: () => Date;
}

/**
 * Makes one attempt: the host is resolved and checked again (see resolveWebhookTarget), the message is signed per
 * Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`) at this moment, and POSTed
 * to the checked address only (the connection's lookup answers with it). Redirects are not followed (a 3xx is a
 * failed attempt), the answer's body is never read, and the whole attempt has ATTEMPT_TIMEOUT_MS (10 s).
 */
export async function sendWebhook(message: WebhookMessageToSend, options: SendOptions): Promise<AttemptResult> {
  const signal = AbortSignal.timeout(options.timeoutMs ?? ATTEMPT_TIMEOUT_MS);
  let target: WebhookTarget;
  try {
    target = await resolveWebhookTarget(message.url, {
      allowPrivateNetworks: options.allowPrivateNetworks,
      lookup: options.lookup,
      signal,
    });
  } catch (err) {
    return { ok: false, statusCode: null, error: describeFailure(err, signal) };
  }
  const timestamp = options.now?.() ?? new Date();
  const signature = new Webhook(message.secret).sign(message.eventId, timestamp, message.body);
  try {
    const statusCode = await post(target, {
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Kasa-Webhooks/1.0',
        'webhook-id': message.eventId,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body: message.body,
      signal,
    });
    const ok = statusCode >= 200 && statusCode < 300;
    return { ok, statusCode, error: ok ? null : `HTTP ${statusCode}` };
  } catch (err) {
    return { ok: false, statusCode: null, error: describeFailure(err, signal) };
  }
}

/** POSTs to the target's checked address (TLS still checks the certificate against the URL's host name). */
function post(
  target: WebhookTarget,
  request: { headers: Record<string, string>; body: string; signal: AbortSignal },
): Promise<number> {
  const pinned: LookupFunction = (_hostname, options, callback) => {
    const done = callback as (...args: unknown[]) => void;
    if (options.all) done(null, [{ address: target.address, family: target.family }]);
    else done(null, target.address, target.family);
  };
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise<number>((resolve, reject) => {
    const req = client.request(
      target.url,
      {
        method: 'POST',
        headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
        lookup: pinned,
        // A fresh connection per attempt: a pooled one could have been opened to another address.
        agent: false,
        signal: request.signal,
      },
      (res) => {
        resolve(res.statusCode ?? 0);
        // The body is not wanted: the status says it all.
        res.destroy();
      },
    );
    req.on('error', reject);
    req.end(request.body);
  });
}

/** A few words for the delivery log; never the URL, the body or the secret. */
export function describeFailure(err: unknown, signal?: AbortSignal): string {
  if (signal?.aborted) return 'timeout';
  if (err instanceof WebhookTargetError) {
    if (err.kind === 'address') return 'address not allowed';
    if (err.kind === 'scheme') return 'https required';
    return 'DNS lookup failed';
  }
  const code = String((err as { code?: unknown })?.code ?? '');
  if (code === 'ABORT_ERR' || code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return 'timeout';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'connection reset';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'host unreachable';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'DNS lookup failed';
  if (/CERT|TLS|SSL|SELF_SIGNED/i.test(code)) return 'TLS error';
  if (code === 'HPE_INVALID_CONSTANT' || code.startsWith('HPE_')) return 'invalid HTTP response';
  return 'network error';
}
