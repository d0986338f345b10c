/**
 * Revoked token ids, each remembered only until its token would have expired anyway (after that, expiry rejects the
 * token on its own). Fed by the `auth.token.revoked` broadcast; read on every authenticated request.
 */
export class RevocationList {
  /** jti → expiry of the revoked token, in seconds since the epoch (as in the token's `exp`). */
  private readonly expiresAtByJti = new Map<string, number>();
  private pruneTimer?: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {}

  revoke(jti: string, expiresAtSeconds: number): void {
    if (expiresAtSeconds * 1000 <= this.now()) return;
    this.expiresAtByJti.set(jti, expiresAtSeconds);
  }

  isRevoked(jti: string): boolean {
    const expiresAt = this.expiresAtByJti.get(jti);
    if (expiresAt === undefined) return false;
    if (expiresAt * 1000 > this.now()) return true;
    this.expiresAtByJti.delete(jti);
    return false;
  }

  /** Forgets revocations whose tokens have expired. */
  prune(): void {
    const nowMs = this.now();
    for (const [jti, expiresAt] of this.expiresAtByJti) if (expiresAt * 1000 <= nowMs) this.expiresAtByJti.delete(jti);
  }

  startPruning(intervalMs = 60_000): this {
    this.pruneTimer ??= setInterval(() => this.prune(), intervalMs).unref();
    return this;
  }

  stop(): void {
    clearInterval(this.pruneTimer);
    this.pruneTimer = undefined;
  }

  get size(): number {
    return this.expiresAtByJti.size;
  }
}
