// Chat remote: exposes the chat workspace (personas, conversations, streamed replies) to the shell.
// Served by the gateway at /remotes/chat/; `publicPath: 'auto'` lets its chunks load from wherever
// remoteEntry.js was found, so the same build works at any path.
const path = require('node:path');
const CopyPlugin = require('copy-webpack-plugin');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const { exposesOf } = require('../federation/exposes');
const { sharedSingletons } = require('../federation/shared');
const { baseConfig, compressionPlugins } = require('../federation/webpackBase');

/**
 * Hands-free voice's detector runs from files fetched at run time, not bundled: the Silero VAD model and the audio
 * worklet from @ricky0123/vad-web, ONNX Runtime Web's WebAssembly build and its loader. They go to dist/vad/, served
 * beside the chunks (src/voice/handsFree.ts), and are fetched only when hands-free voice starts.
 */
const vadDist = path.dirname(require.resolve('@ricky0123/vad-web'));
const ortDist = path.dirname(require.resolve('onnxruntime-web/wasm'));
const VAD_ASSETS = [
  path.join(vadDist, 'vad.worklet.bundle.min.js'),
  path.join(vadDist, 'silero_vad_v5.onnx'),
  path.join(ortDist, 'ort-wasm-simd-threaded.mjs'),
  path.join(ortDist, 'ort-wasm-simd-threaded.wasm'),
];

/** react, react-dom, react-router-dom, react-query, emotion and @kasa/api-client: singletons, nothing else. */
const shared = sharedSingletons(require('./package.json'));

/**
 * KaTeX's stylesheet and fonts (src/markdown/katexChunk.ts) come from its npm package through the build: the CSS is
 * part of the lazy "katex" chunk and added to the page when that chunk runs (a reply with maths), and each font it
 * names becomes a hashed file beside the chunks, fetched by the browser only when a formula uses it.
 */
const STYLESHEET_RULES = [
  { test: /\.css$/, use: ['style-loader', { loader: 'css-loader', options: { sourceMap: false } }] },
  {
    test: /\.(?:woff2?|ttf)$/,
    type: 'asset/resource',
    generator: { filename: 'fonts/[name].[contenthash:8][ext]' },
  },
];

module.exports = (env, argv) => {
  const production = argv.mode === 'production';
  // Behind the dev server the standalone page lives at /, so deep links (/chat/<id>) need absolute script URLs; a
  // built dist/index.html uses relative ones so that it also opens from /remotes/chat/.
  const htmlPublicPath = env.WEBPACK_SERVE ? '/' : 'auto';
  const base = baseConfig({ dir: __dirname, uniqueName: 'kasa_chat', production });
  return {
    ...base,
    module: { ...base.module, rules: [...base.module.rules, ...STYLESHEET_RULES] },
    plugins: [
      new ModuleFederationPlugin({
        name: 'chat',
        filename: 'remoteEntry.js',
        exposes: exposesOf('chat'),
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
      new CopyPlugin({ patterns: VAD_ASSETS.map((from) => ({ from, to: 'vad/[name][ext]' })) }),
      ...compressionPlugins(production),
    ],
    performance: { hints: false },
    // ONNX Runtime's build has a Node.js branch that calls require() by a computed name; browsers never take it.
    ignoreWarnings: [{ module: /onnxruntime-web/, message: /Critical dependency: require function/ }],
    devServer: {
      port: 3002,
      historyApiFallback: true,
      headers: { 'Access-Control-Allow-Origin': '*' },
      // The API of a running platform (npm start), so that the standalone page can sign in and chat.
      proxy: [{ context: ['/api'], target: process.env.KASA_API_URL || 'http://localhost:8080' }],
    },
  };
};
