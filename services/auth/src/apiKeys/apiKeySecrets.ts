import { API_KEY_PREFIX } from '@kasa/contracts';
import { createHash, randomBytes } from 'node:crypto';

/** A new key: `ksk_` and 32 random bytes in base64url (256 bits). */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

/**
 * Keys are stored as a plain SHA-256 hash. Unlike a password, a key is 256 random bits that nobody can guess or look
 * up in a dictionary, so a slow salted hash (argon2) would buy nothing and cost CPU on every verification; a fast,
 * deterministic hash also lets the key be found by an index on the hash.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The parts of a key that may be shown again: the first eight characters (`ksk_` + 4) and the last four. */
export function visibleParts(key: string): { prefix: string; lastFour: string } {
  return { prefix: key.slice(0, 8), lastFour: key.slice(-4) };
}
