import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  at: number;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  contentType: string | undefined;
  /** The request's body as it arrived. */
  body: Buffer;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, index: number) => void;

/** A small HTTP server that answers each request with the next handler (the last one repeats) and records them. */
export async function localServer(handlers: Handler[]): Promise<{
  baseUrl: string;
  seen: SeenRequest[];
  close: () => Promise<void>;
}> {
  const seen: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const index = seen.length;
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        at: Date.now(),
        authorization: req.headers.authorization,
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
        contentType: req.headers['content-type'],
        body: Buffer.concat(chunks),
      });
      handlers[Math.min(index, handlers.length - 1)]!(req, res, index);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Handler =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

/** Drops the connection without answering: what a client sees as a network error. */
export const hangUp: Handler = (req) => req.socket.destroy();
