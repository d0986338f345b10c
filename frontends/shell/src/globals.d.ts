/** Set by webpack at runtime (`publicPath: 'auto'`): the URL the shell's own files are served from. */
declare const __webpack_public_path__: string;
