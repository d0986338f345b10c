import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Upload {
  contentType: string;
  body: Buffer;
  fields: Record<string, string>;
}

/**
 * A fake speech provider at the edge of the platform, answering `heard` after `transcriptionDelayMs` (so that
 * progress shows) in two shapes: OpenAI's audio API (POST /v1/audio/transcriptions, multipart; and POST
 * /v1/audio/speech, 24 kHz 16-bit PCM: six seconds of a tone, in case the voice service picks a cloud voice for the
 * spoken replies) at `baseURL`, and Google's Speech-to-Text (POST /v1/speech:recognize, JSON with the audio in
 * base64) at `origin`, which only transcribes: with it the replies are spoken by the offline engine.
 */
export class FakeSpeechProvider {
  readonly uploads: Upload[] = [];
  readonly speech: { input: string; voice: string }[] = [];
  /** Answer transcriptions with a server error (a provider that is down). */
  failing = false;
  private server?: http.Server;

  constructor(private readonly options: { heard: string; transcriptionDelayMs: number }) {}

  /** OpenAI's base URL (OPENAI_BASE_URL). */
  get baseURL(): string {
    return `${this.origin}/v1`;
  }

  /** Google's (GOOGLE_STT_BASE_URL). */
  get origin(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
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
    const body = Buffer.concat(chunks);
    if (req.method === 'POST' && req.url === '/v1/audio/transcriptions') {
      const contentType = req.headers['content-type'] ?? '';
      this.uploads.push({ contentType, body, fields: multipartFields(contentType, body) });
      if (this.failing) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"fake outage","type":"server_error"}}');
        return;
      }
      await new Promise((r) => setTimeout(r, this.options.transcriptionDelayMs));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ text: this.options.heard, language: 'english', duration: 1.2 }));
      return;
    }
    if (req.method === 'POST' && req.url === '/v1/speech:recognize') {
      const request = JSON.parse(body.toString()) as { config: { languageCode: string }; audio: { content: string } };
      this.uploads.push({
        contentType: 'application/json',
        body: Buffer.from(request.audio.content, 'base64'),
        fields: { language: request.config.languageCode },
      });
      await new Promise((r) => setTimeout(r, this.options.transcriptionDelayMs));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ results: [{ alternatives: [{ transcript: this.options.heard, confidence: 0.93 }] }] }));
      return;
    }
    if (req.method === 'POST' && req.url === '/v1/audio/speech') {
      const request = JSON.parse(body.toString()) as { input: string; voice: string };
      this.speech.push(request);
      const rate = 24_000;
      const pcm = Buffer.alloc(rate * 6 * 2);
      for (let i = 0; i < rate * 6; i++)
        pcm.writeInt16LE(Math.round(Math.sin((i * 2 * Math.PI * 440) / rate) * 8000), i * 2);
      res.writeHead(200, { 'content-type': 'audio/pcm' });
      res.end(pcm);
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
  }
}

/** The text fields of a multipart/form-data body (the file part is left out). */
function multipartFields(contentType: string, body: Buffer): Record<string, string> {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  if (!boundary) return {};
  const fields: Record<string, string> = {};
  for (const part of body.toString('latin1').split(`--${boundary[1] ?? boundary[2]}`)) {
    const name = /Content-Disposition: form-data; name="([^"]+)"(; filename=)?/i.exec(part);
    if (!name || name[2]) continue;
    fields[name[1]!] = part.slice(part.indexOf('\r\n\r\n') + 4).replace(/\r\n$/, '');
  }
  return fields;
}
