import { createServer, type Server } from 'node:http';
import type { Express } from 'express';
import { createHttpTerminator } from 'http-terminator';
import type { Logger } from './logger';

export interface RunningServer {
  server: Server;
  port: number;
  /** Stops accepting connections, lets in-flight requests finish (up to the timeout), then runs the closers. */
  stop(): Promise<void>;
}

/**
 * How many connections the kernel completes and holds for a service before it accepts them (capped by
 * net.core.somaxconn, 4096 on current kernels). Node's default, 511, is too few for a burst: 1,000 streamed chats
 * opening at once make the gateway open as many connections to chat, the kernel drops the SYNs past the queue, and
 * a dropped SYN is sent again only after 1 s, the gateway's connect timeout, so those chats failed with 503.
 */
export const LISTEN_BACKLOG = 4096;

/**
 * Listens, and on SIGTERM or SIGINT drains HTTP, then closes the given resources (channels, connections) in order.
 * `onShutdownStart` lets readiness answer 503 while draining, so a load balancer stops sending traffic first.
 */
export async function startServer(options: {
  app: Express;
  port: number;
  host?: string;
  logger: Logger;
  shutdownTimeoutMs?: number;
  closers?: Array<{ name: string; close: () => Promise<unknown> }>;
  onShutdownStart?: () => void;
  handleSignals?: boolean;
}): Promise<RunningServer> {
  const { app, logger } = options;
  const server = await new Promise<Server>((resolve, reject) => {
    const s = createServer(app).listen(
      { port: options.port, host: options.host ?? '127.0.0.1', backlog: LISTEN_BACKLOG },
      () => resolve(s),
    );
    s.once('error', reject);
  });
  // Streams (Server-Sent Events) may stay open for minutes; the socket timeout must not cut them.
  server.requestTimeout = 0;
  server.keepAliveTimeout = 65_000;
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const terminator = createHttpTerminator({ server, gracefulTerminationTimeout: options.shutdownTimeoutMs ?? 10_000 });

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      options.onShutdownStart?.();
      logger.info('shutting down: draining HTTP');
      await terminator.terminate();
      for (const closer of options.closers ?? []) {
        try {
          await closer.close();
          logger.info({ resource: closer.name }, 'closed');
        } catch (err) {
          logger.warn({ err, resource: closer.name }, 'close failed');
        }
      }
      logger.info('shut down');
    })();
    return stopping;
  };

  if (options.handleSignals ?? true) {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.once(signal, () => {
        stop().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      });
    }
  }
  logger.info({ port }, 'listening');
  return { server, port, stop };
}
