import { spawn } from 'node:child_process';

export interface ProcessResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
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
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], signal: options.signal });
    const stdout: Buffer[] = [];
    let stderr = '';
    const maxStderr = options.maxStderr ?? 4_096;
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < maxStderr) stderr += chunk.toString('utf8').slice(0, maxStderr - stderr.length);
    });
    child.on('error', reject);
    // A program that exits before reading all of its input makes stdin emit EPIPE; the exit code tells the story.
    child.stdin.on('error', () => undefined);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(stdout), stderr }));
    child.stdin.end(options.input ?? '');
  });
}
