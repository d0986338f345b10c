import type { TimedCaption } from './captions';
import type { CaptionStyle } from './videoJobModel';

/** What a renderer is asked to make. */
export interface RenderRequest {
  jobId: string;
  prompt: string;
  /** A catalogue code. */
  language: string;
  /** A voice id of the speech engines; the language's default voice when absent. */
  voice?: string;
  /** Aborts on timeout or shutdown; the renderer stops and cleans up. */
  signal: AbortSignal;
  /** 0–100 of this render; `captions` once the renderer knows how it shows the prompt. */
  onProgress(percent: number, captions?: CaptionStyle): void;
}

/** A finished MP4 in a temporary folder; `cleanup` removes it once it is stored. */
export interface RenderedVideo {
  path: string;
  /** Seconds. */
  duration: number;
  captions?: CaptionStyle;
  /** Each caption and when it is spoken, when the renderer knows (the offline one does; a hosted model does not). */
  cues?: TimedCaption[];
  cleanup(): Promise<void>;
}

/** One way of making a video: the offline renderer, or an adapter of a hosted video model. */
export interface VideoRenderer {
  readonly name: string;
  /** Whether it can be used (its programs were found, its credentials are set...). */
  readonly available: boolean;
  render(request: RenderRequest): Promise<RenderedVideo>;
}

/** A render failure whose message is fit to show the person who asked for the video (no internals). */
export class RenderError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RenderError';
  }
}
