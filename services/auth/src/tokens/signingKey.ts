import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The RS256 key auth signs tokens with, and its public half as a JSON Web Key Set for the gateway. */
export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  jwks: { keys: Array<Record<string, unknown>> };
}

export function signingKeyFromPem(pem: string): SigningKey {
  const privateKey = createPrivateKey(pem);
  const publicKey = createPublicKey(privateKey);
  const jwk = publicKey.export({ format: 'jwk' });
  // RFC 7638 thumbprint: a stable key id that changes only when the key does.
  const kid = createHash('sha256')
    .update(JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n }))
    .digest('base64url');
  return { kid, privateKey, publicKey, jwks: { keys: [{ ...jwk, kid, alg: 'RS256', use: 'sig' }] } };
}

export function generateSigningKey(): SigningKey {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return signingKeyFromPem(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
}

/**
 * The key from JWT_PRIVATE_KEY when given; otherwise the one kept in `keysDir`, made on first start (mode 0600) so
 * that tokens stay valid across restarts of a development machine.
 */
export function loadSigningKey(options: { pem?: string; keysDir: string }): SigningKey {
  if (options.pem) return signingKeyFromPem(options.pem.replace(/\\n/g, '\n'));
  const file = path.join(options.keysDir, 'jwt-signing-key.pem');
  if (fs.existsSync(file)) return signingKeyFromPem(fs.readFileSync(file, 'utf8'));
  const key = generateSigningKey();
  fs.mkdirSync(options.keysDir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, key.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), { mode: 0o600 });
  return key;
}
