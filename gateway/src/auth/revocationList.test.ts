import { RevocationList } from './revocationList';

describe('RevocationList', () => {
  let nowMs = 1_000_000_000_000;
  const list = () => new RevocationList(() => nowMs);

  it('reports a revoked jti until its token would have expired, then forgets it', () => {
    const revocations = list();
    revocations.revoke('t1', nowMs / 1000 + 60);
    expect(revocations.isRevoked('t1')).toBe(true);
    expect(revocations.isRevoked('t2')).toBe(false);
    nowMs += 61_000;
    expect(revocations.isRevoked('t1')).toBe(false);
    expect(revocations.size).toBe(0);
  });

  it('ignores revocations of tokens that have already expired', () => {
    const revocations = list();
    revocations.revoke('old', nowMs / 1000 - 1);
    expect(revocations.size).toBe(0);
  });

  it('prunes expired entries', () => {
    const revocations = list();
    revocations.revoke('short', nowMs / 1000 + 10);
    revocations.revoke('long', nowMs / 1000 + 1000);
    nowMs += 20_000;
    revocations.prune();
    expect(revocations.size).toBe(1);
    expect(revocations.isRevoked('long')).toBe(true);
  });
});
