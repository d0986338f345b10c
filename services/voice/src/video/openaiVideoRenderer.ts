import type { Logger } from '@kasa/service-kit';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { RenderError, type RenderedVideo, type RenderRequest, type VideoRenderer } from './videoRenderer';

/** The part of OpenAI's video object (GET /videos/{id}) this adapter reads. */
const HostedVideo = z.object({
  id: z.string().min(1).max(200),
  status: z.enum(['queued', 'in_progress', 'completed', 'failed']),
  progress: z.number().min(0).max(100).nullish(),
  seconds: z.union([z.string(), z.number()]).nullish(),
  error: z.object({ code: z.string().max(100).nullish() }).nullish(),
});

/** Clip length asked for; the model makes 4, 8 or 12 seconds. */
const CLIP_SECONDS = '8';
const MAX_VIDEO_BYTES = 512 * 1024 * 1024;

/**
 * OpenAI's hosted video model (Videos API: POST /videos, poll GET /videos/{id}, then GET /videos/{id}/content). Used
 * when VOICE_VIDEO_PROVIDER=openai and OPENAI_API_KEY is set; OPENAI_BASE_URL points it elsewhere (a proxy, or a fake
 * in tests). The provider's error bodies can echo the prompt, so only status codes and error codes are kept.
 */
export class OpenAIVideoRenderer implements VideoRenderer {
  readonly name = 'openai';
  readonly available: boolean;

  constructor(
    private readonly options: {
      apiKey: string | undefined;
      baseUrl: string;
      model: string;
      logger: Logger;
      /** How often the job is asked about; 2 s by default. */
      pollMs?: number;
    },
  ) {
    this.available = !!options.apiKey;
  }

  async render(request: RenderRequest): Promise<RenderedVideo> {
    const created = HostedVideo.parse(
      await this.call('/videos', request.signal, {
        method: 'POST',
        body: JSON.stringify({
          model: this.options.model,
          prompt: request.prompt,
          seconds: CLIP_SECONDS,
          size: '1280x720',
        }),
      }).then((res) => res.json()),
    );
    let video = created;
    while (video.status === 'queued' || video.status === 'in_progress') {
      request.onProgress(Math.min(90, Math.round((video.progress ?? 0) * 0.9)));
      await sleep(this.options.pollMs ?? 2_000, undefined, { signal: request.signal });
      const answer = await this.call(`/videos/${encodeURIComponent(created.id)}`, request.signal);
      const parsed = HostedVideo.safeParse(await answer.json().catch(() => undefined));
      if (!parsed.success) throw new RenderError('The video model (openai) sent an answer Kasa does not understand.');
      video = parsed.data;
    }
    if (video.status === 'failed') {
      const code = video.error?.code ? ` (${video.error.code})` : '';
      throw new RenderError(`The video model (openai) could not make this video${code}.`);
    }
    const dir = await mkdtemp(path.join(os.tmpdir(), 'kasa-video-'));
    const cleanup = () => rm(dir, { recursive: true, force: true });
    try {
      const content = await this.call(`/videos/${encodeURIComponent(created.id)}/content`, request.signal);
      const length = Number(content.headers.get('content-length') ?? 0);
      if (!content.body || length > MAX_VIDEO_BYTES)
        throw new RenderError('The video model (openai) sent no usable video.');
      const output = path.join(dir, 'video.mp4');
      await pipeline(
        Readable.fromWeb(content.body as import('node:stream/web').ReadableStream),
        createWriteStream(output),
        {
          signal: request.signal,
        },
      );
      request.onProgress(95);
      return { path: output, duration: Number(video.seconds ?? CLIP_SECONDS) || 0, cleanup };
    } catch (err) {
      await cleanup();
      throw err;
    }
  }

  private async call(pathname: string, signal: AbortSignal, init: RequestInit = {}): Promise<Response> {
    const url = `${this.options.baseUrl.replace(/\/+$/, '')}${pathname}`;
    let res: Response;
    try {
      res = await fetch(url, {
        ...init,
        headers: { authorization: `Bearer ${this.options.apiKey ?? ''}`, 'content-type': 'application/json' },
        signal: AbortSignal.any([signal, AbortSignal.timeout(60_000)]),
        redirect: 'error',
      });
    } catch (err) {
      if (signal.aborted) throw err;
      throw new RenderError('The video model (openai) could not be reached.', { cause: err });
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      this.options.logger.warn({ status: res.status, path: pathname.split('/')[1] }, 'video model answered an error');
      throw new RenderError(`The video model (openai) answered HTTP ${res.status}.`);
    }
    return res;
  }
}
