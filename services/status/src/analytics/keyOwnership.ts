import { ApiKeyList, GatewayIdentityHeaders } from '@kasa/contracts';
import { ServiceUnavailableError, type Identity } from '@kasa/service-kit';
import type { RequestStore } from '../requests/requestStore';

/**
 * Whether an API key id is one of the caller's keys: yes if the caller's own stored calls were made with it (the
 * gateway recorded the key's owner), else the auth service, which owns the keys, is asked for the caller's list.
 */
export class KeyOwnership {
  constructor(private readonly options: { requests: RequestStore; authServiceUrl: string; timeoutMs: number }) {}

  async isOwnedBy(who: Identity, keyId: string, requestId?: string): Promise<boolean> {
    if (await this.options.requests.hasCallsWithKey(who.userId, keyId)) return true;
    const keys = await this.keysOf(who, requestId);
    return keys.some((key) => key.id === keyId);
  }

  private async keysOf(who: Identity, requestId?: string): Promise<ApiKeyList['keys']> {
    let res: Response;
    try {
      res = await fetch(new URL('/api/developer/keys', this.options.authServiceUrl), {
        headers: {
          [GatewayIdentityHeaders.userId]: who.userId,
          [GatewayIdentityHeaders.username]: encodeURIComponent(who.username),
          [GatewayIdentityHeaders.tier]: who.tier,
          ...(requestId ? { 'x-request-id': requestId } : {}),
        },
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch {
      throw new ServiceUnavailableError('Auth service is unavailable. Please try again shortly.');
    }
    const parsed = ApiKeyList.safeParse(await res.json().catch(() => undefined));
    if (!res.ok || !parsed.success)
      throw new ServiceUnavailableError('Auth service is unavailable. Please try again shortly.');
    return parsed.data.keys;
  }
}
