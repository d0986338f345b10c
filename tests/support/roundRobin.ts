import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, type Dispatcher } from 'undici';

export interface RoundRobin {
  url: string;
  /** How many requests each target was given, by index. */
  served: number[];
  close(): Promise<void>;
}

/**
 * A tiny HTTP load balancer for tests: each request goes to the next target in turn (per request, not per
 * connection, so one keep-alive client still alternates), streamed both ways (Server-Sent Events flow through).
 * A request carrying `x-<label>-replica: <index>` goes to that target instead, so a test can pin a step to one
 * replica; every answer says which one served it in the same header.
 */
export async function startRoundRobin(targets: string[], label: string): Promise<RoundRobin> {
  const header = `x-${label}-replica`;
  const served = targets.map(() => 0);
  const agent = new Agent({ connections: null, pipelining: 0, headersTimeout: 0, bodyTimeout: 0 });
  let next = 0;
  const server = http.createServer((req, res) => {
    const pinned = Number(req.headers[header]);
    const index = Number.isInteger(pinned) && targets[pinned] ? pinned : next++ % targets.length;
    served[index]! += 1;
    const abort = new AbortController();
    // The client hanging up ends the upstream request too (a stopped stream must reach the replica).
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    const { connection: _connection, 'keep-alive': _keepAlive, 'transfer-encoding': _te, ...headers } = req.headers;
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    // A body is read whole first and sent as one buffer: a target that answers before reading all of it (a 413)
    // then still gets its answer through, where a streamed upload could fail first and hide the answer.
    (hasBody ? readBody(req) : Promise.resolve(undefined))
      .then((body) =>
        agent.request({
          origin: targets[index]!,
          path: req.url ?? '/',
          method: req.method as Dispatcher.HttpMethod,
          headers: headers as Record<string, string>,
          body,
          signal: abort.signal,
        }),
      )
      .then(
        (answer) => {
          const out: http.OutgoingHttpHeaders = { [header]: String(index) };
          for (const [name, value] of Object.entries(answer.headers))
            if (!['connection', 'keep-alive', 'transfer-encoding'].includes(name)) out[name] = value;
          res.writeHead(answer.statusCode, out);
          res.flushHeaders();
          answer.body.on('error', () => res.destroy());
          answer.body.pipe(res);
        },
        () => {
          if (res.headersSent) return void res.destroy();
          res.writeHead(502, { 'content-type': 'application/json', [header]: String(index) });
          res.end(JSON.stringify({ message: `replica ${index} unreachable`, code: 'upstream_unavailable' }));
        },
      );
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served,
    close: async () => {
      server.closeAllConnections();
      await agent.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
