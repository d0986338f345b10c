/**
 * The shell–remote contract, checked on every test run: the modules the shell declares (remote-modules.d.ts) and
 * loads (`RemoteModules` in manifest.ts) are exactly those the remotes expose (frontends/federation/exposes.js, which
 * every remote's webpack config uses), and each exposed file exists.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const FRONTENDS = path.resolve(__dirname, '../../..');
// exposes.js is the webpack configs' CommonJS module: read it as they do.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { REMOTE_EXPOSES } = require(path.join(FRONTENDS, 'federation/exposes.js')) as {
  REMOTE_EXPOSES: Record<string, Record<string, string>>;
};

const exposed = Object.entries(REMOTE_EXPOSES)
  .flatMap(([remote, exposes]) => Object.keys(exposes).map((name) => `${remote}/${name.replace(/^\.\//, '')}`))
  .sort();

const source = (file: string) => readFileSync(path.join(__dirname, file), 'utf8');

describe('the modules the shell loads from its remotes', () => {
  it('are declared in remote-modules.d.ts exactly as the remotes expose them', () => {
    const declared = [...source('remote-modules.d.ts').matchAll(/^declare module '([^']+)'/gm)].map((m) => m[1]);
    expect(declared.sort()).toEqual(exposed);
  });

  it('are the keys of RemoteModules, each typed by its own declaration', () => {
    const block = /export interface RemoteModules \{([^}]*)\}/.exec(source('manifest.ts'))?.[1] ?? '';
    const entries = [...block.matchAll(/'([^']+)': typeof import\('([^']+)'\)/g)];
    expect(entries.map((m) => m[1]).sort()).toEqual(exposed);
    for (const [, key, imported] of entries) expect(imported).toBe(key);
  });

  it('come from files that exist in each remote', () => {
    for (const [remote, exposes] of Object.entries(REMOTE_EXPOSES))
      for (const file of Object.values(exposes)) expect(existsSync(path.join(FRONTENDS, remote, file))).toBe(true);
  });
});
