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
  // One interface-language context for the whole page: the shell's provider reaches every remote's hooks.
  '@kasa/i18n',
  // The design system, icons included: the shell's copy serves every remote (and UI_WIDGETS, its other entry
  // point). The icons are the ones @kasa/ui lists from lucide-react (the whole set would be on every first load);
  // lucide-react itself is not shared, so a frontend that imports it directly bundles just the icons it uses.
  '@kasa/ui',
];

/**
 * @kasa/ui's second entry point, a singleton of its own: its composite components (tabs, dialogs, the copy button…).
 * A shared module is never tree-shaken, so with one entry every page's first load would carry them all; apart, a
 * page loads them when it first draws one. Pinned, like '@kasa/ui', to the range in the app's package.json.
 */
const UI_WIDGETS = '@kasa/ui/widgets';
// '@kasa/ui/tokens', '@kasa/ui/standalone' and '@kasa/ui/routing' are not shared: the shell's theme bundles the
// first, only a remote running alone (its bootstrap, never a page of the product) loads the second, and the third is
// one small hook each remote bundles.

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
  shared[UI_WIDGETS] = { ...shared['@kasa/ui'] };
  // React Router is provided as the subset in ./react-router-dom.ts (see there why), under its usual key, with
  // the real package version so that version checks stay meaningful.
  shared['react-router-dom'] = {
    ...shared['react-router-dom'],
    import: path.join(__dirname, 'react-router-dom.ts'),
    version: require('react-router-dom/package.json').version,
  };
  return shared;
}

module.exports = { sharedSingletons, SINGLETONS };
