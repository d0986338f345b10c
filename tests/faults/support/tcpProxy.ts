import net from 'node:net';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { freePort } = require('../../../scripts/embedded-mongo') as { freePort: () => Promise<number> };

/**
 * A TCP proxy on a free local port in front of a real server (the broker, the database), which a test can cut and
 * restore: `cut()` drops every open connection and refuses new ones (as a stopped server would), `restore()` accepts
 * them again on the same port.
 *
 * The port comes from the lane's range (freePort, below the kernel's ephemeral range), never from the kernel: while
 * the proxy is cut, a port of the ephemeral range may be handed to an outgoing connection, even to one of the
 * clients retrying this very address (a socket whose source and destination are the same port connects to
 * itself), and the platform's client then talks to itself instead of reaching the restored server.
 */
export class TcpProxy {
  private server?: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private port = 0;
  /** Connections accepted so far (the platform's clients reconnecting after a cut show up here). */
  accepted = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** `host:port` the platform should use instead of the real server. */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  get isCut(): boolean {
    return this.server === undefined;
  }

  async start(): Promise<this> {
    this.port = await freePort();
    await this.listen();
    return this;
  }

  /** Drops every connection and stops listening; clients get ECONNRESET, then ECONNREFUSED. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Listens again on the same port. */
  async restore(): Promise<void> {
    if (!this.server) await this.listen();
  }

  async stop(): Promise<void> {
    await this.cut();
  }

  private async listen(): Promise<void> {
    const server = net.createServer((client) => this.pipe(client));
    // Right after a cut the port may still be in use for a moment; try again briefly.
    for (let attempt = 1; ; attempt += 1) {
      try {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(this.port, '127.0.0.1', () => {
            server.off('error', reject);
            resolve();
          });
        });
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 50) throw err;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  private pipe(client: net.Socket): void {
    if (!this.server) {
      client.destroy();
      return;
    }
    this.accepted += 1;
    const upstream = net.connect(this.targetPort, this.targetHost);
    this.sockets.add(client);
    this.sockets.add(upstream);
    const close = () => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
