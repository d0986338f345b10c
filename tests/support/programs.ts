import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lowPriority } from './lowPriority';

export interface ProgramRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a program to its end (or `timeoutMs`) at the lowest CPU priority and gives its exit code and what it printed;
 * it never rejects, so that a test can show the output of a program that failed.
 */
export function runProgram(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<ProgramRun> {
  const { cwd, env = process.env, timeoutMs = 60_000 } = options;
  const [niced, nicedArgs] = lowPriority(command, args);
  return new Promise((resolve) => {
    execFile(
      niced,
      nicedArgs,
      { cwd, env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr: error?.killed ? `${stderr}\n[killed after ${timeoutMs} ms]` : stderr });
      },
    );
  });
}

/** What a program printed, for a failing expectation to show. */
export const describeRun = (what: string, result: ProgramRun) =>
  `${what}: exit ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;

/** `name` from PATH, else the first of `fallbacks` that exists (where Go's archive and rustup install), else undefined. */
export function findBinary(name: string, fallbacks: string[] = []): string | undefined {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  return [...dirs.map((dir) => path.join(dir, name)), ...fallbacks].find((file) => fs.existsSync(file));
}

export const GO_BINARY = findBinary('go', ['/usr/local/go/bin/go']);
export const CARGO_BINARY = findBinary('cargo', [
  path.join(process.env.CARGO_HOME ?? path.join(os.homedir(), '.cargo'), 'bin', 'cargo'),
]);
