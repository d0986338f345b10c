/**
 * A failed call to a cloud provider. The message names the provider and the HTTP status only: a provider's error
 * body can echo the request (the user's text) or account details, so it is never kept, logged or returned.
 */
export class CloudProviderError extends Error {
  constructor(
    readonly provider: string,
    message: string,
    readonly status?: number,
  ) {
    super(`${provider}: ${message}`);
    this.name = 'CloudProviderError';
  }
}

/** POSTs to a provider and returns the successful response; any other outcome is a CloudProviderError. */
export async function postToProvider(
  provider: string,
  url: string,
  init: { headers: Record<string, string>; body: BodyInit },
  signal: AbortSignal,
): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', headers: init.headers, body: init.body, signal, redirect: 'error' });
  } catch (err) {
    if (signal.aborted) throw signal.reason ?? err;
    throw new CloudProviderError(provider, 'could not be reached');
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw new CloudProviderError(provider, `answered HTTP ${res.status}`, res.status);
  }
  return res;
}

/** Reads a JSON answer, failing clearly when the provider sent something else. */
export async function readJson(provider: string, res: Response): Promise<unknown> {
  try {
    return await res.json();
  } catch {
    throw new CloudProviderError(provider, 'sent an answer that is not JSON');
  }
}

/** The body as bytes; an empty body is a failure (a provider that "succeeds" with no audio). */
export async function readAudio(provider: string, res: Response): Promise<Buffer> {
  const bytes = Buffer.from(await res.arrayBuffer());
  if (bytes.length === 0) throw new CloudProviderError(provider, 'sent no audio');
  return bytes;
}

/** Joins a base URL (which may end with a path, e.g. `/v1`) and a path. */
export const joinUrl = (base: string, path: string): string => `${base.replace(/\/+$/, '')}${path}`;
