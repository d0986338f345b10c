import { EventEmitter } from 'node:events';

/** What changed: one job (its status, progress or outcome), or the queue (a job left it, so places moved up). */
export type VideoJobChange = { jobId: string; leftQueue: boolean };

/**
 * Tells the event streams of this process at once that the worker of this process wrote a job, so a progress bar
 * follows the render without waiting for the streams' periodic read. It carries no state: a stream reads the job
 * again, so what it sends is always what is stored.
 */
export class VideoJobChanges {
  private readonly emitter = new EventEmitter();

  constructor() {
    // One listener per open stream; their number is bounded by the per-person limit, not by this warning.
    this.emitter.setMaxListeners(0);
  }

  /** The job was written; `leftQueue` when it went from queued to running (every queued job moved up one place). */
  changed(jobId: string, leftQueue = false): void {
    this.emitter.emit('change', { jobId, leftQueue } satisfies VideoJobChange);
  }

  /** Calls `listener` on every change; returns the function that stops it. */
  subscribe(listener: (change: VideoJobChange) => void): () => void {
    this.emitter.on('change', listener);
    return () => this.emitter.off('change', listener);
  }

  /** Listeners now subscribed (a stream that was closed must leave none behind). */
  get listenerCount(): number {
    return this.emitter.listenerCount('change');
  }
}
