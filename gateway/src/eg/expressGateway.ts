import path from 'node:path';

/**
 * Where express-gateway's own modules are. The gateway reaches into a few of them (its logger, its data store, the
 * id generator of its request context); they are loaded with the plain `require` of this module so that they are
 * the very instances EG itself uses (also under jest, whose module registry a `createRequire` would bypass).
 */
export const EG_LIB = path.join(path.dirname(require.resolve('express-gateway/package.json')), 'lib');

/** Loads one of express-gateway's internal modules, e.g. `egRequire('db')`. */
export function egRequire<T>(modulePath: string): T {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(path.join(EG_LIB, modulePath)) as T;
}

/** Loads a package as express-gateway resolves it (its own pinned copy of winston, uuid62, ...). */
export function egDependency<T>(name: string, fromDir = EG_LIB): T {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(require.resolve(name, { paths: [fromDir] })) as T;
}

interface EgServers {
  /** EG names the HTTP server `app`. */
  app?: import('node:http').Server;
  httpsApp?: import('node:http').Server;
}

/** Boots express-gateway from a config directory (gateway.config.yml, system.config.yml, models/). */
export async function runExpressGateway(configDir: string): Promise<import('node:http').Server> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const createGateway = require('express-gateway') as () => {
    load(dir: string): { run(): Promise<[EgServers, unknown]> };
  };
  const [servers] = await createGateway().load(configDir).run();
  if (!servers.app)
    throw new Error('express-gateway started no HTTP server: gateway.config.yml needs an `http` section');
  return servers.app;
}
