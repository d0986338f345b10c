import type { AuthResponse, CreateApiKeyResponse } from '@kasa/contracts';
import { randomUUID } from 'node:crypto';

/** A new Free account, registered through the gateway at `baseUrl` (`<prefix>_<random>`). */
export async function registerThroughGateway(baseUrl: string, prefix: string): Promise<AuthResponse> {
  const id = randomUUID().slice(0, 8);
  const res = await fetch(`${baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: `${prefix}_${id}`, email: `${prefix}.${id}@example.com`, password: 'medaase-42' }),
  });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${(await res.text()).slice(0, 200)}`);
  return (await res.json()) as AuthResponse;
}

/** A new Free account's API key (the secret), through the gateway. */
export async function freeApiKey(baseUrl: string, prefix: string, name = 'Test client'): Promise<string> {
  const { token } = await registerThroughGateway(baseUrl, prefix);
  const res = await fetch(`${baseUrl}/api/developer/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ name }),
  });
  if (res.status !== 201) throw new Error(`create key: ${res.status} ${(await res.text()).slice(0, 200)}`);
  return ((await res.json()) as CreateApiKeyResponse).secret;
}
