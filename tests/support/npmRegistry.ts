import fs from 'node:fs';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { runServer } from 'verdaccio';
import { closeAtTeardown } from './leftovers';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { freePort } = require('../../scripts/embedded-mongo') as { freePort: () => Promise<number> };

export interface NpmRegistry {
  /** The registry's address, ending in `/` as npm writes it. */
  url: string;
  /**
   * An npm user config (for NPM_CONFIG_USERCONFIG) that makes this registry npm's registry, with a cache of its own
   * and a token for publishing.
   */
  npmrc: string;
  stop(): Promise<void>;
}

/**
 * A Verdaccio npm registry in this process, on a free port of the test run's range, with its configuration and
 * storage in a temporary folder. It has no uplinks (a package it does not hold is a 404, never fetched from
 * npmjs.com), anyone may read it, and anonymous publishing is allowed for `@kasa/*` only.
 */
export async function startNpmRegistry(): Promise<NpmRegistry> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-npm-registry-'));
  const config = path.join(dir, 'config.yaml');
  fs.writeFileSync(
    config,
    [
      `storage: ${JSON.stringify(path.join(dir, 'storage'))}`,
      'auth:',
      '  htpasswd:',
      `    file: ${JSON.stringify(path.join(dir, 'htpasswd'))}`,
      '    max_users: -1',
      'uplinks: {}',
      'packages:',
      "  '@kasa/*':",
      '    access: $all',
      '    publish: $all',
      "  '**':",
      '    access: $all',
      '    publish: $authenticated',
      'log: { type: stdout, format: json, level: error }',
      '',
    ].join('\n'),
  );
  const server = (await runServer(config)) as Server;
  const port = await freePort();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${port}/`;

  const npmrc = path.join(dir, 'npmrc');
  fs.writeFileSync(
    npmrc,
    [
      `registry=${url}`,
      `@kasa:registry=${url}`,
      // npm asks for a credential before it publishes; Verdaccio takes a token it did not issue as anonymous.
      `//127.0.0.1:${port}/:_authToken=anonymous`,
      `cache=${path.join(dir, 'npm-cache')}`,
      'audit=false',
      'fund=false',
      'update-notifier=false',
      // Lockfiles say where each package came from.
      'omit-lockfile-registry-resolved=false',
      '',
    ].join('\n'),
  );

  const stop = async () => {
    unregister();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const unregister = closeAtTeardown(`the npm registry at ${url}`, stop);
  return { url, npmrc, stop };
}

/**
 * The environment for npm with `npmrc` as its only user config: npm's own `npm_config_*` variables (set when jest
 * runs under `npm test`) are left out, since they would win over the file.
 */
export function npmEnv(npmrc: string, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const kept = Object.entries(env).filter(([name]) => !/^npm_config_/i.test(name));
  return { ...Object.fromEntries(kept), NPM_CONFIG_USERCONFIG: npmrc };
}
