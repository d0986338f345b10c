import { TokenBatcher, type FrameScheduler } from './tokenBatcher';

/** A frame clock the test advances by hand. */
class ManualFrames implements FrameScheduler {
  private next = 1;
  readonly callbacks = new Map<number, () => void>();

  request(callback: () => void): number {
    const handle = this.next++;
    this.callbacks.set(handle, callback);
    return handle;
  }

  cancel(handle: number): void {
    this.callbacks.delete(handle);
  }

  tick(): void {
    const due = [...this.callbacks.values()];
    this.callbacks.clear();
    for (const callback of due) callback();
  }
}

describe('TokenBatcher', () => {
  let frames: ManualFrames;
  let flushed: string[];
  let batcher: TokenBatcher;

  beforeEach(() => {
    frames = new ManualFrames();
    flushed = [];
    batcher = new TokenBatcher((text) => flushed.push(text), frames);
  });

  it('delivers every token that arrived before a frame as one update in that frame', () => {
    for (let i = 0; i < 500; i++) batcher.push(`w${i} `);
    expect(flushed).toEqual([]);
    expect(frames.callbacks.size).toBe(1);

    frames.tick();

    expect(flushed).toHaveLength(1);
    expect(flushed[0]).toBe(Array.from({ length: 500 }, (_, i) => `w${i} `).join(''));
  });

  it('schedules a new frame only when new tokens come, and keeps their order', () => {
    batcher.push('Hello');
    frames.tick();
    frames.tick();
    batcher.push(', ');
    batcher.push('world');
    frames.tick();
    expect(flushed).toEqual(['Hello', ', world']);
    expect(frames.callbacks.size).toBe(0);
  });

  it('flush delivers at once and cancels the scheduled frame', () => {
    batcher.push('last words');
    batcher.flush();
    expect(flushed).toEqual(['last words']);
    expect(frames.callbacks.size).toBe(0);
    batcher.flush();
    expect(flushed).toEqual(['last words']);
  });

  it('ignores empty tokens and drops everything on dispose', () => {
    batcher.push('');
    expect(frames.callbacks.size).toBe(0);
    batcher.push('never shown');
    batcher.dispose();
    frames.tick();
    batcher.flush();
    expect(flushed).toEqual([]);
  });
});
