import type { LocalModelStatus } from '@kasa/contracts';
import { ConflictError, InputError, type Logger } from '@kasa/service-kit';
import { mkdir, open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A small multilingual instruct model (1.5 B parameters, 4-bit, about 1 GB) that runs on a CPU. */
export const DEFAULT_MODEL_URL =
  'https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/main/qwen2.5-1.5b-instruct-q4_k_m.gguf';

/** A download that receives nothing for this long stops (and can be resumed). */
export const DEFAULT_STALL_MS = 60_000;

const GGUF_MAGIC = Buffer.from('GGUF', 'latin1');
const FILE_NAME = /^[A-Za-z0-9_+-][A-Za-z0-9._+-]{0,199}$/;

export interface ModelDownloaderOptions {
  modelsDir: string;
  /** A file larger than this is refused (as soon as its size is known). */
  maxBytes: number;
  defaultUrl?: string;
  /** The longest a download may go without receiving a byte. */
  stallMs?: number;
  /** How many times a dropped connection is resumed at once before the download fails (it can be resumed later). */
  retries?: number;
  retryDelayMs?: number;
  logger: Logger;
}

/**
 * Why a download stopped: `retry` when trying again at once could help (a dropped connection, a stall), `discard`
 * when the file is refused (its partial file is deleted).
 */
class DownloadError extends Error {
  readonly retry: boolean;
  readonly discard: boolean;

  constructor(message: string, { retry = false, discard = false }: { retry?: boolean; discard?: boolean } = {}) {
    super(message);
    this.name = 'DownloadError';
    this.retry = retry;
    this.discard = discard;
  }
}

/** The file a URL names: its last path part, which must be a plain file name. */
export function fileNameOf(url: string): string {
  let name = '';
  try {
    name = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
  } catch {
    name = '';
  }
  if (!FILE_NAME.test(name)) throw new InputError('url: must end with the model file name (letters, digits, . _ + -)');
  return name;
}

/** `bytes 100-199/1000` → its first byte and the whole size (when given). */
function contentRange(header: string | null): { start: number; total?: number } | undefined {
  const match = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(header?.trim() ?? '');
  if (!match) return undefined;
  return { start: Number(match[1]), ...(match[2] !== '*' ? { total: Number(match[2]) } : {}) };
}

/** A failure in one line for the status: fetch's own "fetch failed" says why in its cause. */
function describe(err: unknown): string {
  const { message, cause } = err instanceof Error ? err : { message: String(err), cause: undefined };
  const why = cause instanceof Error ? `: ${(cause as NodeJS.ErrnoException).code ?? cause.message}` : '';
  return `${message}${why}`.replace(/\s+/g, ' ').trim().slice(0, 500) || 'the download failed';
}

const duration = (ms: number) => (ms < 1_000 ? `${ms} ms` : `${Math.round(ms / 1_000)} s`);

async function sizeOf(file: string): Promise<number | undefined> {
  return stat(file).then(
    (info) => (info.isFile() ? info.size : undefined),
    () => undefined,
  );
}

async function startsWithMagic(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    return bytesRead === 4 && head.equals(GGUF_MAGIC);
  } finally {
    await handle.close();
  }
}

interface Running {
  url: string;
  file: string;
  bytes: number;
  totalBytes?: number;
  abort: AbortController;
  done: Promise<void>;
}

/**
 * Fetches the local model's file into the models folder, one download at a time: into `<name>.part`, continued with
 * an HTTP Range request after a cut (started over when the server ignores Range), renamed once complete. Refuses
 * what is not a GGUF file (by its first bytes) and files over the size limit; stops after a while without progress.
 */
export class ModelDownloader {
  private readonly defaultUrl: string;
  private readonly stallMs: number;
  private readonly retries: number;
  private readonly retryDelayMs: number;
  private url: string;
  private running: Running | undefined;
  private failure: { url: string; error: string } | undefined;

  constructor(private readonly options: ModelDownloaderOptions) {
    this.defaultUrl = options.defaultUrl ?? DEFAULT_MODEL_URL;
    this.url = this.defaultUrl;
    this.stallMs = options.stallMs ?? DEFAULT_STALL_MS;
    this.retries = options.retries ?? 3;
    this.retryDelayMs = options.retryDelayMs ?? 2_000;
  }

  /** Where the file a URL names is kept once complete. */
  pathOf(url: string): string {
    return path.join(this.options.modelsDir, fileNameOf(url));
  }

  /** The model file of the last URL asked for (or the default): being fetched, there, not there, or failed. */
  async status(): Promise<LocalModelStatus> {
    const running = this.running;
    if (running)
      return {
        state: 'downloading',
        url: running.url,
        file: running.file,
        bytes: running.bytes,
        ...(running.totalBytes !== undefined ? { totalBytes: running.totalBytes } : {}),
      };
    const url = this.url;
    const file = fileNameOf(url);
    const target = path.join(this.options.modelsDir, file);
    const complete = await sizeOf(target);
    if (complete !== undefined) return { state: 'ready', url, file, bytes: complete, totalBytes: complete };
    const partial = (await sizeOf(`${target}.part`)) ?? 0;
    if (this.failure?.url === url) return { state: 'failed', url, file, bytes: partial, error: this.failure.error };
    return { state: 'absent', url, file, bytes: partial };
  }

  /**
   * Starts fetching `url` (default: the last one asked for, else the default model), continuing its partial file if
   * there is one; answers at once with the status. A file already there is not fetched again.
   */
  async start(url: string = this.url): Promise<LocalModelStatus> {
    if (this.running) throw new ConflictError('A model download is already running; cancel it first');
    const file = fileNameOf(url);
    this.url = url;
    this.failure = undefined;
    const target = path.join(this.options.modelsDir, file);
    if ((await sizeOf(target)) !== undefined) return this.status();
    const bytes = (await sizeOf(`${target}.part`)) ?? 0;
    if (this.running) throw new ConflictError('A model download is already running; cancel it first');
    const running: Running = { url, file, bytes, abort: new AbortController(), done: Promise.resolve() };
    this.running = running;
    this.options.logger.info({ url, file, from: running.bytes }, 'local model download started');
    running.done = this.fetchAll(running, target)
      .then(() => this.options.logger.info({ url, file, bytes: running.bytes }, 'local model downloaded'))
      .catch((err: unknown) => {
        if (running.abort.signal.aborted) {
          this.options.logger.info({ url, file, bytes: running.bytes }, 'local model download cancelled');
          return;
        }
        const error = describe(err);
        this.failure = { url, error };
        this.options.logger.warn({ url, file, bytes: running.bytes, error }, 'local model download failed');
      })
      .finally(() => {
        if (this.running === running) this.running = undefined;
      });
    return this.status();
  }

  /** Stops the download in progress; its partial file stays, to be continued by the next start. */
  async cancel(): Promise<void> {
    const running = this.running;
    if (!running) return;
    running.abort.abort(new Error('cancelled'));
    await running.done;
  }

  /** Waits for the download in progress, if any, to end (shutdown, tests). */
  async settled(): Promise<void> {
    await this.running?.done;
  }

  private async fetchAll(running: Running, target: string): Promise<void> {
    await mkdir(this.options.modelsDir, { recursive: true });
    for (let attempt = 0; ; attempt++) {
      try {
        await this.fetchOnce(running, target);
        return;
      } catch (err) {
        const signal = running.abort.signal;
        if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : err;
        const retry = !(err instanceof DownloadError) || err.retry;
        if (!retry || attempt >= this.retries) throw err;
        this.options.logger.info({ url: running.url, bytes: running.bytes, attempt: attempt + 1 }, 'resuming download');
        await sleep(this.retryDelayMs, undefined, { signal });
      }
    }
  }

  /** One request: from the partial file's end (Range), or from the start; renames the file when it is complete. */
  private async fetchOnce(running: Running, target: string): Promise<void> {
    const part = `${target}.part`;
    let offset = (await sizeOf(part)) ?? 0;
    // A partial file that is not a GGUF file (or too short to tell) is not continued.
    if (offset > 0 && (offset < GGUF_MAGIC.length || !(await startsWithMagic(part)))) {
      await rm(part, { force: true });
      offset = 0;
    }
    running.bytes = offset;
    const outer = running.abort.signal;
    const request = new AbortController();
    const stop = (reason: unknown) => request.abort(reason);
    const onOuter = () => stop(outer.reason);
    outer.addEventListener('abort', onOuter, { once: true });
    let stall: NodeJS.Timeout | undefined;
    const watch = () => {
      clearTimeout(stall);
      stall = setTimeout(
        () => stop(new DownloadError(`no progress for ${duration(this.stallMs)}`, { retry: true })),
        this.stallMs,
      );
    };
    let handle: FileHandle | undefined;
    try {
      watch();
      const response = await fetch(running.url, {
        headers: offset > 0 ? { Range: `bytes=${offset}-` } : {},
        signal: request.signal,
        redirect: 'follow',
      });
      if (response.status === 416 && offset > 0) {
        // The partial file is already whole (or longer than the file now is): settle it by its size.
        await response.body?.cancel();
        const total = /\/(\d+)$/.exec(response.headers.get('content-range') ?? '')?.[1];
        if (total !== undefined && Number(total) === offset) return await rename(part, target);
        await rm(part, { force: true });
        throw new DownloadError("the partial file did not match the server's file", { retry: true });
      }
      if (!response.ok || !response.body) {
        await response.body?.cancel();
        throw new DownloadError(`the server answered HTTP ${response.status}`, { retry: response.status >= 500 });
      }
      const range = response.status === 206 ? contentRange(response.headers.get('content-range')) : undefined;
      if (response.status === 206 && range?.start !== offset) {
        await response.body.cancel();
        await rm(part, { force: true });
        throw new DownloadError('the server sent another part of the file than asked', { retry: true });
      }
      // 200 to a Range request: the server sends the whole file, which is written from the start.
      const resumed = response.status === 206;
      if (!resumed) offset = 0;
      const length = Number(response.headers.get('content-length') ?? NaN);
      const total = range?.total ?? (Number.isFinite(length) ? offset + length : undefined);
      running.bytes = offset;
      if (total !== undefined) running.totalBytes = total;
      if (total !== undefined && total > this.options.maxBytes) {
        await response.body.cancel();
        throw new DownloadError(`the file is larger than the limit (${total} > ${this.options.maxBytes} bytes)`, {
          discard: true,
        });
      }
      handle = await open(part, resumed ? 'a' : 'w');
      let checked = resumed;
      let head = Buffer.alloc(0);
      const reader = response.body.getReader();
      for (;;) {
        const { done, value: chunk } = await reader.read();
        if (done) break;
        watch();
        let bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        if (!checked) {
          // The first four bytes of a GGUF file say so; they may come in pieces.
          head = Buffer.concat([head, bytes]);
          if (head.length < GGUF_MAGIC.length) continue;
          if (!head.subarray(0, GGUF_MAGIC.length).equals(GGUF_MAGIC))
            throw new DownloadError('the file is not a GGUF model (it does not start with GGUF)', { discard: true });
          checked = true;
          bytes = head;
        }
        if (running.bytes + bytes.length > this.options.maxBytes)
          throw new DownloadError(`the file is larger than the limit (${this.options.maxBytes} bytes)`, {
            discard: true,
          });
        await handle.write(bytes);
        running.bytes += bytes.length;
      }
      if (!checked) throw new DownloadError('the file is not a GGUF model (it is too short)', { discard: true });
      await handle.close();
      handle = undefined;
      if (total !== undefined && running.bytes !== total)
        throw new DownloadError(`the connection ended at ${running.bytes} of ${total} bytes`, { retry: true });
      await rename(part, target);
    } catch (err) {
      // The request's own abort carries why (a stall, or the cancel); a refused file leaves nothing behind.
      const reason: unknown = request.signal.aborted ? request.signal.reason : err;
      if (reason instanceof DownloadError && reason.discard) await rm(part, { force: true });
      throw reason;
    } finally {
      clearTimeout(stall);
      // Closes the connection whatever happened (a refused file is not read to its end).
      if (!request.signal.aborted) request.abort(new Error('done'));
      outer.removeEventListener('abort', onOuter);
      await handle?.close();
    }
  }
}
