import { randomInt } from 'node:crypto';

/** Crockford's base32 alphabet: upper case, without I, L, O and U, so a reference read aloud is not misheard. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A random reference such as `KASA-7M3QK9D2XH` (`prefix` then `length` characters; 5 bits of randomness each). */
export function newReference(prefix: string, length: number): string {
  let body = '';
  for (let i = 0; i < length; i++) body += ALPHABET[randomInt(ALPHABET.length)];
  return `${prefix}-${body}`;
}

/** Transaction references of payments: `KASA-` and 10 characters (50 bits). */
export const newPaymentReference = () => newReference('KASA', 10);
