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

/**
 * Every format one synthesis may ask for: the configured one (VOICE_AUDIO_FORMAT) and, for the OpenAI-compatible
 * speech route, the others ffmpeg makes: AAC (ADTS), FLAC and raw PCM (16-bit little-endian mono at 24 kHz, as
 * OpenAI's `pcm` is).
 */
export type EncodingFormat = AudioFormat | 'aac' | 'flac' | 'pcm';

export const ENCODING_CONTENT_TYPES: Record<EncodingFormat, string> = {
  ...CONTENT_TYPES,
  aac: 'audio/aac',
  flac: 'audio/flac',
  pcm: 'audio/pcm',
};

/** The sample rate of raw PCM answers (OpenAI's `pcm`), whatever the engines' rate. */
export const PCM_OUTPUT_RATE = 24_000;

/** What one encoding makes: its format and, read faster or slower (0.25–4), its speed (ffmpeg's atempo). */
export interface EncodingRequest {
  format?: EncodingFormat;
  speed?: number;
}

const ENCODERS: Record<Exclude<EncodingFormat, 'wav' | 'pcm'>, { codec: string; args: string[] }> = {
  // Constant bit rate, and no Xing header (a pipe cannot go back to fill it in): players get the duration right.
  mp3: { codec: 'libmp3lame', args: ['-c:a', 'libmp3lame', '-b:a', '32k', '-write_xing', '0', '-f', 'mp3'] },
  // Opus made for speech; pages of 200 ms of audio, so that the first one leaves early.
  ogg: {
    codec: 'libopus',
    args: ['-c:a', 'libopus', '-b:a', '24k', '-application', 'voip', '-page_duration', '200000', '-f', 'ogg'],
  },
  aac: { codec: 'aac', args: ['-c:a', 'aac', '-b:a', '48k', '-f', 'adts'] },
  flac: { codec: 'flac', args: ['-c:a', 'flac', '-f', 'flac'] },
};

/** WAV and raw PCM through ffmpeg (when read at another speed, or resampled): its PCM encoder is always there. */
const RAW_OUTPUTS: Record<'wav' | 'pcm', string[]> = {
  wav: ['-c:a', 'pcm_s16le', '-f', 'wav'],
  pcm: ['-c:a', 'pcm_s16le', '-ar', String(PCM_OUTPUT_RATE), '-f', 's16le'],
};

/** ffmpeg's atempo filter, chained within 0.5–2 per step (older ffmpeg takes no more in one). */
function tempoFilter(speed: number): string {
  const steps: string[] = [];
  let rest = speed;
  while (rest < 0.5) {
    steps.push('atempo=0.5');
    rest /= 0.5;
  }
  while (rest > 2) {
    steps.push('atempo=2');
    rest /= 2;
  }
  if (Math.abs(rest - 1) > 1e-6) steps.push(`atempo=${rest.toFixed(6)}`);
  return steps.join(',');
}

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
    /** The ffmpeg that runs (whatever the configured format) and the formats its encoders make. */
    private readonly ffmpeg: { command: string; formats: ReadonlySet<EncodingFormat> } | undefined,
  ) {
    if (this.ffmpegBin) this.spare = this.spawn({ format: this.format });
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
    // The encoders this ffmpeg has, for the configured format and for the formats a request may ask for.
    const listing = ffmpeg
      ? await runProcess(ffmpeg.command, ['-hide_banner', '-encoders'], {
          signal: AbortSignal.timeout(ffmpeg.source === 'npm' ? 30_000 : 5_000),
        }).catch(() => undefined)
      : undefined;
    const encoderList = listing?.code === 0 ? listing.stdout.toString('utf8') : undefined;
    const others =
      ffmpeg && encoderList !== undefined
        ? {
            command: ffmpeg.command,
            formats: new Set<EncodingFormat>([
              'wav',
              'pcm',
              ...(Object.keys(ENCODERS) as (keyof typeof ENCODERS)[]).filter((f) =>
                encoderList.includes(ENCODERS[f].codec),
              ),
            ]),
          }
        : undefined;
    const make = (name: EncoderName, actual: AudioFormat, bin?: string, lame?: Mp3EncoderClass) =>
      new AudioEncoders(bin, name, actual, format, sampleRate, logger, lame, limits, others);
    if (format === 'wav') {
      logger.info('audio: WAV, as configured');
      return make('none', 'wav');
    }
    const codec = ENCODERS[format].codec;
    if (ffmpeg) {
      if (encoderList?.includes(codec)) {
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

  /** The Content-Type of audio in this format. */
  contentTypeOf(format: EncodingFormat = this.format): string {
    return ENCODING_CONTENT_TYPES[format];
  }

  /**
   * Whether an encoding in this format, at this speed, can be made here: the configured format always (at its own
   * speed); WAV always; MP3 with lamejs too; the rest, and any other speed, only with an ffmpeg that has the encoder.
   */
  supports(format: EncodingFormat, speed = 1): boolean {
    if (speed === 1 && (format === this.format || format === 'wav' || (format === 'mp3' && this.lame))) return true;
    return this.ffmpeg?.formats.has(format) ?? false;
  }

  /** The formats `supports` allows at this speed. */
  formats(speed = 1): EncodingFormat[] {
    return (Object.keys(ENCODING_CONTENT_TYPES) as EncodingFormat[]).filter((f) => this.supports(f, speed));
  }

  /**
   * Starts one encoding: the configured format unless `request` asks for another format or speed (see `supports`;
   * anything else throws).
   */
  start(request: EncodingRequest = {}): EncodingJob {
    const format = request.format ?? this.format;
    const speed = request.speed ?? 1;
    if (format !== this.format || speed !== 1) return this.startOther(format, speed);
    if (this.lame) return lameJob(this.lame, this.sampleRate);
    if (!this.ffmpegBin) return wavJob(this.sampleRate);
    const ready = this.spare && this.spare.exitCode === null && !this.spare.killed ? this.spare : undefined;
    const process = ready ?? this.spawn({ format: this.format });
    this.spare = undefined;
    // Start the next one a little later: starting ffmpeg costs ~150 ms of CPU, which would otherwise compete with
    // this request's first audio.
    setTimeout(() => {
      if (!this.closed && !this.spare) this.spare = this.spawn({ format: this.format });
    }, SPARE_DELAY_MS).unref();
    return ffmpegJob(process);
  }

  /** Another format or speed than the configured one's: an ffmpeg of its own (none is kept ready for these). */
  private startOther(format: EncodingFormat, speed: number): EncodingJob {
    if (!this.supports(format, speed)) throw new Error(`${format} audio at speed ${speed} cannot be made here`);
    if (speed === 1 && format === 'wav') return wavJob(this.sampleRate);
    if (speed === 1 && format === 'mp3' && this.lame) return lameJob(this.lame, this.sampleRate);
    return ffmpegJob(this.spawn({ format, speed }, this.ffmpeg!.command));
  }

  close(): void {
    this.closed = true;
    this.spare?.kill('SIGKILL');
    this.spare = undefined;
  }

  private spawn(request: { format: EncodingFormat; speed?: number }, bin = this.ffmpegBin!): EncoderProcess {
    const { format, speed = 1 } = request;
    const args = ['-hide_banner', '-loglevel', 'error', '-nostdin'];
    args.push('-f', 's16le', '-ar', String(this.sampleRate), '-ac', '1', '-i', 'pipe:0');
    if (speed !== 1) args.push('-filter:a', tempoFilter(speed));
    const output = format === 'wav' || format === 'pcm' ? RAW_OUTPUTS[format] : ENCODERS[format].args;
    args.push(...output, '-flush_packets', '1', 'pipe:1');
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
