import { ApiKeyList, GatewayIdentityHeaders } from '@kasa/contracts';
import { propagationHeaders, ServiceUnavailableError, type Identity } from '@kasa/service-kit';

/**
 * Whether an API key id is one of the caller's keys, asked of the auth service, which owns the keys (the analytics
 * ask only when the caller has no calls stored with the key: calls stored under the caller's id were made with
 * their own key, as the gateway vouched).
 */
export class KeyOwnership {
  constructor(private readonly options: { authServiceUrl: string; timeoutMs: number }) {}

  async isOwnedBy(who: Identity, keyId: string, requestId?: string, signal?: AbortSignal): Promise<boolean> {
    const keys = await this.keysOf(who, requestId, signal);
    return keys.some((key) => key.id === keyId);
  }

  private async keysOf(who: Identity, requestId?: string, signal?: AbortSignal): Promise<ApiKeyList['keys']> {
    let res: Response;
    try {
      res = await fetch(new URL('/api/developer/keys', this.options.authServiceUrl), {
        headers: {
          ...propagationHeaders(),
          [GatewayIdentityHeaders.userId]: who.userId,
          [GatewayIdentityHeaders.username]: encodeURIComponent(who.username),
          [GatewayIdentityHeaders.tier]: who.tier,
          ...(requestId ? { 'x-request-id': requestId } : {}),
        },
        signal: signal
          ? AbortSignal.any([signal, AbortSignal.timeout(this.options.timeoutMs)])
          : AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (err) {
      if (signal?.aborted) throw err;
      throw new ServiceUnavailableError('Auth service is unavailable. Please try again shortly.');
    }
    const parsed = ApiKeyList.safeParse(await res.json().catch(() => undefined));
    if (!res.ok || !parsed.success)
      throw new ServiceUnavailableError('Auth service is unavailable. Please try again shortly.');
    return parsed.data.keys;
  }
}
