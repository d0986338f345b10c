// The part of the webpack configuration every Kasa frontend shares: TypeScript/TSX through esbuild, content-hashed
// file names in production, `publicPath: 'auto'` so chunks load from wherever the app's entry was found, and the
// precompressed copies (brotli and gzip) of a production build that the gateway sends instead of the files.
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const CompressionPlugin = require('compression-webpack-plugin');
/** webpack's own minimizer plugin (the copy webpack itself loads for its default minimizer). */
const MinimizerPlugin = require(
  require.resolve('minimizer-webpack-plugin', { paths: [path.dirname(require.resolve('webpack/package.json'))] }),
);

const REACT_ROUTER_PRODUCTION = path.join(
  path.dirname(require.resolve('react-router')),
  '..',
  'production',
  'index.mjs',
);

/**
 * @param {{ dir: string, uniqueName: string, production: boolean }} options
 * @returns {import('webpack').Configuration}
 */
function baseConfig({ dir, uniqueName, production }) {
  return {
    entry: './src/index.ts',
    devtool: production ? 'source-map' : 'eval-cheap-module-source-map',
    output: {
      path: path.resolve(dir, 'dist'),
      publicPath: 'auto',
      filename: production ? '[name].[contenthash:8].js' : '[name].js',
      chunkFilename: production ? '[name].[contenthash:8].js' : '[name].js',
      uniqueName,
      clean: true,
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.js'],
      // Catalogues arrive parsed (icuCatalogueLoader.js): should anything import the ICU parser, only its types remain.
      alias: {
        '@formatjs/icu-messageformat-parser$': require.resolve('@formatjs/icu-messageformat-parser/no-parser.js'),
        // React Router's package exports only its development build (warnings and their messages included); a
        // production build takes the production one that ships beside it.
        ...(production ? { 'react-router$': REACT_ROUTER_PRODUCTION } : {}),
      },
    },
    // Minified by swc through webpack's own minimizer plugin: several times faster than its default (Terser, two
    // compress passes) for bundles of about the same size, which matters on a 2-core machine that builds four apps.
    optimization: production
      ? {
          minimizer: [
            new MinimizerPlugin({
              minify: MinimizerPlugin.swcMinify,
              minimizerOptions: { compress: true, mangle: true },
            }),
          ],
        }
      : undefined,
    module: {
      rules: [
        {
          test: /[\\/]src[\\/]i18n[\\/](?:[a-z]+[\\/])?[a-z]{2,3}\.json$/,
          type: 'json',
          loader: path.join(__dirname, 'icuCatalogueLoader.js'),
        },
        {
          test: /\.[jt]sx?$/,
          exclude: /node_modules/,
          loader: 'esbuild-loader',
          options: { loader: 'tsx', target: 'es2020', jsx: 'automatic' },
        },
      ],
    },
  };
}

/** What is worth compressing: text. Source maps are left out (only developer tools fetch them). */
const COMPRESSIBLE = /\.(?:js|css|html|svg|json|webmanifest)$/;

/**
 * A production build writes `<file>.br` (brotli, best quality) and `<file>.gz` (gzip -9) beside each text file, so
 * that the server sends them without compressing per request (gateway/src/web/staticPolicy.ts). A copy that does
 * not save at least a fifth of the file is not written; the file itself is then sent. Development builds: none.
 * @param {boolean} production
 * @returns {import('webpack').WebpackPluginInstance[]}
 */
function compressionPlugins(production) {
  if (!production) return [];
  return [
    new CompressionPlugin({
      test: COMPRESSIBLE,
      filename: '[path][base].br',
      algorithm: 'brotliCompress',
      compressionOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY } },
      minRatio: 0.8,
    }),
    new CompressionPlugin({
      test: COMPRESSIBLE,
      filename: '[path][base].gz',
      algorithm: 'gzip',
      compressionOptions: { level: zlib.constants.Z_BEST_COMPRESSION },
      minRatio: 0.8,
    }),
  ];
}

/**
 * Emits every file of `dir` (recursively) as an asset of the build at the same relative path, except `skip`
 * (the HTML template, which HtmlWebpackPlugin renders): icons, the web app manifest and the like. Emitted before
 * the compression step, so text files among them get compressed copies too; watched in development.
 */
class PublicFilesPlugin {
  /** @param {{ dir: string, skip?: string[] }} options */
  constructor({ dir, skip = [] }) {
    this.dir = dir;
    this.skip = new Set(skip);
  }

  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('PublicFilesPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'PublicFilesPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          compilation.contextDependencies.add(this.dir);
          for (const name of listFiles(this.dir)) {
            if (this.skip.has(name)) continue;
            const source = new sources.RawSource(fs.readFileSync(path.join(this.dir, name)));
            compilation.emitAsset(name, source);
          }
        },
      );
    });
  }
}

/** Files under `dir`, as paths relative to it with forward slashes. @param {string} dir @returns {string[]} */
function listFiles(dir) {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .flatMap((entry) =>
      entry.isFile() ? [path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')] : [],
    );
}

module.exports = { baseConfig, compressionPlugins, PublicFilesPlugin };
