import { eventually } from '@kasa/test-kit';
import { spawn, type ChildProcess } from 'node:child_process';

/** scripts/supervisor.js, the launcher's process supervision, run with real child processes. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createSupervisor, describeExit, restartDelay, DEFAULT_BACKOFF } = require('../../scripts/supervisor') as {
  createSupervisor: (options: {
    log: (name: string, line: string) => void;
    backoff?: Partial<Backoff>;
    stopTimeoutMs?: number;
    now?: () => number;
  }) => Supervisor;
  describeExit: (code: number | null, signal: NodeJS.Signals | null, stderrTail?: string) => string;
  restartDelay: (backoff: Backoff, failures: number) => number;
  DEFAULT_BACKOFF: Backoff;
};

interface Backoff {
  initialMs: number;
  maxMs: number;
  resetAfterMs: number;
}

interface Supervisor {
  readonly stopping: boolean;
  supervise(
    name: string,
    start: () => ChildProcess | Promise<ChildProcess>,
    settings?: { layer?: number; stopTimeoutMs?: number },
  ): Promise<void>;
  pids(): Record<string, number>;
  stop(): Promise<void>;
  kill(): void;
}

/** A Node.js child running `code`, with its stderr piped (as the launcher's children are). */
const node = (code: string, flags: string[] = []) =>
  spawn(process.execPath, [...flags, '-e', code], { stdio: ['ignore', 'ignore', 'pipe'] });
const IDLE = 'setInterval(() => {}, 1000)';

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

let supervisor: Supervisor | undefined;
let lines: string[];
const log = (name: string, line: string) => lines.push(`${name}: ${line}`);

beforeEach(() => {
  lines = [];
});

afterEach(async () => {
  supervisor?.kill();
  supervisor = undefined;
});

describe('restartDelay', () => {
  it('doubles from 0.5 s with each restart in a row, up to 10 s', () => {
    const delays = [0, 1, 2, 3, 4, 5, 6, 10].map((n) => restartDelay(DEFAULT_BACKOFF, n));
    expect(delays).toEqual([500, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000, 10_000]);
    expect(DEFAULT_BACKOFF.resetAfterMs).toBe(60_000);
  });
});

describe('describeExit', () => {
  it('names the signal or the exit code, and what it usually means', () => {
    expect(describeExit(null, 'SIGKILL')).toMatch(/^signal SIGKILL: killed \(kill -9, or the system's out-of-memory/);
    expect(describeExit(null, 'SIGABRT')).toMatch(/^signal SIGABRT: aborted, .*out of memory/);
    expect(describeExit(134, null)).toMatch(/^exit code 134: aborted/);
    expect(describeExit(1, null)).toBe('exit code 1');
    expect(describeExit(0, null)).toBe('exit code 0: it ended on its own');
  });

  it("says out of memory when V8's report is on stderr", () => {
    const report = 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n';
    expect(describeExit(null, 'SIGABRT', report)).toBe("signal SIGABRT: out of memory, V8's heap limit was reached");
  });
});

describe('a supervised process that exits', () => {
  it('is restarted alone, and the log says which one, why and after how long', async () => {
    supervisor = createSupervisor({ log, backoff: { initialMs: 100 } });
    await supervisor.supervise('chat', () => node(IDLE));
    await supervisor.supervise('voice', () => node(IDLE));
    const before = supervisor.pids();

    process.kill(before.chat!, 'SIGKILL');
    await eventually(() => supervisor!.pids().chat !== undefined && supervisor!.pids().chat !== before.chat, {
      timeoutMs: 15_000,
      what: 'chat running again',
    });

    expect(supervisor.pids().voice).toBe(before.voice);
    expect(isAlive(before.voice!)).toBe(true);
    expect(lines.find((l) => l.startsWith('chat: exited'))).toMatch(
      /^chat: exited \(signal SIGKILL: killed \(kill -9, or the system's out-of-memory killer\)\) after \d+\.\d s up; restarting it alone in 0\.1 s$/,
    );
    expect(lines).toContain(`chat: started (pid ${supervisor.pids().chat})`);
    expect(lines.filter((l) => l.startsWith('voice:'))).toEqual([`voice: started (pid ${before.voice})`]);
  });

  it('waits twice as long after each failure in a row, up to the maximum', async () => {
    supervisor = createSupervisor({ log, backoff: { initialMs: 100, maxMs: 400 } });
    await supervisor.supervise('status', () => node('process.exit(3)'));
    await eventually(() => lines.filter((l) => l.includes('restarting')).length >= 5, {
      timeoutMs: 15_000,
      what: 'five restarts',
    });
    const delays = lines.filter((l) => l.includes('restarting')).map((l) => / in (\S+) s$/.exec(l)?.[1]);
    expect(delays.slice(0, 5)).toEqual(['0.1', '0.2', '0.4', '0.4', '0.4']);
    expect(lines[1]).toMatch(/^status: exited \(exit code 3\) after \d+\.\d s up; restarting it alone in/);
  });

  it('starts over at the shortest delay once the process has stayed up long enough', async () => {
    let clock = 0;
    const delays: number[] = [];
    supervisor = createSupervisor({
      log: (name, line) => {
        log(name, line);
        const delay = / in (\d+\.\d) s$/.exec(line)?.[1];
        if (delay) delays.push(Number(delay));
      },
      backoff: { initialMs: 100, maxMs: 10_000, resetAfterMs: 60_000 },
      now: () => clock,
    });
    await supervisor.supervise('auth', () => node(IDLE));
    const crash = async (upMs: number) => {
      const pid = supervisor!.pids().auth!;
      clock += upMs;
      process.kill(pid, 'SIGKILL');
      await eventually(() => supervisor!.pids().auth !== undefined && supervisor!.pids().auth !== pid, {
        timeoutMs: 15_000,
        what: 'auth running again',
      });
    };
    await crash(1_000);
    await crash(1_000);
    await crash(1_000);
    await crash(60_000);
    expect(delays).toEqual([0.1, 0.2, 0.4, 0.1]);
  });

  it('tries again, with backoff, to start a program that cannot be started', async () => {
    supervisor = createSupervisor({ log, backoff: { initialMs: 100 } });
    await supervisor.supervise('web', () => spawn('/nonexistent/kasa-program', [], { stdio: 'ignore' }));
    await eventually(() => lines.filter((l) => l.includes('restarting')).length >= 2, {
      timeoutMs: 15_000,
      what: 'two attempts',
    });
    expect(lines.slice(0, 2)).toEqual([
      'web: could not start (spawn /nonexistent/kasa-program ENOENT); restarting it alone in 0.1 s',
      'web: could not start (spawn /nonexistent/kasa-program ENOENT); restarting it alone in 0.2 s',
    ]);
  });

  it("tells an out-of-memory crash by V8's report", async () => {
    supervisor = createSupervisor({ log, backoff: { initialMs: 60_000, maxMs: 60_000 } });
    await supervisor.supervise('chat', () =>
      node('const kept = []; for (;;) kept.push(new Array(100_000).fill(Math.random()))', ['--max-old-space-size=16']),
    );
    await eventually(() => lines.some((l) => l.includes('restarting')), { timeoutMs: 30_000, what: 'the crash' });
    expect(lines.find((l) => l.includes('restarting'))).toMatch(
      /^chat: exited \(signal SIGABRT: out of memory, V8's heap limit was reached\) after .* restarting it alone in 60 s$/,
    );
  }, 40_000);
});

describe('stopping', () => {
  it('stops every process, the lower layers after the higher ones, and restarts none of them', async () => {
    supervisor = createSupervisor({ log, backoff: { initialMs: 10 } });
    const exits: string[] = [];
    const tracked = (name: string) => () => {
      const child = node(IDLE);
      child.once('exit', () => exits.push(name));
      return child;
    };
    await supervisor.supervise('db', tracked('db'), { layer: 0 });
    await supervisor.supervise('auth', tracked('auth'), { layer: 1 });
    await supervisor.supervise('gateway', tracked('gateway'), { layer: 1 });
    const pids = Object.values(supervisor.pids());

    await supervisor.stop();

    expect(exits.slice(0, 2).sort()).toEqual(['auth', 'gateway']);
    expect(exits[2]).toBe('db');
    expect(pids.filter(isAlive)).toEqual([]);
    expect(supervisor.pids()).toEqual({});
    expect(lines.filter((l) => l.includes('restarting'))).toEqual([]);
  });

  it('does not wait for a process that has already exited, and is the same promise each time', async () => {
    supervisor = createSupervisor({ log, backoff: { initialMs: 60_000 } });
    await supervisor.supervise('chat', () => node(IDLE));
    await supervisor.supervise('voice', () => node(IDLE));
    const chat = supervisor.pids().chat!;
    process.kill(chat, 'SIGKILL');
    // Killed by a signal: exitCode stays null, signalCode is set; the restart waits a minute.
    await eventually(() => lines.some((l) => l.startsWith('chat: exited')), { what: 'the crash noticed' });

    // The launcher's old stop() waited here for ever: an 'exit' that had already been emitted.
    const first = supervisor.stop();
    expect(supervisor.stop()).toBe(first);
    await first;
    expect(supervisor.pids()).toEqual({});
  });

  it('kills with SIGKILL a process that ignores SIGTERM, after the timeout', async () => {
    supervisor = createSupervisor({ log, stopTimeoutMs: 300 });
    let stubborn!: ChildProcess;
    await supervisor.supervise('gateway', () => {
      stubborn = spawn(process.execPath, ['-e', `process.on('SIGTERM', () => {}); console.log('deaf'); ${IDLE}`], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      return stubborn;
    });
    // Its SIGTERM handler must be in place before the signal is sent.
    await new Promise((resolve) => stubborn.stdout!.once('data', resolve));
    const pid = supervisor.pids().gateway!;
    await supervisor.stop();
    expect(isAlive(pid)).toBe(false);
    expect(lines).toContain('gateway: did not stop within 0.3 s; killing it');
  });

  it('cancels a restart that was waiting for its delay', async () => {
    supervisor = createSupervisor({ log, backoff: { initialMs: 1_000 } });
    let starts = 0;
    await supervisor.supervise('voice', () => {
      starts += 1;
      return node(IDLE);
    });
    process.kill(supervisor.pids().voice!, 'SIGKILL');
    await eventually(() => lines.some((l) => l.includes('restarting')), { what: 'the restart scheduled' });
    await supervisor.stop();
    // Past the moment the restart was due: no event says that something did not happen.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(starts).toBe(1);
    expect(supervisor.pids()).toEqual({});
  });

  it('kills everything at once when asked to (a second Ctrl-C)', async () => {
    supervisor = createSupervisor({ log });
    await supervisor.supervise('auth', () => node(`process.on('SIGTERM', () => {}); ${IDLE}`));
    await supervisor.supervise('db', () => node(IDLE));
    const pids = Object.values(supervisor.pids());
    supervisor.kill();
    await eventually(() => pids.every((pid) => !isAlive(pid)), { timeoutMs: 15_000, what: 'every process gone' });
  });
});
