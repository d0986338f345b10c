/**
 * jsdom, plus Node's fetch, streams and AbortController: jsdom has no fetch, and Node's fetch accepts only Node's
 * own AbortSignal. With these, hooks rendered in jsdom call the real Kasa API.
 *
 * Timers are Node's too (the support code that starts the platform unrefs its timers, which jsdom's numbers cannot
 * do), and unref'd: react-query keeps unused data for 5 minutes with a timer, which must not hold the test run open.
 */
const { TestEnvironment } = require('jest-environment-jsdom');

const FROM_NODE = [
  'fetch',
  'Request',
  'Response',
  'Headers',
  'FormData',
  'ReadableStream',
  'TextDecoder',
  'TextEncoder',
  'AbortController',
  'AbortSignal',
  'DOMException',
  'structuredClone',
  'clearTimeout',
  'clearInterval',
];

const unref = (timer) => {
  timer.unref();
  return timer;
};

class JsdomWithNodeFetch extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of FROM_NODE) this.global[name] = globalThis[name];
    this.global.setTimeout = (...args) => unref(setTimeout(...args));
    this.global.setInterval = (...args) => unref(setInterval(...args));
  }
}

module.exports = JsdomWithNodeFetch;
