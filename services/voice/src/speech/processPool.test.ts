import { spawn } from 'node:child_process';
import { ProcessPool, ProcessPoolBusyError, ProcessTimeLimitError, retryAfterOf } from './processPool';
import { runProcess, stopProcess } from './runProcess';

/** A task whose end the test decides; `started` tells whether the pool has run it yet. */
function controlled() {
  let finish: () => void = () => undefined;
  const task = {
    started: false,
    signal: undefined as AbortSignal | undefined,
    run: (signal: AbortSignal) => {
      task.started = true;
      task.signal = signal;
      return new Promise<string>((resolve) => (finish = () => resolve('done')));
    },
    finish: () => finish(),
  };
  return task;
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

async function waitFor(check: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const options = { what: 'speech synthesis', timeoutMs: 10_000 };

describe('ProcessPool', () => {
  it('runs at most `size` tasks at once and starts the waiting ones in order as places free', async () => {
    const pool = new ProcessPool({ size: 2, maxQueued: 5 });
    const tasks = [controlled(), controlled(), controlled(), controlled()];
    const results = tasks.map((t) => pool.run(t.run, options));
    await tick();
    expect(tasks.map((t) => t.started)).toEqual([true, true, false, false]);
    expect({ running: pool.running, queued: pool.queued }).toEqual({ running: 2, queued: 2 });

    tasks[1]!.finish();
    await expect(results[1]).resolves.toBe('done');
    await tick();
    expect(tasks.map((t) => t.started)).toEqual([true, true, true, false]);
    expect({ running: pool.running, queued: pool.queued }).toEqual({ running: 2, queued: 1 });

    tasks[0]!.finish();
    tasks[2]!.finish();
    await Promise.all([results[0], results[2]]);
    await tick();
    expect(tasks[3]!.started).toBe(true);
    tasks[3]!.finish();
    await results[3];
    expect({ running: pool.running, queued: pool.queued }).toEqual({ running: 0, queued: 0 });
  });

  it('refuses at once with a 503 that says when to try again once its queue is full', async () => {
    const pool = new ProcessPool({ size: 1, maxQueued: 2 });
    const tasks = [controlled(), controlled(), controlled(), controlled()];
    const results = tasks.slice(0, 3).map((t) => pool.run(t.run, options));
    const refused = pool.run(tasks[3]!.run, options);
    await expect(refused).rejects.toBeInstanceOf(ProcessPoolBusyError);
    const err = (await refused.catch((e: unknown) => e)) as ProcessPoolBusyError;
    expect(err).toMatchObject({ status: 503, code: 'upstream_unavailable' });
    expect(err.message).toBe('Speech synthesis is busy on the server right now. Please try again in a few seconds.');
    expect(retryAfterOf(err)).toBe(5);
    expect(tasks[3]!.started).toBe(false);
    expect(pool.queued).toBe(2);

    for (const [i, t] of tasks.slice(0, 3).entries()) {
      await waitFor(() => t.started, `task ${i} started`);
      t.finish();
      await results[i];
    }
    // Room again: the next one is taken.
    const again = controlled();
    const result = pool.run(again.run, options);
    await tick();
    expect(again.started).toBe(true);
    again.finish();
    await result;
  });

  it('lets a waiting task leave the queue when its caller goes away, without ever starting it', async () => {
    const pool = new ProcessPool({ size: 1, maxQueued: 2 });
    const first = controlled();
    const waiting = controlled();
    const running = pool.run(first.run, options);
    const caller = new AbortController();
    const left = pool.run(waiting.run, { ...options, signal: caller.signal });
    expect(pool.queued).toBe(1);
    caller.abort();
    await expect(left).rejects.toMatchObject({ name: 'AbortError' });
    expect(pool.queued).toBe(0);
    first.finish();
    await running;
    await tick();
    expect(waiting.started).toBe(false);
    expect(pool.running).toBe(0);
  });

  it("passes the caller's end to a running task", async () => {
    const pool = new ProcessPool({ size: 1, maxQueued: 0 });
    const caller = new AbortController();
    const started = Date.now();
    const run = pool.run((signal) => runProcess('sleep', ['30'], { signal }), { ...options, signal: caller.signal });
    setTimeout(() => caller.abort(), 100);
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - started).toBeLessThan(5_000);
    await waitFor(() => pool.running === 0, 'the place given back');
  });

  it('stops a process at its time limit, tells the caller at once, and frees the place once it is gone', async () => {
    const pool = new ProcessPool({ size: 1, maxQueued: 1 });
    const started = Date.now();
    const run = pool.run((signal) => runProcess('sleep', ['30'], { signal }), {
      what: 'speech synthesis',
      timeoutMs: 300,
    });
    const next = controlled();
    const queued = pool.run(next.run, options);
    await expect(run).rejects.toBeInstanceOf(ProcessTimeLimitError);
    await expect(run).rejects.toThrow('The speech synthesis process took longer than 0.3 s and was stopped');
    expect(Date.now() - started).toBeLessThan(5_000);
    // The place passes to the next task once the killed process has exited.
    await waitFor(() => next.started, 'the next task started');
    next.finish();
    await queued;
  });

  it('kills a process that ignores SIGTERM after the grace, and keeps its place taken until then', async () => {
    const pool = new ProcessPool({ size: 1, maxQueued: 0 });
    let endedBy: NodeJS.Signals | null = null;
    // Started, and ignoring SIGTERM, before the pool's clock runs: on a loaded machine a node process can take longer
    // to start than the time limit, and would then end by the SIGTERM it had not yet learnt to ignore.
    const child = spawn(
      process.execPath,
      ['-e', "process.on('SIGTERM', () => {}); console.log('ready'); setInterval(() => {}, 1000)"],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
    const pid = child.pid!;
    const closed = new Promise<void>((resolve) =>
      child.on('close', (_code, killedBy) => {
        endedBy = killedBy;
        resolve();
      }),
    );
    const stubborn = (signal: AbortSignal) => {
      signal.addEventListener('abort', () => stopProcess(child, 500), { once: true });
      return closed;
    };
    const run = pool.run(stubborn, { what: 'video encoding', timeoutMs: 1_500 });
    await expect(run).rejects.toBeInstanceOf(ProcessTimeLimitError);
    // Told at the limit; the process is still there during its grace, and so is its place.
    expect(pool.running).toBe(1);
    await expect(pool.run(controlled().run, options)).rejects.toBeInstanceOf(ProcessPoolBusyError);
    await waitFor(() => pool.running === 0, 'the place given back');
    expect(endedBy).toBe('SIGKILL');
    expect(isAlive(pid)).toBe(false);
  });

  it('gives the place back after the grace when a task never settles, and says so', async () => {
    const warn = jest.fn();
    const pool = new ProcessPool({ size: 1, maxQueued: 0, settleGraceMs: 200, logger: { warn } });
    const run = pool.run(() => new Promise<never>(() => undefined), { what: 'speech synthesis', timeoutMs: 100 });
    await expect(run).rejects.toBeInstanceOf(ProcessTimeLimitError);
    expect(pool.running).toBe(1);
    await waitFor(() => pool.running === 0, 'the place given back');
    expect(warn).toHaveBeenCalledWith(
      { what: 'speech synthesis', timeoutMs: 100 },
      'a pooled process did not end after its time limit',
    );
  });

  it('counts a task that throws before it starts a process as done', async () => {
    const pool = new ProcessPool({ size: 1, maxQueued: 0 });
    await expect(
      pool.run(() => {
        throw new Error('no such voice');
      }, options),
    ).rejects.toThrow('no such voice');
    expect(pool.running).toBe(0);
  });
});
