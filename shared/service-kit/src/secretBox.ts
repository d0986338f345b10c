import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 'v1';

/**
 * Encrypts the secrets a service keeps in its database (auth: a team's single sign-on client secret, a sign-in's PKCE
 * verifier; chat: AI provider keys set by operators) with AES-256-GCM: a random 12-byte IV per secret, stored as `v1.<iv>.<tag>.<ciphertext>` (base64url). The
 * additional data names what the secret is for (`team:<id>:sso-client-secret`), so a sealed value copied onto another
 * record does not open there. The key and the secrets never reach a log.
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== KEY_BYTES) throw new Error(`the secrets key must be ${KEY_BYTES} bytes`);
    this.#key = Buffer.from(key);
  }

  seal(plain: string, aad: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url'));
    return [VERSION, ...parts].join('.');
  }

  /** The secret sealed for `aad`; throws when the value was altered, sealed for something else or by another key. */
  open(sealed: string, aad: string): string {
    const [version, iv, tag, ciphertext, ...rest] = sealed.split('.');
    if (version !== VERSION || iv === undefined || tag === undefined || ciphertext === undefined || rest.length > 0)
      throw new Error('not a sealed secret');
    const ivBytes = Buffer.from(iv, 'base64url');
    const tagBytes = Buffer.from(tag, 'base64url');
    if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, ivBytes, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(tagBytes);
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }

  /** What util.inspect and JSON show of a box: never its key. */
  toJSON(): string {
    return 'SecretBox';
  }
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return 'SecretBox';
  }
}

/**
 * The box over the service's secrets key (AUTH_SECRETS_KEY, CHAT_SECRETS_KEY: base64 of 32 bytes) when given. Otherwise, outside production, the key kept in
 * `keysDir/secrets-key`, made on first start (mode 0600) like the signing key, so that stored secrets still open after
 * a restart; with no directory (a test's app), a key of this process only. In production without the key: null, and
 * what needs it is refused rather than run on a key that a new replica would not share.
 */
export function loadSecretBox(options: { key?: string; keysDir: string; production: boolean }): SecretBox | null {
  if (options.key) {
    const key = Buffer.from(options.key, 'base64');
    if (key.length !== KEY_BYTES) throw new Error('the secrets key must be base64 of 32 bytes');
    return new SecretBox(key);
  }
  if (options.production) return null;
  if (!options.keysDir) return new SecretBox(randomBytes(KEY_BYTES));
  const file = path.join(options.keysDir, 'secrets-key');
  if (fs.existsSync(file)) return new SecretBox(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64'));
  const key = randomBytes(KEY_BYTES);
  fs.mkdirSync(options.keysDir, { recursive: true, mode: 0o700 });
  try {
    // 'wx': of two processes starting at once, the second reads the first one's key instead of replacing it.
    fs.writeFileSync(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return new SecretBox(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64'));
  }
  return new SecretBox(key);
}
