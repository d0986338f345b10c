import type { Logger } from '@kasa/service-kit';
import { constants as fsConstants } from 'node:fs';
import { access, chmod, copyFile, mkdir, readFile, rename, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { EspeakProvider, type EspeakProgram, type EspeakRunOptions } from './espeakProvider';
import { ProcessLimits } from './processLimits';
import { runProcess } from './runProcess';

/**
 * Which programs speak and encode: the system's `espeak-ng` and `ffmpeg` when they run (Debian's packages, the
 * fastest), else the engines that come inside npm packages, so that `npm install` alone gives a service that speaks
 * and makes videos: eSpeak NG compiled to WebAssembly (`@echogarden/espeak-ng-emscripten`, run by Node as a program
 * of its own, see espeakWasmCli.ts) and a static ffmpeg build (`@ffmpeg-installer/linux-x64`). Both are GPL and, like
 * the system programs, run as separate processes, never linked.
 */

/** ffmpeg as found: the command to run and where it came from. */
export interface FfmpegProgram {
  command: string;
  source: 'system' | 'npm';
  /** What the logs call it. */
  description: string;
}

/**
 * The system program first (a missing one fails at once; 15 s so that a busy machine's start does not fall back to the
 * slower WebAssembly build); the first run of a 70 MB static binary may be slow on a cold disk.
 */
const SYSTEM_PROBE_MS = 15_000;
const PACKAGED_PROBE_MS = 30_000;

/**
 * The WebAssembly build as an `espeak-ng` program: Node running the compiled espeakWasmCli.js beside this file, with
 * its JavaScript heap capped and, where prlimit runs, its data memory (which holds the WebAssembly memory) too.
 */
export function packagedEspeak(limits: ProcessLimits = ProcessLimits.none()): EspeakProgram {
  const { command, args } = limits.wrap(process.execPath, [
    ...limits.nodeOptions(),
    path.join(__dirname, 'espeakWasmCli.js'),
  ]);
  return {
    engine: 'espeak-ng-wasm',
    description: 'eSpeak NG (WebAssembly, from npm)',
    command,
    args,
    startsSlowly: true,
    probeTimeoutMs: PACKAGED_PROBE_MS,
  };
}

export function systemEspeak(bin: string, limits: ProcessLimits = ProcessLimits.none()): EspeakProgram {
  const { command, args } = limits.wrap(bin, []);
  return {
    engine: 'espeak-ng',
    description: 'espeak-ng (system)',
    command,
    args,
    startsSlowly: false,
    probeTimeoutMs: SYSTEM_PROBE_MS,
  };
}

/**
 * The offline speech engine: the configured program when it runs, else (with `usePackaged`) the WebAssembly build.
 * When neither runs, the system program's provider, unavailable: speech is off and the service says so.
 */
export async function findSpeechEngine(options: {
  bin: string;
  usePackaged: boolean;
  mapLanguage: (tag: string) => string | undefined;
  logger: Logger;
  /** The pool its processes go through and their time limit (see EspeakProvider). */
  run?: EspeakRunOptions;
  /** The memory limit of its processes. */
  limits?: ProcessLimits;
}): Promise<EspeakProvider> {
  const { bin, usePackaged, mapLanguage, logger, run, limits } = options;
  const system = await EspeakProvider.probe(systemEspeak(bin, limits), mapLanguage, run);
  if (system.available) {
    logger.info({ bin, version: system.version, voices: system.voices().length }, 'speech: espeak-ng (system)');
    return system;
  }
  if (usePackaged) {
    const packaged = await EspeakProvider.probe(packagedEspeak(limits), mapLanguage, run);
    if (packaged.available) {
      logger.info(
        { bin, found: false, version: packaged.version, voices: packaged.voices().length },
        `speech: ${packaged.program.description}`,
      );
      return packaged;
    }
    packaged.close();
  }
  logger.warn(
    { bin, packaged: usePackaged },
    usePackaged
      ? 'speech: none: espeak-ng not found and its WebAssembly build did not run: speech synthesis is off'
      : 'speech: none: espeak-ng not found (packaged engines are off): speech synthesis is off',
  );
  return system;
}

/** The configured ffmpeg when it runs, else (with `usePackaged`) the static build from npm; undefined otherwise. */
export async function findFfmpeg(options: {
  bin: string;
  usePackaged: boolean;
  logger: Logger;
}): Promise<FfmpegProgram | undefined> {
  const { bin, usePackaged, logger } = options;
  if (await runs(bin, SYSTEM_PROBE_MS)) {
    const found: FfmpegProgram = { command: bin, source: 'system', description: 'ffmpeg (system)' };
    logger.info({ bin }, `encoder: ${found.description}`);
    return found;
  }
  const packaged = usePackaged ? await packagedFfmpeg(logger) : undefined;
  if (packaged && (await runs(packaged, PACKAGED_PROBE_MS))) {
    const found: FfmpegProgram = { command: packaged, source: 'npm', description: 'ffmpeg (static build, from npm)' };
    logger.info({ bin, found: false, packaged }, `encoder: ${found.description}`);
    return found;
  }
  logger.warn(
    { bin, packaged: usePackaged },
    usePackaged
      ? 'encoder: none: ffmpeg not found and the static build from npm did not run'
      : 'encoder: none: ffmpeg not found (packaged engines are off)',
  );
  return undefined;
}

async function runs(command: string, timeoutMs: number): Promise<boolean> {
  const result = await runProcess(command, ['-hide_banner', '-version'], {
    signal: AbortSignal.timeout(timeoutMs),
  }).catch(() => undefined);
  return result?.code === 0;
}

/**
 * The ffmpeg binary inside `@ffmpeg-installer/<platform>-<arch>` (an optional dependency: only linux-x64 is
 * installed here), made executable. Its postinstall script only runs `chmod`, and npm may be told not to run install
 * scripts: when the file is not executable and cannot be made so (a read-only node_modules), it is copied with mode
 * 0755 into a cache folder.
 */
export async function packagedFfmpeg(logger: Logger): Promise<string | undefined> {
  const name = `@ffmpeg-installer/${process.platform}-${process.arch}`;
  let manifestPath: string;
  try {
    manifestPath = require.resolve(`${name}/package.json`);
  } catch {
    return undefined; // not installed on this platform
  }
  const binary = path.join(path.dirname(manifestPath), process.platform === 'win32' ? 'ffmpeg.exe' : 'ffmpeg');
  let version = 'unknown';
  try {
    ({ version } = JSON.parse(await readFile(manifestPath, 'utf8')) as { version: string });
  } catch {
    // the cache folder's name only
  }
  const cacheDir = path.join(os.tmpdir(), `kasa-ffmpeg-${process.platform}-${process.arch}-${version}`);
  return ensureExecutable(binary, cacheDir, logger);
}

/** `file` when it is executable or can be made so; else a copy of it with mode 0755 in `cacheDir`. */
export async function ensureExecutable(file: string, cacheDir: string, logger: Logger): Promise<string | undefined> {
  if (await executable(file)) return file;
  try {
    await chmod(file, 0o755);
    if (await executable(file)) return file;
  } catch {
    // not ours to change (a read-only or another user's node_modules): copied below
  }
  const copy = path.join(cacheDir, path.basename(file));
  try {
    const [source, cached] = await Promise.all([stat(file), stat(copy).catch(() => undefined)]);
    if (cached?.size === source.size && (await executable(copy))) return copy;
    await mkdir(cacheDir, { recursive: true });
    // Copied under another name, then renamed: another instance starting at the same time never runs half a file.
    const partial = `${copy}.${process.pid}.partial`;
    await copyFile(file, partial);
    await chmod(partial, 0o755);
    await rename(partial, copy);
    return copy;
  } catch (err) {
    logger.warn({ file, err: (err as Error).message }, 'the static ffmpeg from npm could not be made executable');
    return undefined;
  }
}

async function executable(file: string): Promise<boolean> {
  return access(file, fsConstants.X_OK).then(
    () => true,
    () => false,
  );
}
