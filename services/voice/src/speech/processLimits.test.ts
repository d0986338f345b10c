import { ProcessLimits } from './processLimits';
import { runProcess } from './runProcess';

const quiet = { info: jest.fn(), warn: jest.fn() };

describe('ProcessLimits', () => {
  it('starts native programs through prlimit with a data limit, and caps the heap of Node children', async () => {
    const limits = await ProcessLimits.find({ memoryMb: 256, logger: quiet });
    if (!limits.enforced) {
      // Not every machine has util-linux's prlimit: then programs run as they are.
      expect(limits.wrap('ffmpeg', ['-hide_banner'])).toEqual({ command: 'ffmpeg', args: ['-hide_banner'] });
      return;
    }
    expect(limits.wrap('ffmpeg', ['-hide_banner', '-i', 'pipe:0'])).toEqual({
      command: 'prlimit',
      args: [`--data=${256 * 1024 * 1024}`, '--', 'ffmpeg', '-hide_banner', '-i', 'pipe:0'],
    });
    expect(limits.nodeOptions()).toEqual(['--max-old-space-size=256']);
  });

  it('stops a program that allocates past its limit, and lets one within it run', async () => {
    const limits = await ProcessLimits.find({ memoryMb: 128, logger: quiet });
    if (!limits.enforced) return;
    // Node itself (with WebAssembly-sized buffers): 64 MB fits under 128 MB, 400 MB does not.
    const allocate = (mb: number) =>
      limits.wrap(process.execPath, [
        '-e',
        `const kept = []; for (let i = 0; i < ${mb}; i++) kept.push(Buffer.alloc(1 << 20, 1)); console.log('ok')`,
      ]);
    const small = allocate(64);
    const within = await runProcess(small.command, small.args);
    expect(within).toMatchObject({ code: 0 });
    expect(within.stdout.toString()).toBe('ok\n');
    const big = allocate(400);
    const over = await runProcess(big.command, big.args);
    expect(over.code).not.toBe(0);
    expect(over.stdout.toString()).toBe('');
  });

  it('leaves programs alone without a limit', () => {
    const none = ProcessLimits.none();
    expect(none.enforced).toBe(false);
    expect(none.wrap('espeak-ng', ['--stdout'])).toEqual({ command: 'espeak-ng', args: ['--stdout'] });
    expect(none.nodeOptions()).toEqual([]);
  });
});
