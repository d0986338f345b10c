// The node test environment, plus the native dynamic import that built code needs. tsc's CommonJS output keeps
// `import('pkg')` as a real import(); jest's sandbox cannot run one (and its ESM emulation exposes every CommonJS key
// as a named export, which Node does not), so distTransform.js routes such calls here, to Node's own loader, where a
// package gets exactly the module namespace it gets in production.
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
  }
}

module.exports = KasaEnvironment;
