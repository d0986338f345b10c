import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

export interface ProcessResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/**
 * A program started before its input is known: it may load whatever it needs meanwhile (see EspeakProvider's
 * processes started ahead). `run` gives it its input and collects what it writes.
 */
export class StartedProcess {
  private readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  private readonly outcome: Promise<ProcessResult>;
  private failed = false;
  private used = false;

  constructor(command: string, args: string[], options: { maxStderr?: number } = {}) {
    this.child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    let stderr = '';
    const maxStderr = options.maxStderr ?? 4_096;
    this.child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < maxStderr) stderr += chunk.toString('utf8').slice(0, maxStderr - stderr.length);
    });
    // A program that exits before reading all of its input makes stdin emit EPIPE; the exit code tells the story.
    this.child.stdin.on('error', () => undefined);
    this.outcome = new Promise((resolve, reject) => {
      this.child.on('error', (err) => {
        this.failed = true;
        reject(err);
      });
      this.child.on('close', (code) => resolve({ code, stdout: Buffer.concat(stdout), stderr }));
    });
    // Settled by run(); a process started ahead and never used must not leave an unhandled rejection.
    this.outcome.catch(() => undefined);
  }

  /** Still waiting for its input: started, not failed, not exited, not used. */
  get ready(): boolean {
    return !this.used && !this.failed && this.child.exitCode === null && this.child.signalCode === null;
  }

  /**
   * Writes the input, closes stdin and resolves with what the program wrote once it exits; kills it when the signal
   * aborts. Rejects only when the program could not be started (ENOENT, EACCES) or was aborted.
   */
  run(input: string, signal?: AbortSignal): Promise<ProcessResult> {
    this.used = true;
    if (signal?.aborted) {
      this.kill();
      return Promise.reject(abortError(signal));
    }
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_resolve, reject) => {
      onAbort = () => {
        this.kill();
        reject(abortError(signal!));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    aborted.catch(() => undefined);
    this.child.stdin.end(input);
    return Promise.race([this.outcome, aborted]).finally(() => signal?.removeEventListener('abort', onAbort!));
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
  }
}

function abortError(signal: AbortSignal): Error {
  return Object.assign(new Error('The operation was aborted', { cause: signal.reason }), { name: 'AbortError' });
}

/**
 * Runs a program to completion with input on stdin, collecting its output; kills it when the signal aborts. Rejects
 * only when the program cannot be started (ENOENT, EACCES) or is aborted; a non-zero exit is the caller's to judge.
 */
export function runProcess(
  command: string,
  args: string[],
  options: { input?: string; signal?: AbortSignal; maxStderr?: number } = {},
): Promise<ProcessResult> {
  if (options.signal?.aborted) return Promise.reject(abortError(options.signal));
  return new StartedProcess(command, args, options).run(options.input ?? '', options.signal);
}
