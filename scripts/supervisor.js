// @ts-check
/**
 * Keeps the launcher's processes running, the way a container runtime does for a pod: a process that exits while the
 * platform is up is started again on its own, after a delay that doubles with each failure in a row (0.5 s, 1 s,
 * 2 s ... 10 s at most) and starts over once the process has stayed up for a minute. The other processes go on
 * serving meanwhile. Stopping ends every process (SIGTERM, then SIGKILL after a timeout), layer by layer, never waits
 * for a process that has already exited, and may be asked for any number of times.
 */

/** @typedef {import('node:child_process').ChildProcess} ChildProcess */

/**
 * @typedef {object} Backoff
 * @property {number} initialMs the delay before the first restart
 * @property {number} maxMs the longest delay
 * @property {number} resetAfterMs a process that stayed up this long is healthy again: its next restart waits initialMs
 */

/** @type {Backoff} */
const DEFAULT_BACKOFF = { initialMs: 500, maxMs: 10_000, resetAfterMs: 60_000 };

/** What V8 writes to stderr before it aborts on reaching its heap limit (`--max-old-space-size`). */
const OUT_OF_MEMORY = /JavaScript heap out of memory|Reached heap limit|Allocation failed - process out of memory/;

/**
 * @typedef {object} Supervised
 * @property {string} name
 * @property {() => ChildProcess | Promise<ChildProcess>} start
 * @property {number} layer stopped after every process of a higher layer
 * @property {number} stopTimeoutMs SIGKILL once this long has passed after SIGTERM
 * @property {ChildProcess | undefined} child the process running now (undefined once it exited)
 * @property {Promise<void>} exited resolves once the current process has exited
 * @property {Promise<void> | undefined} starting a start under way
 * @property {number} startedAt
 * @property {number} failures restarts in a row without `resetAfterMs` up in between
 * @property {NodeJS.Timeout | undefined} timer the restart waiting out its delay
 * @property {string} stderrTail the end of what the process wrote to stderr, to tell why it exited
 */

/**
 * The delay before the restart that follows `failures` restarts in a row.
 * @param {Backoff} backoff @param {number} failures
 */
function restartDelay(backoff, failures) {
  return Math.min(backoff.initialMs * 2 ** failures, backoff.maxMs);
}

/** @param {number} ms */
const seconds = (ms) => `${ms < 10_000 ? (ms / 1000).toFixed(1) : Math.round(ms / 1000)} s`;

/**
 * How a process ended, in words: its exit code or signal, and what that usually means.
 * @param {number | null} code @param {NodeJS.Signals | null} signal @param {string} [stderrTail]
 */
function describeExit(code, signal, stderrTail = '') {
  const how = signal ? `signal ${signal}` : `exit code ${code}`;
  if (OUT_OF_MEMORY.test(stderrTail)) return `${how}: out of memory, V8's heap limit was reached`;
  if (signal === 'SIGABRT' || code === 134) return `${how}: aborted, which is how V8 ends a process out of memory`;
  if (signal === 'SIGKILL' || code === 137) return `${how}: killed (kill -9, or the system's out-of-memory killer)`;
  if (signal === 'SIGSEGV' || code === 139) return `${how}: crashed (segmentation fault)`;
  if (code === 0) return `${how}: it ended on its own`;
  return how;
}

/** @param {ChildProcess} child */
const isRunning = (child) => child.exitCode === null && child.signalCode === null;

/**
 * @param {{
 *   log: (name: string, line: string) => void,
 *   backoff?: Partial<Backoff>,
 *   stopTimeoutMs?: number,
 *   now?: () => number,
 * }} options
 */
function createSupervisor(options) {
  const backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
  const now = options.now ?? Date.now;
  const { log } = options;
  /** @type {Map<string, Supervised>} */
  const supervised = new Map();
  let stopping = false;
  /** @type {Promise<void> | undefined} */
  let stopped;

  /**
   * Follows one process of an entry: the end of its stderr, and its exit.
   * @param {Supervised} entry @param {ChildProcess} child
   */
  function watch(entry, child) {
    entry.child = child;
    entry.startedAt = now();
    entry.stderrTail = '';
    child.stderr?.on('data', (/** @type {Buffer} */ chunk) => {
      entry.stderrTail = (entry.stderrTail + chunk.toString()).slice(-4_096);
    });
    entry.exited = new Promise((resolve) => {
      /** @param {() => string} why */
      const onExit = (why) => {
        if (entry.child === child) entry.child = undefined;
        resolve();
        // The last lines on stderr (V8's out-of-memory report) may arrive just after the exit.
        if (!stopping) setTimeout(() => restartLater(entry, why()), 50);
      };
      /** @param {number | null} code @param {NodeJS.Signals | null} signal */
      const onEnd = (code, signal) => {
        const upMs = now() - entry.startedAt;
        onExit(() => `exited (${describeExit(code, signal, entry.stderrTail)}) after ${seconds(upMs)} up`);
      };
      // A process started asynchronously (the database) may have exited already: no 'exit' would come now.
      if (child.pid !== undefined && !isRunning(child)) onEnd(child.exitCode, child.signalCode);
      else child.once('exit', onEnd);
      // A process that could not be started at all (ENOENT) emits 'error' and no 'exit'.
      child.on('error', (err) => {
        if (child.pid === undefined) onExit(() => `could not start (${err.message})`);
      });
    });
    if (child.pid !== undefined) log(entry.name, `started (pid ${child.pid})`);
  }

  /** @param {Supervised} entry */
  async function launch(entry) {
    entry.timer = undefined;
    if (stopping) return;
    const started = entry.start();
    // Not awaited when it is a process already: a spawn that failed emits 'error' before an await would resume.
    const child = started instanceof Promise ? await started : started;
    if (stopping && isRunning(child)) child.kill('SIGTERM');
    watch(entry, child);
  }

  /** @param {Supervised} entry @param {string} what what happened, for the log: `exited (signal SIGKILL...)` */
  function restartLater(entry, what) {
    if (stopping) return;
    if (now() - entry.startedAt >= backoff.resetAfterMs) entry.failures = 0;
    const delay = restartDelay(backoff, entry.failures);
    entry.failures += 1;
    log(entry.name, `${what}; restarting it alone in ${seconds(delay)}`);
    entry.timer = setTimeout(() => {
      entry.starting = launch(entry).catch((err) => {
        entry.startedAt = now();
        restartLater(entry, `could not start (${err instanceof Error ? err.message : String(err)})`);
      });
    }, delay);
  }

  /** SIGTERM, then SIGKILL after the timeout; resolves once the process has exited. @param {Supervised} entry */
  async function end(entry) {
    await entry.starting?.catch(() => undefined);
    const child = entry.child;
    if (!child || !isRunning(child)) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => {
      if (!isRunning(child)) return;
      log(entry.name, `did not stop within ${seconds(entry.stopTimeoutMs)}; killing it`);
      child.kill('SIGKILL');
    }, entry.stopTimeoutMs);
    await entry.exited;
    clearTimeout(timer);
  }

  return {
    /** Whether stop() was called. */
    get stopping() {
      return stopping;
    },

    /**
     * Starts a process and keeps it running. Resolves once the first start did (rejects if it failed: a part that
     * never started is a setup problem, not a crash to heal).
     * @param {string} name
     * @param {() => ChildProcess | Promise<ChildProcess>} start
     * @param {{ layer?: number, stopTimeoutMs?: number }} [settings]
     */
    async supervise(name, start, settings = {}) {
      if (supervised.has(name)) throw new Error(`${name} is supervised already`);
      /** @type {Supervised} */
      const entry = {
        name,
        start,
        layer: settings.layer ?? 0,
        stopTimeoutMs: settings.stopTimeoutMs ?? options.stopTimeoutMs ?? 12_000,
        child: undefined,
        exited: Promise.resolve(),
        starting: undefined,
        startedAt: now(),
        failures: 0,
        timer: undefined,
        stderrTail: '',
      };
      supervised.set(name, entry);
      entry.starting = launch(entry);
      await entry.starting;
    },

    /** The process id of every part running now. @returns {Record<string, number>} */
    pids() {
      /** @type {Record<string, number>} */
      const pids = {};
      for (const { name, child } of supervised.values()) if (child?.pid) pids[name] = child.pid;
      return pids;
    },

    /**
     * Stops every process, the highest layer first, each layer's processes together; no restarts from then on.
     * Every call returns the same promise.
     */
    stop() {
      stopping = true;
      stopped ??= (async () => {
        for (const entry of supervised.values()) clearTimeout(entry.timer);
        const layers = [...new Set([...supervised.values()].map((e) => e.layer))].sort((a, b) => b - a);
        for (const layer of layers) {
          await Promise.all([...supervised.values()].filter((e) => e.layer === layer).map(end));
        }
      })();
      return stopped;
    },

    /** Kills every process at once (SIGKILL), for a second Ctrl-C. */
    kill() {
      stopping = true;
      for (const entry of supervised.values()) {
        clearTimeout(entry.timer);
        if (entry.child && isRunning(entry.child)) entry.child.kill('SIGKILL');
      }
    },
  };
}

module.exports = { createSupervisor, describeExit, restartDelay, DEFAULT_BACKOFF };
