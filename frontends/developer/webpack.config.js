// Developer remote: exposes the developer portal (keys, docs, SDKs, API tester, examples, status, analytics).
// Served by the gateway at /remotes/developer/; `publicPath: 'auto'` lets its chunks load from wherever
// remoteEntry.js was found, so the same build works at any path.
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const { exposesOf } = require('../federation/exposes');
const { sharedSingletons } = require('../federation/shared');
const { baseConfig, compressionPlugins } = require('../federation/webpackBase');

/** react, react-dom, react-router-dom, react-query, emotion and @kasa/api-client: singletons, nothing else. */
const shared = sharedSingletons(require('./package.json'));

module.exports = (env, argv) => {
  const production = argv.mode === 'production';
  // Behind the dev server the standalone page lives at /, so deep links (/developer?tab=keys) need absolute script
  // URLs; a built dist/index.html uses relative ones so that it also opens from /remotes/developer/.
  const htmlPublicPath = env.WEBPACK_SERVE ? '/' : 'auto';
  return {
    ...baseConfig({ dir: __dirname, uniqueName: 'kasa_developer', production }),
    plugins: [
      new ModuleFederationPlugin({
        name: 'developer',
        filename: 'remoteEntry.js',
        exposes: exposesOf('developer'),
        shared,
        dts: false,
        manifest: false,
        // This remote loads no other remote, entries are plain remoteEntry.js URLs (no mf-manifest snapshots) and
        // it only runs in browsers: leaving that code out of the federation runtime keeps remoteEntry.js well
        // under its 30 KB gzip budget.
        experiments: { optimization: { disableRemote: true, disableSnapshot: true, target: 'web' } },
      }),
      // The standalone page (npm run serve, or dist/index.html behind any static server) for working alone.
      new HtmlWebpackPlugin({ template: './public/index.html', publicPath: htmlPublicPath }),
      ...compressionPlugins(production),
    ],
    performance: { hints: false },
    devServer: {
      port: 3003,
      historyApiFallback: true,
      headers: { 'Access-Control-Allow-Origin': '*' },
      // The API of a running platform (npm start), so that the standalone page can sign in and use the portal.
      proxy: [{ context: ['/api'], target: process.env.KASA_API_URL || 'http://localhost:8080' }],
    },
  };
};
