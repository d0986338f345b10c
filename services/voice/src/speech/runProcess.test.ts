import { runProcess, StartedProcess } from './runProcess';

describe('runProcess and StartedProcess', () => {
  it('gives the program its input on stdin and collects what it writes', async () => {
    const result = await runProcess('cat', [], { input: 'Habari yako' });
    expect(result).toEqual({ code: 0, stdout: Buffer.from('Habari yako'), stderr: '' });
  });

  it('lets a process started ahead wait for its input, then run once', async () => {
    const started = new StartedProcess('cat', []);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(started.ready).toBe(true);
    const result = await started.run('later');
    expect(result.stdout.toString()).toBe('later');
    expect(started.ready).toBe(false);
  });

  it('rejects when the program does not exist, and a process started ahead then is not ready', async () => {
    await expect(runProcess('kasa-no-such-program', [])).rejects.toMatchObject({ code: 'ENOENT' });
    const started = new StartedProcess('kasa-no-such-program', []);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(started.ready).toBe(false);
  });

  it('kills the program when the signal aborts', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const run = runProcess('sleep', ['10'], { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('kills a program that ignores SIGTERM after the grace, and rejects only once it is gone', async () => {
    const controller = new AbortController();
    const script = "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)";
    const run = runProcess(process.execPath, ['-e', script], { signal: controller.signal, killGraceMs: 300 });
    // Time for Node to start and install its handler, then the abort: SIGTERM (ignored), SIGKILL 300 ms later.
    setTimeout(() => controller.abort(), 700);
    const started = Date.now();
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('reports a non-zero exit without rejecting', async () => {
    const result = await runProcess('sh', ['-c', 'echo oops >&2; exit 3']);
    expect(result).toMatchObject({ code: 3, stderr: 'oops\n' });
  });
});
