// The part of the webpack configuration every Kasa frontend shares: TypeScript/TSX through esbuild, content-hashed
// file names in production, and `publicPath: 'auto'` so chunks load from wherever the app's entry was found.
const path = require('node:path');

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
    resolve: { extensions: ['.tsx', '.ts', '.js'] },
    module: {
      rules: [
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

module.exports = { baseConfig };
