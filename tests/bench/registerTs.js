// @ts-check
/**
 * Lets the (plain Node) benchmark runner require TypeScript files such as ../support/platform.ts: each .ts file
 * is compiled to CommonJS by @swc/core as it is loaded. Workspace packages resolve to their built dist/, so run
 * `npm run build` first (npm run bench does).
 */
const { addHook } = require('pirates');
const { transformSync } = require('@swc/core');

addHook(
  (code, filename) =>
    transformSync(code, {
      filename,
      sourceMaps: 'inline',
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'commonjs' },
    }).code,
  { exts: ['.ts'], ignoreNodeModules: true },
);
