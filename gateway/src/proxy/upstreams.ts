import { Pool } from 'undici';

/** One service behind the gateway and the pooled keep-alive connections to it. */
export interface Upstream {
  /** The service endpoint's name in gateway.config.yml, e.g. `chat`. */
  name: string;
  /** How errors name it: "Chat service is unavailable...". */
  label: string;
  origin: string;
  pool: Pool;
}

/**
 * One undici Pool per upstream origin, shared by every pipeline that proxies there: keep-alive connections,
 * no pipelining (a slow or streaming response must not hold up the requests queued behind it on its socket), no
 * cap on connections (every streamed chat holds one for its whole reply, so a cap would queue new requests behind
 * long streams), a short connect timeout so a dead upstream is reported at once, a headers timeout for the wait for
 * the answer, and no body timeout (a streamed reply may pause between tokens for as long as the model thinks).
 */
export class Upstreams {
  private readonly byName = new Map<string, Upstream>();

  constructor(private readonly options: { connectTimeoutMs: number; headersTimeoutMs: number }) {}

  get(name: string, url: string): Upstream {
    const existing = this.byName.get(name);
    if (existing) return existing;
    const origin = new URL(url).origin;
    const pool = new Pool(origin, {
      connections: null,
      pipelining: 1,
      connect: { timeout: this.options.connectTimeoutMs },
      headersTimeout: this.options.headersTimeoutMs,
      bodyTimeout: 0,
      keepAliveTimeout: 10_000,
    });
    const upstream = { name, label: name.charAt(0).toUpperCase() + name.slice(1), origin, pool };
    this.byName.set(name, upstream);
    return upstream;
  }

  /** Lets in-flight requests finish for up to `graceMs`, then cuts what is left (e.g. endless streams). */
  async close(graceMs = 5_000): Promise<void> {
    await Promise.all(
      [...this.byName.values()].map(async ({ pool }) => {
        let timer: NodeJS.Timeout | undefined;
        const deadline = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, graceMs);
        });
        await Promise.race([pool.close(), deadline]);
        clearTimeout(timer);
        if (!pool.destroyed) await pool.destroy().catch(() => undefined);
      }),
    );
    this.byName.clear();
  }
}
