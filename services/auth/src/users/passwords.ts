import argon2 from 'argon2';

/** OWASP's argon2id baseline (19 MiB, 2 iterations, 1 lane): strong, and quick enough for a 2-core machine. */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS);
}

// A real hash to verify against when the email is unknown, so a failed login takes as long either way
// and does not reveal which emails have accounts.
let decoyHash: Promise<string> | undefined;

export async function verifyPassword(hash: string | null | undefined, password: string): Promise<boolean> {
  if (!hash) {
    decoyHash ??= hashPassword('kasa-decoy-password');
    await argon2.verify(await decoyHash, password).catch(() => false);
    return false;
  }
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}
