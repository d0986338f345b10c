import dns from 'node:dns/promises';
import net from 'node:net';
import { isLocalHostname, isPublicAddress, normalHost } from './addressRules';

/** Every address a host name resolves to, as `dns.lookup(host, { all: true })` gives them. */
export type HostLookup = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export const systemLookup: HostLookup = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/** Why a webhook URL cannot be used: not https://, an internal address, or a host that does not resolve. */
export class WebhookTargetError extends Error {
  constructor(
    readonly kind: 'scheme' | 'address' | 'dns',
    message: string,
  ) {
    super(message);
    this.name = 'WebhookTargetError';
  }
}

/** Where one attempt connects: the URL, and the checked address its host resolved to. */
export interface WebhookTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

export interface TargetOptions {
  /** WEBHOOKS_ALLOW_PRIVATE_NETWORKS: http:// and internal addresses are accepted (a private installation). */
  allowPrivateNetworks: boolean;
  lookup?: HostLookup;
  signal?: AbortSignal;
}

/**
 * Resolves a webhook URL's host (every address it has) and checks them, at registration and again before every
 * attempt: unless the operator allows private networks, the URL must be https:// and every address public (see
 * addressRules). The attempt then connects to the address checked here and no other, so a name that resolves
 * differently a moment later (DNS rebinding) cannot lead it inside.
 */
export async function resolveWebhookTarget(rawUrl: string, options: TargetOptions): Promise<WebhookTarget> {
  const url = new URL(rawUrl);
  const allowed = options.allowPrivateNetworks;
  if (url.protocol !== 'https:' && !(allowed && url.protocol === 'http:'))
    throw new WebhookTargetError('scheme', 'Webhook URLs must use https://');
  const host = normalHost(url.hostname);
  if (!allowed && isLocalHostname(host))
    throw new WebhookTargetError('address', `${host} is this server itself; use a public https:// address`);

  let addresses: Array<{ address: string; family: number }>;
  const literal = net.isIP(host);
  if (literal) {
    addresses = [{ address: host, family: literal }];
  } else {
    try {
      addresses = await abortable((options.lookup ?? systemLookup)(host), options.signal);
    } catch (err) {
      if (options.signal?.aborted) throw err;
      throw new WebhookTargetError('dns', `The host ${host} could not be resolved`);
    }
    if (addresses.length === 0) throw new WebhookTargetError('dns', `The host ${host} could not be resolved`);
  }
  if (!allowed && addresses.some((entry) => !isPublicAddress(entry.address)))
    throw new WebhookTargetError(
      'address',
      `${host} resolves to a private, loopback, link-local or otherwise internal address; use a public address`,
    );
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** The lookup's promise, or the signal's reason once it aborts (dns.lookup itself cannot be stopped). */
function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}
