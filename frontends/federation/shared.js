// The Module Federation `shared` configuration of every Kasa frontend, in one place so that the shell and the
// remotes can never disagree. Only these are shared, each as a singleton whose requiredVersion is the range in
// the app's package.json.
const path = require('node:path');

const SINGLETONS = [
  'react',
  'react-dom',
  'react-router-dom',
  '@tanstack/react-query',
  '@emotion/react',
  '@emotion/styled',
  '@kasa/api-client',
  'lucide-react',
  // One interface-language context for the whole page: the shell's provider reaches every remote's hooks.
  '@kasa/i18n',
];

/**
 * @param {{ dependencies: Record<string, string> }} appPackage the frontend's package.json
 * @returns {Record<string, object>} the `shared` option for ModuleFederationPlugin
 */
function sharedSingletons(appPackage) {
  const deps = appPackage.dependencies;
  const shared = {};
  for (const name of SINGLETONS) {
    if (!deps[name]) throw new Error(`${name} must be a dependency of every frontend (it is a shared singleton)`);
    shared[name] = { singleton: true, requiredVersion: deps[name] };
  }
  // React Router is provided as the subset in ./react-router-dom.ts (see there why), under its usual key, with
  // the real package version so that version checks stay meaningful.
  shared['react-router-dom'] = {
    ...shared['react-router-dom'],
    import: path.join(__dirname, 'react-router-dom.ts'),
    version: require('react-router-dom/package.json').version,
  };
  // lucide-react likewise: the icons in use (./lucide-react.ts), so that one copy of them serves every frontend
  // and the rest of the set stays out of the bundles.
  shared['lucide-react'] = {
    ...shared['lucide-react'],
    import: path.join(__dirname, 'lucide-react.ts'),
    version: require('lucide-react/package.json').version,
  };
  return shared;
}

module.exports = { sharedSingletons, SINGLETONS };
