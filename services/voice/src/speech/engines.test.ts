import type { Logger } from '@kasa/service-kit';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ensureExecutable } from './engines';
import { runProcess } from './runProcess';

const warnings: string[] = [];
const logger = { warn: (_fields: unknown, message: string) => warnings.push(message) } as unknown as Logger;

describe('ensureExecutable (the static ffmpeg from npm, whose postinstall chmod may not have run)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'kasa-exec-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('makes a file that npm left without its execute bit runnable in place', async () => {
    const file = path.join(dir, 'ffmpeg');
    await writeFile(file, '#!/bin/sh\necho ran\n', { mode: 0o644 });
    expect(await ensureExecutable(file, path.join(dir, 'cache'), logger)).toBe(file);
    expect((await stat(file)).mode & 0o111).not.toBe(0);
    expect((await runProcess(file, [])).stdout.toString()).toBe('ran\n');
  });

  it('gives up, saying so, when there is no file', async () => {
    warnings.length = 0;
    expect(await ensureExecutable(path.join(dir, 'missing'), path.join(dir, 'cache'), logger)).toBeUndefined();
    expect(warnings).toEqual(['the static ffmpeg from npm could not be made executable']);
  });
});
