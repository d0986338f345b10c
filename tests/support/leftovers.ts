/**
 * What a test file started and has not closed yet (a browser, a platform's processes), for the test environment
 * (tests/jest/environment.js) to close after the file's own afterAll hooks: a file whose beforeAll failed half-way
 * has no handle on what did start, and a Chromium or service left running would keep jest from exiting.
 */
type Close = () => Promise<unknown>;

declare global {
  var __kasaLeftovers: Map<Close, string> | undefined;
}

/** Registers `close` under a name for the log; returns the function that unregisters it once closed. */
export function closeAtTeardown(what: string, close: Close): () => void {
  globalThis.__kasaLeftovers?.set(close, what);
  return () => {
    globalThis.__kasaLeftovers?.delete(close);
  };
}
