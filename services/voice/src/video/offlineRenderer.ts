import type { Logger } from '@kasa/service-kit';
import { spawn } from 'node:child_process';
import { constants as fsConstants } from 'node:fs';
import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FfmpegProgram } from '../speech/engines';
import { ProcessLimits } from '../speech/processLimits';
import { ProcessPoolBusyError, ProcessTimeLimitError, type ProcessPool } from '../speech/processPool';
import { deprioritize, runProcess, stopProcess } from '../speech/runProcess';
import type { SpeechChain } from '../speech/speechChain';
import { wavHeader } from '../speech/wav';
import { splitIntoCaptions, toSrt, wrapLines, type TimedCaption } from './captions';
import type { CaptionStyle } from './videoJobModel';
import { RenderError, type RenderedVideo, type RenderRequest, type VideoRenderer } from './videoRenderer';

const WIDTH = 1280;
const HEIGHT = 720;
/** Still text frames need few frames per second; fewer frames is less work on a small machine. */
const FPS = 12;
const BACKGROUND = '0x12324a';
/** Silence after each spoken caption, and the least time a caption stays on screen (seconds). */
const PAUSE_SECONDS = 0.35;
const MIN_CAPTION_SECONDS = 1.2;
/** Speech takes the first part of the progress bar, encoding the rest. */
const SPEECH_SHARE = 40;
/** ffmpeg filter arguments are split on `:` `,` `'` and the like; a font path with them is not used. */
const SAFE_PATH = /^[A-Za-z0-9/._-]+$/;
/** How often a render asks again for a place in a full process pool. */
const BUSY_RETRY_MS = 1_000;

/**
 * A video is background work: when the process pool and its queue are full, it waits for its turn (until its own
 * time limit) rather than failing as a request would.
 */
async function whenPoolHasRoom<T>(attempt: () => Promise<T>, signal: AbortSignal): Promise<T> {
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof ProcessPoolBusyError) || signal.aborted) throw err;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, BUSY_RETRY_MS);
        function done() {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          resolve();
        }
        signal.addEventListener('abort', done, { once: true });
      });
      if (signal.aborted) throw signal.reason;
    }
  }
}

/**
 * Makes a video with nothing but programs on the server: the prompt read aloud by the speech engines (eSpeak NG by
 * default), its sentences as captions on plain coloured frames, encoded with ffmpeg into an MP4 (H.264 and AAC) that
 * also carries the captions as a subtitle track. Captions are drawn on the frames (drawtext) when ffmpeg can draw and
 * the font exists; otherwise the frames stay plain and the subtitle track carries the text.
 */
export class OfflineRenderer implements VideoRenderer {
  readonly name = 'offline';

  private constructor(
    private readonly deps: {
      ffmpegBin: string;
      chain: SpeechChain;
      logger: Logger;
      pool?: ProcessPool;
      limits: ProcessLimits;
      /** The longest one ffmpeg may take to encode a video. */
      timeoutMs: number;
    },
    /** Which ffmpeg makes the videos: `system`, `npm` (the static build), or `none`. */
    readonly ffmpegSource: FfmpegProgram['source'] | 'none',
    readonly available: boolean,
    /** Where captions go, decided once at start. */
    readonly captions: CaptionStyle,
    private readonly fontPath: string | undefined,
  ) {}

  /** Checks once at start that ffmpeg runs with what it needs, and whether captions can be drawn. */
  static async create(deps: {
    ffmpeg: FfmpegProgram | undefined;
    fontPath: string;
    chain: SpeechChain;
    logger: Logger;
    /** The pool of heavy processes its ffmpeg goes through (its speech does, through the chain). */
    pool?: ProcessPool;
    /** The memory limit of its ffmpeg. */
    limits?: ProcessLimits;
    /** The longest one ffmpeg may take to encode a video (VOICE_VIDEO_TIMEOUT_MS by default). */
    timeoutMs?: number;
  }): Promise<OfflineRenderer> {
    const { ffmpeg } = deps;
    const run = async (args: string[]) =>
      ffmpeg
        ? runProcess(ffmpeg.command, ['-hide_banner', ...args], { signal: AbortSignal.timeout(30_000) }).catch(
            () => undefined,
          )
        : undefined;
    const [encoders, filters] = await Promise.all([run(['-encoders']), run(['-filters'])]);
    const listing = encoders?.code === 0 ? encoders.stdout.toString('utf8') : '';
    const available = listing.includes('libx264') && /\baac\b/.test(listing);
    const canDraw = filters?.code === 0 && filters.stdout.toString('utf8').includes('drawtext');
    const fontReadable =
      SAFE_PATH.test(deps.fontPath) &&
      (await access(deps.fontPath, fsConstants.R_OK).then(
        () => true,
        () => false,
      ));
    const captions: CaptionStyle = canDraw && fontReadable ? 'burned-in' : 'subtitle-track';
    if (!available)
      deps.logger.warn({ bin: ffmpeg?.command }, 'video: ffmpeg with libx264 and aac not found: videos cannot be made');
    else {
      deps.logger.info({ bin: ffmpeg!.command, captions }, `video: offline renderer with ${ffmpeg!.description}`);
      if (captions === 'subtitle-track')
        deps.logger.warn(
          { font: deps.fontPath },
          'no usable font for captions: videos get plain frames and a subtitle track',
        );
    }
    return new OfflineRenderer(
      {
        ffmpegBin: ffmpeg?.command ?? 'ffmpeg',
        chain: deps.chain,
        logger: deps.logger,
        pool: deps.pool,
        limits: deps.limits ?? ProcessLimits.none(),
        timeoutMs: deps.timeoutMs ?? 600_000,
      },
      available && ffmpeg ? ffmpeg.source : 'none',
      available,
      captions,
      captions === 'burned-in' ? deps.fontPath : undefined,
    );
  }

  async render(request: RenderRequest): Promise<RenderedVideo> {
    const { chain } = this.deps;
    if (!this.available)
      throw new RenderError('Videos cannot be made: the video encoder (ffmpeg) is not available on the server.');
    const voice = chain.pickVoice(request.language, request.voice);
    if (!voice) throw new RenderError(`No voice speaks ${request.language} on the server any more.`);
    request.onProgress(0, this.captions);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'kasa-video-'));
    const cleanup = () => rm(dir, { recursive: true, force: true });
    try {
      const { pcm, sampleRate, captions } = await this.speak(request, voice);
      const duration = pcm.length / 2 / sampleRate;
      await writeFile(path.join(dir, 'speech.wav'), Buffer.concat([wavHeader(sampleRate, pcm.length), pcm]));
      await writeFile(path.join(dir, 'captions.srt'), toSrt(captions));
      if (this.fontPath) {
        await Promise.all(captions.map((c, i) => writeFile(path.join(dir, `caption-${i}.txt`), wrapLines(c.text))));
      }
      const output = path.join(dir, 'video.mp4');
      await this.encode(dir, captions, duration, output, request);
      return {
        path: output,
        duration: Math.round(duration * 1000) / 1000,
        captions: this.captions,
        cues: captions,
        cleanup,
      };
    } catch (err) {
      await cleanup();
      throw err;
    }
  }

  /** Synthesizes caption after caption, with a short pause after each, and notes when each is spoken. */
  private async speak(request: RenderRequest, voice: NonNullable<ReturnType<SpeechChain['pickVoice']>>) {
    const texts = splitIntoCaptions(request.prompt, request.language);
    if (texts.length === 0) throw new RenderError('The prompt has nothing to say.');
    const pieces: Buffer[] = [];
    const captions: TimedCaption[] = [];
    let sampleRate = 0;
    let samples = 0;
    for (const [i, text] of texts.entries()) {
      let audio;
      try {
        audio = await whenPoolHasRoom(
          // Background work: people waiting for speech go first on busy cores.
          () => this.deps.chain.synthesize(text, voice, request.signal, request.language, { background: true }),
          request.signal,
        );
      } catch (err) {
        if (request.signal.aborted) throw err;
        throw new RenderError('The speech engine could not read the prompt aloud.', { cause: err });
      }
      if (sampleRate && audio.sampleRate !== sampleRate)
        throw new RenderError('The speech engines disagree on the sample rate.');
      sampleRate = audio.sampleRate;
      const start = samples / sampleRate;
      const spoken = audio.pcm.length / 2 / sampleRate;
      const shown = Math.max(spoken + PAUSE_SECONDS, MIN_CAPTION_SECONDS);
      const padding = Math.round((shown - spoken) * sampleRate);
      pieces.push(audio.pcm, Buffer.alloc(padding * 2));
      samples += audio.pcm.length / 2 + padding;
      captions.push({ text, start, end: samples / sampleRate });
      request.onProgress(Math.round(((i + 1) / texts.length) * SPEECH_SHARE));
    }
    return { pcm: Buffer.concat(pieces), sampleRate, captions };
  }

  /**
   * Encodes the video with ffmpeg, through the process pool when there is one: it waits for a place (its turn, even
   * when the queue is full: see whenPoolHasRoom), runs under the time limit, and is stopped with the job.
   */
  private async encode(
    dir: string,
    captions: TimedCaption[],
    duration: number,
    output: string,
    request: RenderRequest,
  ): Promise<void> {
    const { pool, timeoutMs } = this.deps;
    const run = (signal: AbortSignal) => this.encodeProcess(dir, captions, duration, output, request, signal);
    if (!pool) return run(request.signal);
    try {
      await whenPoolHasRoom(
        () => pool.run(run, { what: 'video encoding', timeoutMs, signal: request.signal }),
        request.signal,
      );
    } catch (err) {
      if (err instanceof ProcessTimeLimitError)
        throw new RenderError(
          `The video encoder took longer than ${Math.round(err.limitMs / 1000)} s and was stopped.`,
          { cause: err },
        );
      throw err;
    }
  }

  private encodeProcess(
    dir: string,
    captions: TimedCaption[],
    duration: number,
    output: string,
    request: RenderRequest,
    signal: AbortSignal,
  ): Promise<void> {
    const seconds = duration.toFixed(3);
    // Each caption drawn from its own file (no quoting of the text), only while it is spoken; `expansion=none` so
    // that nothing in the text is read as a drawtext expression.
    const draw = this.fontPath
      ? captions
          .map(
            (c, i) =>
              `drawtext=fontfile=${this.fontPath}:textfile=${path.join(dir, `caption-${i}.txt`)}:expansion=none` +
              `:fontcolor=white:fontsize=44:line_spacing=14:x=(w-text_w)/2:y=(h-text_h)/2` +
              `:enable='between(t,${c.start.toFixed(3)},${c.end.toFixed(3)})'`,
          )
          .join(',')
      : undefined;
    const args = [
      '-hide_banner',
      '-nostdin',
      '-y',
      '-loglevel',
      'error',
      '-progress',
      'pipe:1',
      '-nostats',
      '-f',
      'lavfi',
      '-i',
      `color=c=${BACKGROUND}:s=${WIDTH}x${HEIGHT}:r=${FPS}:d=${seconds}`,
      '-i',
      path.join(dir, 'speech.wav'),
      '-i',
      path.join(dir, 'captions.srt'),
      ...(draw ? ['-vf', draw] : []),
      '-map',
      '0:v',
      '-map',
      '1:a',
      '-map',
      '2:s',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-tune',
      'stillimage',
      '-crf',
      '30',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-b:a',
      '64k',
      '-c:s',
      'mov_text',
      '-t',
      seconds,
      // The index at the front: a browser starts playing before the whole file has arrived.
      '-movflags',
      '+faststart',
      output,
    ];
    return new Promise<void>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason as Error);
      const limited = this.deps.limits.wrap(this.deps.ffmpegBin, args);
      const child = spawn(limited.command, limited.args, { stdio: ['ignore', 'pipe', 'pipe'] });
      // A video is background work: people waiting for speech go first on busy cores.
      deprioritize(child);
      // Stopped with the job or at its time limit: SIGTERM, then SIGKILL after a grace; settled once it is gone.
      const stop = () => stopProcess(child);
      signal.addEventListener('abort', stop, { once: true });
      child.once('close', () => signal.removeEventListener('abort', stop));
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        if (stderr.length < 2_000) stderr += chunk.toString('utf8');
      });
      // `-progress` writes key=value lines; out_time_us is how far the encoder got.
      let partial = '';
      child.stdout.on('data', (chunk: Buffer) => {
        const lines = (partial + chunk.toString('utf8')).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) {
          const match = /^out_time_us=(\d+)/.exec(line);
          if (match && duration > 0) {
            const done = Math.min(1, Number(match[1]) / 1e6 / duration);
            request.onProgress(SPEECH_SHARE + Math.round(done * (95 - SPEECH_SHARE)));
          }
        }
      });
      child.on('error', (err: NodeJS.ErrnoException) => {
        if (signal.aborted) reject(err);
        else reject(new RenderError('The video encoder (ffmpeg) could not be started on the server.', { cause: err }));
      });
      child.on('close', (code) => {
        if (signal.aborted) return reject(signal.reason as Error);
        if (code === 0) return resolve();
        this.deps.logger.error(
          { jobId: request.jobId, code, stderr: stderr.slice(0, 500) },
          'ffmpeg failed to encode a video',
        );
        reject(new RenderError(`The video encoder (ffmpeg) failed (exit code ${code}).`));
      });
    });
  }
}
