// The node test environment, plus the native dynamic import that built code needs. tsc's CommonJS output keeps
// `import('pkg')` as a real import(); jest's sandbox cannot run one (and its ESM emulation exposes every CommonJS key
// as a named export, which Node does not), so distTransform.js routes such calls here, to Node's own loader, where a
// package gets exactly the module namespace it gets in production.
//
// It also closes what a test file left running: tests/support/leftovers.ts registers each browser and platform a
// file starts until it is closed. A file whose beforeAll failed half-way (a platform that did not come up while its
// browser did) has nothing to close it with, and one Chromium left running keeps jest from exiting at all.
const { createRequire, isBuiltin } = require('node:module');
const { pathToFileURL } = require('node:url');
const { TestEnvironment } = require('jest-environment-node');

class KasaEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.global.__kasaNativeImport = (specifier, parentFile) => {
      if (isBuiltin(specifier)) return import(specifier);
      let resolved;
      try {
        resolved = createRequire(parentFile).resolve(specifier);
      } catch (err) {
        // An ESM-only subpath (exported for `import` alone) cannot be resolved the CommonJS way: Node's own loader
        // resolves it (every package here is hoisted to the root node_modules, so from here as from parentFile).
        if (err.code === 'ERR_PACKAGE_PATH_NOT_EXPORTED') return import(specifier);
        throw err;
      }
      return import(pathToFileURL(resolved).href);
    };
    this.global.__kasaLeftovers = new Map();
  }

  async teardown() {
    const leftovers = [...this.global.__kasaLeftovers.entries()];
    this.global.__kasaLeftovers.clear();
    if (leftovers.length > 0)
      process.stderr.write(
        `closing what the test file left running: ${leftovers.map(([, what]) => what).join(', ')}\n`,
      );
    await Promise.allSettled(leftovers.map(([close]) => close()));
    await super.teardown();
  }
}

module.exports = KasaEnvironment;
