/** A local stand-in for the cloud providers' HTTP APIs (not a test file itself). */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** How the fake answers one route: a function of the request, an HTTP error, or never. */
export type FakeAnswer =
  | { kind: 'reply'; status?: number; contentType: string; body: Buffer | string }
  | { kind: 'status'; status: number }
  | { kind: 'hang' };

/** One server for every provider; each test sets the answer per path (without the query). */
export class FakeCloud {
  readonly requests: RecordedRequest[] = [];
  private readonly answers = new Map<string, FakeAnswer>();
  private server?: http.Server;

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  on(path: string, answer: FakeAnswer): this {
    this.answers.set(path, answer);
    return this;
  }

  requestsTo(path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.url.split('?')[0] === path);
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = req.url ?? '/';
    this.requests.push({ method: req.method ?? 'GET', url, headers: req.headers, body: Buffer.concat(chunks) });
    const answer = this.answers.get(url.split('?')[0]!);
    if (!answer) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such route"}');
      return;
    }
    if (answer.kind === 'hang') return;
    if (answer.kind === 'status') {
      // A body that must never reach Kasa's clients or logs.
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'provider secret detail sk-test-123' } }));
      return;
    }
    res.writeHead(answer.status ?? 200, { 'content-type': answer.contentType });
    res.end(answer.body);
  }
}

/** One second of a 440 Hz tone as 16-bit mono PCM. */
export function tone(sampleRate: number, seconds = 1): Buffer {
  const pcm = Buffer.alloc(Math.round(sampleRate * seconds) * 2);
  for (let i = 0; i < pcm.length / 2; i++)
    pcm.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / sampleRate)), i * 2);
  return pcm;
}

/** A WAV file around PCM. */
export function wavFile(pcm: Buffer, sampleRate: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
}
