import { spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process';
import os from 'node:os';
import type { Readable, Writable } from 'node:stream';

/** The niceness of background work (see `deprioritize`): the scheduler favours everything else, yet it still runs. */
export const BACKGROUND_NICENESS = 10;

/**
 * Lowers a program's CPU priority (raising its niceness needs no privilege). Busy cores then go first to the work
 * someone is waiting for. A program that already exited, or a platform that refuses, keeps its priority.
 */
export function deprioritize(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    os.setPriority(child.pid, BACKGROUND_NICENESS);
  } catch {
    // gone already, or not allowed: it runs at the normal priority
  }
}

/** How long a program asked to stop (SIGTERM) has before it is killed (SIGKILL). */
export const KILL_GRACE_MS = 2_000;

/** Asks a program to stop, and kills it if it is still there after the grace. */
export function stopProcess(child: ChildProcess, graceMs = KILL_GRACE_MS): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }, graceMs);
  timer.unref();
  child.once('exit', () => clearTimeout(timer));
}

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

  constructor(
    command: string,
    args: string[],
    private readonly options: { maxStderr?: number; killGraceMs?: number } = {},
  ) {
    this.child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    let stderr = '';
    const maxStderr = this.options.maxStderr ?? 4_096;
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
   * Writes the input, closes stdin and resolves with what the program wrote once it exits; stops it when the signal
   * aborts (SIGTERM, then SIGKILL after a grace). Rejects only when the program could not be started (ENOENT,
   * EACCES) or was aborted, and only once the program is gone: a pool that counts running programs (see
   * ProcessPool) gives the place back when it really is free.
   */
  run(input: string, signal?: AbortSignal): Promise<ProcessResult> {
    this.used = true;
    if (signal?.aborted) {
      this.kill();
      return this.outcome.then(
        () => Promise.reject(abortError(signal)),
        () => Promise.reject(abortError(signal)),
      );
    }
    return new Promise<ProcessResult>((resolve, reject) => {
      let aborted = false;
      const onAbort = () => {
        aborted = true;
        this.kill();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.child.stdin.end(input);
      this.outcome
        .then(
          (result) => (aborted ? reject(abortError(signal!)) : resolve(result)),
          (err: unknown) => reject(aborted ? abortError(signal!) : err),
        )
        .finally(() => signal?.removeEventListener('abort', onAbort));
    });
  }

  /** Runs it at the background priority (see `deprioritize`). */
  deprioritize(): void {
    deprioritize(this.child);
  }

  /** Stops the program: SIGTERM, then SIGKILL if it is still there after the grace. */
  kill(): void {
    stopProcess(this.child, this.options.killGraceMs);
  }
}

function abortError(signal: AbortSignal): Error {
  return Object.assign(new Error('The operation was aborted', { cause: signal.reason }), { name: 'AbortError' });
}

/**
 * Runs a program to completion with input on stdin, collecting its output; stops it when the signal aborts. Rejects
 * only when the program cannot be started (ENOENT, EACCES) or is aborted; a non-zero exit is the caller's to judge.
 */
export function runProcess(
  command: string,
  args: string[],
  options: { input?: string; signal?: AbortSignal; maxStderr?: number; killGraceMs?: number } = {},
): Promise<ProcessResult> {
  if (options.signal?.aborted) return Promise.reject(abortError(options.signal));
  return new StartedProcess(command, args, options).run(options.input ?? '', options.signal);
}
