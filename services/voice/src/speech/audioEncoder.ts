import type { Logger } from '@kasa/service-kit';
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { once } from 'node:events';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { runProcess } from './runProcess';
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

/** One encoding: PCM in, encoded audio out as it is made. */
export interface EncodingJob {
  readonly output: Readable;
  /** Writes PCM, waiting while the encoder is behind. */
  write(pcm: Buffer): Promise<void>;
  /** Ends the input; resolves once the encoder finished cleanly. */
  end(): Promise<void>;
  abort(): void;
}

type EncoderProcess = ChildProcessByStdio<Writable, Readable, Readable>;

/**
 * Encodes speech with ffmpeg (a separate program) into the configured format, or writes WAV when ffmpeg or its
 * encoder is missing. Starting ffmpeg takes about 100 ms, most of a first-audio budget, so one process is always
 * started ahead and waits for its input; each encoding takes it and a new one is started for the next.
 */
export class AudioEncoders {
  private spare: EncoderProcess | undefined;
  private closed = false;

  private constructor(
    private readonly ffmpegBin: string,
    readonly format: AudioFormat,
    readonly requestedFormat: AudioFormat,
    private readonly sampleRate: number,
    private readonly logger: Logger,
  ) {
    if (format !== 'wav') this.spare = this.spawn();
  }

  /** Checks that ffmpeg runs and has the format's encoder; falls back to WAV otherwise. */
  static async create(options: {
    ffmpegBin: string;
    format: AudioFormat;
    sampleRate: number;
    logger: Logger;
  }): Promise<AudioEncoders> {
    let format = options.format;
    if (format !== 'wav') {
      const codec = ENCODERS[format].codec;
      const listing = await runProcess(options.ffmpegBin, ['-hide_banner', '-encoders'], {
        signal: AbortSignal.timeout(5_000),
      }).catch(() => undefined);
      if (listing?.code !== 0 || !listing.stdout.toString('utf8').includes(codec)) {
        options.logger.warn({ format, codec }, 'ffmpeg or its encoder is missing: audio is stored as WAV');
        format = 'wav';
      }
    }
    return new AudioEncoders(options.ffmpegBin, format, options.format, options.sampleRate, options.logger);
  }

  get contentType(): string {
    return CONTENT_TYPES[this.format];
  }

  /** Whether audio is encoded as configured (false: the WAV fallback is in use). */
  get encoderAvailable(): boolean {
    return this.format === this.requestedFormat;
  }

  start(): EncodingJob {
    if (this.format === 'wav') return wavJob(this.sampleRate);
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
    const args = ['-hide_banner', '-loglevel', 'error', '-nostdin'];
    args.push('-f', 's16le', '-ar', String(this.sampleRate), '-ac', '1', '-i', 'pipe:0');
    args.push(...ENCODERS[this.format as Exclude<AudioFormat, 'wav'>].args, '-flush_packets', '1', 'pipe:1');
    const child = spawn(this.ffmpegBin, args, { stdio: ['pipe', 'pipe', 'pipe'] });
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
  };
}
