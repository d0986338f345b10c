import type { Logger } from '@kasa/service-kit';
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { once } from 'node:events';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import type { FfmpegProgram } from './engines';
import { ProcessLimits } from './processLimits';
import { deprioritize, runProcess } from './runProcess';
import { wavHeader } from './wav';

export type AudioFormat = 'mp3' | 'ogg' | 'wav';

export const CONTENT_TYPES: Record<AudioFormat, string> = {
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
};

const ENCODERS: Record<Exclude<AudioFormat, 'wav'>, { codec: string; args: string[] }> = {
  // Constant bit rate, and no Xing header (a pipe cannot go back to fill it in): players get the duration right.
  mp3: { codec: 'libmp3lame', args: ['-c:a', 'libmp3lame', '-b:a', '32k', '-write_xing', '0', '-f', 'mp3'] },
  // Opus made for speech; pages of 200 ms of audio, so that the first one leaves early.
  ogg: {
    codec: 'libopus',
    args: ['-c:a', 'libopus', '-b:a', '24k', '-application', 'voip', '-page_duration', '200000', '-f', 'ogg'],
  },
};

const SPARE_DELAY_MS = 250;
/** lamejs encodes on the service's own thread: in slices of half a second of audio, with other work between them. */
const LAME_SLICE_SAMPLES = 11_025;
const LAME_KBPS = 32;

/** What encodes: ffmpeg (system or from npm), lamejs (MP3 in JavaScript, when no ffmpeg runs), or nothing (WAV). */
export type EncoderName = 'ffmpeg' | 'ffmpeg-npm' | 'lamejs' | 'none';

type Mp3EncoderClass = typeof import('@breezystack/lamejs').Mp3Encoder;

/** One encoding: PCM in, encoded audio out as it is made. */
export interface EncodingJob {
  readonly output: Readable;
  /** Writes PCM, waiting while the encoder is behind. */
  write(pcm: Buffer): Promise<void>;
  /** Ends the input; resolves once the encoder finished cleanly. */
  end(): Promise<void>;
  abort(): void;
  /** Lowers the encoder's CPU priority (an encoder in its own process), as the later chunks of a long text are. */
  background(): void;
}

type EncoderProcess = ChildProcessByStdio<Writable, Readable, Readable>;

/**
 * Encodes speech with ffmpeg (a separate program: the system's, or the static build from npm) into the configured
 * format; without ffmpeg, MP3 with lamejs (pure JavaScript, LGPL, from npm; slower, on the service's thread), and
 * WAV when neither can make the format. Starting ffmpeg takes about 100 ms, most of a first-audio budget, so one
 * process is always started ahead and waits for its input; each encoding takes it and a new one is started for the
 * next.
 *
 * These processes stay out of the process pool (see ProcessPool), on purpose: one lives as long as its synthesis,
 * mostly waiting for the next chunk of speech or for the listener to read, and encoding is a small part of the work
 * (the speech engine's chunks, which go through the pool, are the large one). Pooled, a slow listener would hold a
 * place that others' speech needs. Each synthesis starts its encoder only once its first chunk of speech is made, so
 * syntheses waiting in the pool's queue hold none; their number follows the per-person synthesis slots, and each
 * runs under the memory limit.
 */
export class AudioEncoders {
  private spare: EncoderProcess | undefined;
  private closed = false;

  private constructor(
    private readonly ffmpegBin: string | undefined,
    readonly name: EncoderName,
    readonly format: AudioFormat,
    readonly requestedFormat: AudioFormat,
    private readonly sampleRate: number,
    private readonly logger: Logger,
    private readonly lame: Mp3EncoderClass | undefined,
    private readonly limits: ProcessLimits,
  ) {
    if (this.ffmpegBin) this.spare = this.spawn();
  }

  /**
   * Checks that ffmpeg runs and has the format's encoder; else, for MP3 and with `usePackaged`, uses lamejs; falls
   * back to WAV otherwise.
   */
  static async create(options: {
    ffmpeg: FfmpegProgram | undefined;
    format: AudioFormat;
    sampleRate: number;
    usePackaged: boolean;
    /** The memory limit of each ffmpeg it starts. */
    limits?: ProcessLimits;
    logger: Logger;
  }): Promise<AudioEncoders> {
    const { ffmpeg, format, sampleRate, logger } = options;
    const limits = options.limits ?? ProcessLimits.none();
    const make = (name: EncoderName, actual: AudioFormat, bin?: string, lame?: Mp3EncoderClass) =>
      new AudioEncoders(bin, name, actual, format, sampleRate, logger, lame, limits);
    if (format === 'wav') {
      logger.info('audio: WAV, as configured');
      return make('none', 'wav');
    }
    const codec = ENCODERS[format].codec;
    if (ffmpeg) {
      const listing = await runProcess(ffmpeg.command, ['-hide_banner', '-encoders'], {
        signal: AbortSignal.timeout(ffmpeg.source === 'npm' ? 30_000 : 5_000),
      }).catch(() => undefined);
      if (listing?.code === 0 && listing.stdout.toString('utf8').includes(codec)) {
        logger.info({ format, codec }, `audio: ${format} by ${ffmpeg.description}`);
        return make(ffmpeg.source === 'npm' ? 'ffmpeg-npm' : 'ffmpeg', format, ffmpeg.command);
      }
    }
    if (format === 'mp3' && options.usePackaged) {
      const lame = await import('@breezystack/lamejs').then(
        (lamejs) => lamejs.Mp3Encoder,
        () => undefined,
      );
      if (lame) {
        logger.info({ format }, 'audio: mp3 by lamejs (JavaScript, from npm), since no ffmpeg runs');
        return make('lamejs', 'mp3', undefined, lame);
      }
    }
    logger.warn({ format, codec }, 'audio: WAV, since neither ffmpeg nor its encoder is available');
    return make('none', 'wav');
  }

  get contentType(): string {
    return CONTENT_TYPES[this.format];
  }

  /** Whether audio is encoded as configured (false: the WAV fallback is in use). */
  get encoderAvailable(): boolean {
    return this.format === this.requestedFormat;
  }

  start(): EncodingJob {
    if (this.lame) return lameJob(this.lame, this.sampleRate);
    if (!this.ffmpegBin) return wavJob(this.sampleRate);
    const ready = this.spare && this.spare.exitCode === null && !this.spare.killed ? this.spare : undefined;
    const process = ready ?? this.spawn();
    this.spare = undefined;
    // Start the next one a little later: starting ffmpeg costs ~150 ms of CPU, which would otherwise compete with
    // this request's first audio.
    setTimeout(() => {
      if (!this.closed && !this.spare) this.spare = this.spawn();
    }, SPARE_DELAY_MS).unref();
    return ffmpegJob(process);
  }

  close(): void {
    this.closed = true;
    this.spare?.kill('SIGKILL');
    this.spare = undefined;
  }

  private spawn(): EncoderProcess {
    const bin = this.ffmpegBin!;
    const args = ['-hide_banner', '-loglevel', 'error', '-nostdin'];
    args.push('-f', 's16le', '-ar', String(this.sampleRate), '-ac', '1', '-i', 'pipe:0');
    args.push(...ENCODERS[this.format as Exclude<AudioFormat, 'wav'>].args, '-flush_packets', '1', 'pipe:1');
    const limited = this.limits.wrap(bin, args);
    const child = spawn(limited.command, limited.args, { stdio: ['pipe', 'pipe', 'pipe'] });
    child.on('error', (err) => this.logger.warn({ err: err.message }, 'ffmpeg could not be started'));
    child.stdin.on('error', () => undefined);
    // Read stderr so that a chatty ffmpeg never blocks on a full pipe; only its last words are kept.
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-500)));
    child.on('close', (code) => {
      if (code !== 0 && code !== null) this.logger.warn({ code, stderr }, 'ffmpeg exited with an error');
    });
    return child;
  }
}

function ffmpegJob(child: EncoderProcess): EncodingJob {
  const exited = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited with code ${code}`))));
  });
  exited.catch(() => undefined);
  return {
    output: child.stdout,
    async write(pcm) {
      if (!child.stdin.write(pcm)) await Promise.race([once(child.stdin, 'drain'), exited]);
    },
    async end() {
      child.stdin.end();
      await exited;
    },
    abort() {
      child.kill('SIGKILL');
    },
    background() {
      deprioritize(child);
    },
  };
}

function wavJob(sampleRate: number): EncodingJob {
  const stream = new PassThrough();
  stream.write(wavHeader(sampleRate));
  return {
    output: stream,
    async write(pcm) {
      if (!stream.write(pcm)) await once(stream, 'drain');
    },
    async end() {
      stream.end();
    },
    abort() {
      stream.destroy();
    },
    background() {
      // On the service's thread: nothing to lower.
    },
  };
}

/** MP3 by lamejs: the PCM is encoded as it comes, in slices, so that other requests are served in between. */
function lameJob(Mp3Encoder: Mp3EncoderClass, sampleRate: number): EncodingJob {
  const stream = new PassThrough();
  const encoder = new Mp3Encoder(1, sampleRate, LAME_KBPS);
  let aborted = false;
  const emit = (bytes: Uint8Array) => {
    if (bytes.length > 0 && !aborted) stream.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
  };
  return {
    output: stream,
    async write(pcm) {
      // An Int16Array needs an even offset; a Buffer from a pool may not have one.
      const aligned = pcm.byteOffset % 2 === 0 ? pcm : Buffer.from(pcm);
      const samples = new Int16Array(aligned.buffer, aligned.byteOffset, Math.floor(aligned.length / 2));
      for (let start = 0; start < samples.length && !aborted; start += LAME_SLICE_SAMPLES) {
        emit(encoder.encodeBuffer(samples.subarray(start, start + LAME_SLICE_SAMPLES)));
        if (stream.writableNeedDrain) await once(stream, 'drain');
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
    async end() {
      emit(encoder.flush());
      stream.end();
    },
    abort() {
      aborted = true;
      stream.destroy();
    },
    background() {
      // On the service's thread, already in slices with other work between them.
    },
  };
}
