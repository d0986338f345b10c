import type { CallOptions, HttpClient } from '../http.js';
import type { ApiKey, CreateApiKeyRequest, CreateApiKeyResponse } from '../types.js';

/** The caller's API keys. Managing keys needs an access token (sign in first): a key cannot manage keys. */
export class ApiKeysResource {
  constructor(private readonly http: HttpClient) {}

  /** POST /api/developer/keys → `{secret, key, message}`. `secret` is shown this once: store it now. */
  create(input: CreateApiKeyRequest, options?: CallOptions): Promise<CreateApiKeyResponse> {
    return this.http.json<CreateApiKeyResponse>({
      method: 'POST',
      path: '/api/developer/keys',
      body: input,
      creates: true,
      options,
    });
  }

  /** GET /api/developer/keys → my keys, newest first, revoked ones included, masked. */
  async list(options?: CallOptions): Promise<ApiKey[]> {
    const list = await this.http.json<{ keys: ApiKey[] }>({ method: 'GET', path: '/api/developer/keys', options });
    return list.keys;
  }

  /** DELETE /api/developer/keys/:id: the key stops working (revoking it again is fine). */
  async revoke(id: string, options?: CallOptions): Promise<void> {
    await this.http.send({ method: 'DELETE', path: `/api/developer/keys/${encodeURIComponent(id)}`, options });
  }
}
