// Webpack loader for the message catalogues (src/i18n/<locale>.json): parses every message as ICU MessageFormat at
// build time, so the browser receives syntax trees and no ICU parser (@kasa/i18n's formatMessage.ts formats them
// with the browser's Intl). A message that is text with at most `{name}` placeholders stays a string, which keeps
// the catalogues small. A message that does not parse fails the build, naming it.
const { parse, TYPE } = require('@formatjs/icu-messageformat-parser');

/** @param {string} source @returns {string} */
function compileCatalogue(source) {
  const messages = JSON.parse(source);
  const compiled = {};
  for (const [id, message] of Object.entries(messages)) {
    let ast;
    try {
      ast = parse(message);
    } catch (error) {
      throw new Error(`message "${id}" is not valid ICU MessageFormat: ${error.message}`);
    }
    // Text with at most `{name}` placeholders ships as it is (smaller than its syntax tree); @kasa/i18n fills it.
    const simple = !message.includes("'") && ast.every((e) => e.type === TYPE.literal || e.type === TYPE.argument);
    compiled[id] = simple ? message : ast;
  }
  return JSON.stringify(compiled);
}

/** @this {import('webpack').LoaderContext<unknown>} @param {string} source */
function icuCatalogueLoader(source) {
  return compileCatalogue(source);
}

module.exports = icuCatalogueLoader;
module.exports.compileCatalogue = compileCatalogue;
