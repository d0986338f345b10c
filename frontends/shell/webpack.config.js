// Shell host: owns the router, navigation, auth state, theme and toasts, and loads the remotes at runtime.
// Remote locations are not compiled in: the build emits dist/remotes.json, which the shell fetches on start and
// hands to the federation runtime, so a remote can move (or a deploy can swap the file) without a rebuild.
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const { sharedSingletons } = require('../federation/shared');
const path = require('node:path');
const { baseConfig, compressionPlugins, PublicFilesPlugin } = require('../federation/webpackBase');

/** react, react-dom, react-router-dom, react-query, emotion and @kasa/api-client: singletons, nothing else. */
const shared = sharedSingletons(require('./package.json'));

/** Where each remote's remoteEntry.js lives, as the gateway serves them; overridable per build by env. */
const remotes = {
  marketing: process.env.KASA_REMOTE_MARKETING_URL || '/remotes/marketing/remoteEntry.js',
  chat: process.env.KASA_REMOTE_CHAT_URL || '/remotes/chat/remoteEntry.js',
  developer: process.env.KASA_REMOTE_DEVELOPER_URL || '/remotes/developer/remoteEntry.js',
  admin: process.env.KASA_REMOTE_ADMIN_URL || '/remotes/admin/remoteEntry.js',
};

/** Emits remotes.json beside index.html. */
class RemotesManifestPlugin {
  constructor(manifest) {
    this.manifest = manifest;
  }

  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('RemotesManifestPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'RemotesManifestPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          const json = `${JSON.stringify(this.manifest, null, 2)}\n`;
          compilation.emitAsset('remotes.json', new sources.RawSource(json));
        },
      );
    });
  }
}

module.exports = (_env, argv) => {
  const production = argv.mode === 'production';
  return {
    ...baseConfig({ dir: __dirname, uniqueName: 'kasa_shell', production }),
    plugins: [
      new ModuleFederationPlugin({
        name: 'shell',
        // No compile-time remotes: src/remotes/manifest.ts registers them from remotes.json.
        remotes: {},
        shared,
        // Host-provided singletons win; remotes' entries are only fetched when one of their modules is needed.
        shareStrategy: 'loaded-first',
        dts: false,
        manifest: false,
        // Entries are plain remoteEntry.js URLs (no mf-manifest snapshots) and the shell only runs in browsers.
        experiments: { optimization: { disableSnapshot: true, target: 'web' } },
      }),
      new RemotesManifestPlugin(remotes),
      // Absolute script URLs: index.html is the SPA fallback for every path, /chat/anything included.
      new HtmlWebpackPlugin({ template: './public/index.html', publicPath: '/' }),
      // The favicon, the web app manifest and its icons, served from the site's root.
      new PublicFilesPlugin({ dir: path.join(__dirname, 'public'), skip: ['index.html'] }),
      ...compressionPlugins(production),
    ],
    performance: { hints: false },
  };
};
