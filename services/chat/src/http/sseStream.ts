import type { Response } from 'express';

/**
 * A Server-Sent Events response: the headers that keep proxies from buffering or transforming it (the gateway and
 * nginx honour X-Accel-Buffering), each event written at once, and a `: ping` comment every `heartbeatMs` so that
 * idle proxies keep a long reply open.
 */
export class SseStream {
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly res: Response,
    heartbeatMs: number,
  ) {
    res.status(200);
    res.set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    // Tokens are small writes: send each one now rather than waiting to coalesce them (Nagle).
    res.socket?.setNoDelay(true);
    this.heartbeat = setInterval(() => this.write(': ping\n\n'), heartbeatMs);
    this.heartbeat.unref();
  }

  send(event: string, data: unknown): void {
    this.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  end(): void {
    clearInterval(this.heartbeat);
    if (!this.res.writableEnded) this.res.end();
  }

  private write(chunk: string): void {
    if (!this.res.writableEnded && !this.res.destroyed) this.res.write(chunk);
  }
}
