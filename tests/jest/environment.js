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
      return import(pathToFileURL(createRequire(parentFile).resolve(specifier)).href);
    };
  }
}

module.exports = KasaEnvironment;
