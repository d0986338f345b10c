/**
 * Integration suites run what ships: the tsc output in each package's dist/, with import() handled by Node's own
 * loader as in production (tests/jest/resolveBuilt.js, environment.js and distTransform.js).
 */
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const fromRoot = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');

describe('the code an integration test loads', () => {
  it('is the built dist/ output where the test names a package source file', () => {
    expect(fromRoot(require.resolve('../../services/auth/src/app'))).toBe('services/auth/dist/app.js');
    expect(fromRoot(require.resolve('../../gateway/src/auth/apiKeyVerifier'))).toBe(
      'gateway/dist/auth/apiKeyVerifier.js',
    );
  });

  it("is each @kasa package's built main, except the packages tsc does not build", () => {
    expect(fromRoot(require.resolve('@kasa/service-kit'))).toBe('shared/service-kit/dist/index.js');
    expect(fromRoot(require.resolve('@kasa/sdk'))).toBe('sdks/js/dist/cjs/index.js');
    expect(fromRoot(require.resolve('@kasa/test-kit'))).toBe('shared/test-kit/src/index.ts');
  });

  it('gets a CommonJS package from import() in built code the way Node gives it: exports under default', async () => {
    // geoip-lite's functions are not found by Node's static scan of CommonJS exports: production sees them only on
    // `default`, and so must a test of the built code.
    const loaded = (await (
      globalThis as unknown as { __kasaNativeImport: (specifier: string, parent: string) => Promise<unknown> }
    ).__kasaNativeImport('geoip-lite', path.join(ROOT, 'services/voice/dist/geo/geoDatabase.js'))) as {
      lookup?: unknown;
      default: { lookup: unknown };
    };
    expect(loaded.lookup).toBeUndefined();
    expect(typeof loaded.default.lookup).toBe('function');
  });
});
