import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeMode, FakeOpenAI } from './fakeOpenAI';

/**
 * A small HTTP control of a FakeOpenAI, for test suites written in other languages (the Python and Go SDKs' suites):
 * PUT /mode sets the provider's mode; GET /requests/last says what the platform last asked it and when it hung up
 * (`closedAt`), with `count`, the number of requests so far.
 */
export interface FakeProviderControl {
  /** The control's address, e.g. http://127.0.0.1:41234. */
  url: string;
  stop(): Promise<void>;
}

export function startFakeProviderControl(fake: FakeOpenAI): Promise<FakeProviderControl> {
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const send = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.method === 'PUT' && req.url === '/mode') {
        fake.mode = JSON.parse(raw) as FakeMode;
        send(200, fake.mode);
      } else if (req.method === 'GET' && req.url === '/requests/last') {
        const last = fake.requests.at(-1);
        send(last ? 200 : 404, last ? { ...last, count: fake.requests.length } : { message: 'No request yet' });
      } else send(404, { message: `No ${req.method} ${req.url}` });
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        stop: () => new Promise<void>((done) => server.close(() => done())),
      }),
    ),
  );
}
