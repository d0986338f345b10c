// Built code (a package's dist/*.js) is already CommonJS: it runs as tsc emitted it, except that `import('pkg')` goes to
// Node's own loader (see environment.js), because jest's sandbox cannot run a real dynamic import.
const crypto = require('node:crypto');

const DYNAMIC_IMPORT = /\bimport\((['"])([^'"]+)\1\)/g;

module.exports = {
  process(source) {
    return {
      code: source.replace(
        DYNAMIC_IMPORT,
        (_all, quote, specifier) => `__kasaNativeImport(${quote}${specifier}${quote}, __filename)`,
      ),
    };
  },
  getCacheKey(source, filename) {
    return crypto
      .createHash('sha256')
      .update('kasa-dist-1\0')
      .update(filename)
      .update('\0')
      .update(source)
      .digest('hex');
  },
};
