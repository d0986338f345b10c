/** Schedules one callback per frame; `requestAnimationFrame` in the browser, a fake clock in tests. */
export interface FrameScheduler {
  request(callback: () => void): number;
  cancel(handle: number): void;
}

export const animationFrames: FrameScheduler = {
  request: (callback) => requestAnimationFrame(callback),
  cancel: (handle) => cancelAnimationFrame(handle),
};

/**
 * Collects a reply's tokens and hands them on at most once per animation frame, joined. A fast stream can bring
 * hundreds of tokens a second; rendering each one would keep the main thread busy and freeze the page, while one
 * render per frame looks the same to the reader.
 */
export class TokenBatcher {
  private pending = '';
  private frame: number | null = null;

  constructor(
    private readonly onFlush: (text: string) => void,
    private readonly scheduler: FrameScheduler = animationFrames,
  ) {}

  /** Adds a token; the next frame delivers it with every other token that arrived before that frame. */
  push(text: string): void {
    if (text === '') return;
    this.pending += text;
    if (this.frame === null) {
      this.frame = this.scheduler.request(() => {
        this.frame = null;
        this.deliver();
      });
    }
  }

  /** Delivers what is pending now (before the reply's final state is shown, so no token lands after it). */
  flush(): void {
    if (this.frame !== null) {
      this.scheduler.cancel(this.frame);
      this.frame = null;
    }
    this.deliver();
  }

  /** Drops what is pending and any scheduled frame (the conversation was left). */
  dispose(): void {
    if (this.frame !== null) this.scheduler.cancel(this.frame);
    this.frame = null;
    this.pending = '';
  }

  private deliver(): void {
    if (this.pending === '') return;
    const text = this.pending;
    this.pending = '';
    this.onFlush(text);
  }
}
