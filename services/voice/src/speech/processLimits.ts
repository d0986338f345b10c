import type { Logger } from '@kasa/service-kit';
import { runProcess } from './runProcess';

/** A program and its arguments, as given to spawn. */
export interface Command {
  command: string;
  args: string[];
}

/**
 * The memory limit of each heavy child process (eSpeak NG, ffmpeg, the Node process that runs eSpeak NG's
 * WebAssembly build). Where util-linux's `prlimit` runs, a program is started through it with a limit on its data
 * memory (RLIMIT_DATA: the heap, anonymous mappings, thread stacks and, for Node, WebAssembly memory; not the
 * address space reserved and never used, which RLIMIT_AS would count and which ffmpeg's threads and V8 reserve
 * generously): past the limit its allocations fail and it ends, rather than the machine swapping. `prlimit` sets the
 * limit on itself and then becomes the program (exec), so the process id, signals and exit code are the program's.
 * Without `prlimit` native programs run without a limit; the Node child still gets `--max-old-space-size`.
 */
export class ProcessLimits {
  private constructor(
    readonly memoryMb: number,
    /** The `prlimit` program, when it runs here. */
    readonly prlimit: string | undefined,
  ) {}

  /** No limit at all (tests, or `VOICE_PROCESS_MEMORY_MB=0`). */
  static none(): ProcessLimits {
    return new ProcessLimits(0, undefined);
  }

  /** Looks for `prlimit` once at start. */
  static async find(options: { memoryMb: number; logger: Pick<Logger, 'info' | 'warn'> }): Promise<ProcessLimits> {
    const { memoryMb, logger } = options;
    if (memoryMb <= 0) return ProcessLimits.none();
    const found = await runProcess('prlimit', ['--version'], { signal: AbortSignal.timeout(5_000) }).then(
      (result) => result.code === 0,
      () => false,
    );
    if (found) logger.info({ memoryMb }, 'heavy processes: memory limited by prlimit');
    else
      logger.warn(
        { memoryMb },
        'heavy processes: prlimit not found: espeak-ng and ffmpeg run without a memory limit (Node children keep theirs)',
      );
    return new ProcessLimits(memoryMb, found ? 'prlimit' : undefined);
  }

  /** Whether native programs get their limit. */
  get enforced(): boolean {
    return this.prlimit !== undefined;
  }

  /** A native program (espeak-ng, ffmpeg) started under the memory limit, where prlimit runs. */
  wrap(command: string, args: string[]): Command {
    if (!this.prlimit) return { command, args };
    // `--` ends prlimit's options: the program's own (`-hide_banner`...) are never read as prlimit's.
    return { command: this.prlimit, args: [`--data=${this.memoryMb * 1024 * 1024}`, '--', command, ...args] };
  }

  /** Options for a Node child, before its script: a cap on its JavaScript heap (its WebAssembly memory is not in it). */
  nodeOptions(): string[] {
    return this.memoryMb > 0 ? [`--max-old-space-size=${this.memoryMb}`] : [];
  }
}
