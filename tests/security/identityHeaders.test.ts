import { GatewayIdentityHeaders } from '@kasa/contracts';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Only the gateway says who is calling. Services trust the identity headers (`x-kasa-user-id`, `x-kasa-username`,
 * `x-kasa-tier`, `x-kasa-token-id`, `x-kasa-api-key-id`) because only the gateway reaches them; a service that sent
 * them itself to call another would be trusted as the gateway is, with an identity nobody verified. A service needing
 * to know something of another's data keeps a projection fed by events (status: whose API key is) or forwards the
 * caller's own credential. This reads the code every service runs for a request that carries them.
 */
const ROOT = path.resolve(__dirname, '../..');
const NAMES = Object.values(GatewayIdentityHeaders);

/** What in `source` puts an identity header on a message: each finding names the header and how. */
function identitySent(source: string): string[] {
  const found: string[] = [];
  // The header's name spelled out in code (not in a comment's backticks): services name them through the contract.
  for (const name of NAMES) if (new RegExp(`['"]${name}['"]`, 'i').test(source)) found.push(`'${name}' spelled out`);
  // The contract's constant as a field being written: { [GatewayIdentityHeaders.userId]: ... } or out[...] = ...
  for (const match of source.matchAll(/\[\s*GatewayIdentityHeaders\.(\w+)\s*\]\s*(?::|=(?!=))/g))
    found.push(`GatewayIdentityHeaders.${match[1]} written`);
  // ...or set: headers.set(GatewayIdentityHeaders.tier, ...), req.setHeader(...), headers.append(...).
  for (const match of source.matchAll(/\.(?:set|setHeader|append)\(\s*GatewayIdentityHeaders\.(\w+)\s*,/g))
    found.push(`GatewayIdentityHeaders.${match[1]} set`);
  // The test kit's helper, which makes them for a service's own tests.
  if (/\bidentityHeaders\s*\(/.test(source)) found.push('identityHeaders() of the test kit');
  return found;
}

/** The TypeScript a package runs (its src/, without the tests beside the code). */
function sourcesOf(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((entry) => {
    const file = path.join(entry.parentPath, entry.name);
    return entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

const packagesIn = (folder: string) =>
  fs
    .readdirSync(path.join(ROOT, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(folder, entry.name));

describe('identity headers', () => {
  it('are recognised wherever code sends them: the gateway does, and so did status’s old call to auth', () => {
    const gateway = fs.readFileSync(path.join(ROOT, 'gateway/src/proxy/headers.ts'), 'utf8');
    expect(identitySent(gateway)).toEqual(
      expect.arrayContaining(['GatewayIdentityHeaders.userId written', 'GatewayIdentityHeaders.apiKeyId written']),
    );
    // What services/status/src/analytics/keyOwnership.ts did before status learnt key owners from auth's events.
    const forged = `fetch(new URL('/api/developer/keys', authUrl), {
      headers: { [GatewayIdentityHeaders.userId]: who.userId, [GatewayIdentityHeaders.tier]: who.tier } })`;
    expect(identitySent(forged)).toEqual([
      'GatewayIdentityHeaders.userId written',
      'GatewayIdentityHeaders.tier written',
    ]);
    expect(identitySent(`headers.set('X-Kasa-User-Id', id)`)).toEqual([`'x-kasa-user-id' spelled out`]);
    expect(identitySent(`fetch(url, { headers: identityHeaders(who) })`)).toEqual([
      'identityHeaders() of the test kit',
    ]);
    // Reading them, as every service does, is what they are for.
    expect(identitySent(`const userId = req.get(GatewayIdentityHeaders.userId);`)).toEqual([]);
  });

  it('are sent by no service, nor by the shared code services run: only the gateway sends them', () => {
    // The contracts define the names; the test kit makes them for tests that call a service as the gateway would.
    const shared = packagesIn('shared').filter((dir) => !['shared/contracts', 'shared/test-kit'].includes(dir));
    const dirs = [...packagesIn('services'), ...shared];
    expect(dirs).toEqual(expect.arrayContaining(['services/auth', 'services/status', 'shared/service-kit']));
    const files = dirs.flatMap((dir) => sourcesOf(path.join(ROOT, dir, 'src')));
    expect(files.length).toBeGreaterThan(100);
    const senders = files.flatMap((file) =>
      identitySent(fs.readFileSync(file, 'utf8')).map((how) => `${path.relative(ROOT, file)}: ${how}`),
    );
    expect(senders).toEqual([]);
  });
});
