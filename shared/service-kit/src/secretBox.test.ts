import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { loadSecretBox, SecretBox } from './secretBox';

const AAD = 'team:64b000000000000000000001:sso-client-secret';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('seals as v1.<iv>.<tag>.<ciphertext> with a fresh IV each time, and opens what it sealed', () => {
    const sealed = box.seal('client-secret-value', AAD);
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('client-secret-value');
    expect(box.seal('client-secret-value', AAD)).not.toBe(sealed);
    expect(box.open(sealed, AAD)).toBe('client-secret-value');
  });

  it('refuses a value sealed for another team, by another key, or altered', () => {
    const sealed = box.seal('client-secret-value', AAD);
    expect(() => box.open(sealed, 'team:64b000000000000000000002:sso-client-secret')).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed, AAD)).toThrow();
    const [v, iv, tag, ciphertext] = sealed.split('.') as [string, string, string, string];
    const flipped = Buffer.from(ciphertext, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => box.open([v, iv, tag, flipped.toString('base64url')].join('.'), AAD)).toThrow();
    expect(() => box.open('v2.a.b.c', AAD)).toThrow('not a sealed secret');
  });

  it('never shows its key when logged or serialised', () => {
    expect(inspect(box)).toBe('SecretBox');
    expect(JSON.stringify({ box })).toBe('{"box":"SecretBox"}');
  });
});

describe('loadSecretBox', () => {
  it('uses AUTH_SECRETS_KEY when set, and refuses one that is not 32 bytes', () => {
    const key = randomBytes(32).toString('base64');
    const a = loadSecretBox({ key, keysDir: '', production: true })!;
    const b = loadSecretBox({ key, keysDir: '', production: true })!;
    expect(b.open(a.seal('x', AAD), AAD)).toBe('x');
    expect(() => loadSecretBox({ key: randomBytes(16).toString('base64'), keysDir: '', production: false })).toThrow(
      /32 bytes/,
    );
  });

  it('gives no box in production without the key', () => {
    expect(loadSecretBox({ keysDir: os.tmpdir(), production: true })).toBeNull();
  });

  it('outside production, makes a key once in the keys directory (mode 0600) and reads it back after a restart', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-secrets-'));
    try {
      const first = loadSecretBox({ keysDir: dir, production: false })!;
      const file = path.join(dir, 'secrets-key');
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(Buffer.from(fs.readFileSync(file, 'utf8'), 'base64')).toHaveLength(32);
      const second = loadSecretBox({ keysDir: dir, production: false })!;
      expect(second.open(first.seal('kept', AAD), AAD)).toBe('kept');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
