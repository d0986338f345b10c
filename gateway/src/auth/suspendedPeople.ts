import type { Logger } from '@kasa/service-kit';
import { Pool } from 'undici';
import { z } from 'zod';

const SNAPSHOT_PATH = '/internal/suspensions';
const Snapshot = z.object({ userIds: z.array(z.string().max(64)).max(100_000) });

/**
 * The accounts an operator has suspended: their access tokens and API keys are refused on every request (401), as a
 * revoked token is. Fed by `auth.user.suspended` and `auth.user.restored` on each instance's broadcast queue (the
 * person is refused within milliseconds of the event), and by a snapshot read from the auth service at start and every
 * `refreshMs`, which covers events missed while the broker was away. One `Set` lookup per authenticated request.
 */
export class SuspendedPeople {
  private readonly ids = new Set<string>();
  /** Bumped by every event: a snapshot fetched across one is older than what the event said, and is not applied. */
  private generation = 0;
  private timer?: NodeJS.Timeout;
  private pool?: Pool;

  has(userId: string): boolean {
    return this.ids.size > 0 && this.ids.has(userId);
  }

  suspend(userId: string): void {
    this.generation += 1;
    this.ids.add(userId);
  }

  restore(userId: string): void {
    this.generation += 1;
    this.ids.delete(userId);
  }

  /** Replaces the list with auth's snapshot, unless an event arrived since the snapshot was asked for. */
  apply(userIds: readonly string[], askedAtGeneration: number): boolean {
    if (askedAtGeneration !== this.generation) return false;
    this.ids.clear();
    for (const id of userIds) this.ids.add(id);
    return true;
  }

  get size(): number {
    return this.ids.size;
  }

  /**
   * Reads auth's snapshot now and every `refreshMs`; `onSuspended` runs for each person newly found suspended (the
   * gateway drops their cached API keys). A failed read keeps the list as it is and is tried again next time.
   */
  startRefreshing(options: {
    authServiceUrl: string;
    refreshMs: number;
    logger: Logger;
    onSuspended?: (userId: string) => void;
  }): this {
    const { logger } = options;
    this.pool ??= new Pool(new URL(options.authServiceUrl).origin, {
      connections: 1,
      connect: { timeout: 2_000 },
      headersTimeout: 5_000,
      bodyTimeout: 5_000,
    });
    const pool = this.pool;
    const refresh = async () => {
      const generation = this.generation;
      try {
        const res = await pool.request({ method: 'GET', path: SNAPSHOT_PATH });
        const body: unknown = await res.body.json().catch(() => undefined);
        const snapshot = res.statusCode === 200 ? Snapshot.safeParse(body) : undefined;
        if (!snapshot?.success) {
          logger.warn({ status: res.statusCode }, 'unexpected answer from the suspended accounts list');
          return;
        }
        const before = new Set(this.ids);
        if (this.apply(snapshot.data.userIds, generation)) {
          for (const id of snapshot.data.userIds) if (!before.has(id)) options.onSuspended?.(id);
        }
      } catch (err) {
        logger.debug({ err: (err as Error).message }, 'suspended accounts list not read; retrying later');
      }
    };
    void refresh();
    this.timer ??= setInterval(() => void refresh(), options.refreshMs).unref();
    return this;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.pool?.close();
    this.pool = undefined;
  }
}
