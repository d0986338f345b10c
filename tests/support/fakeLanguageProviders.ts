import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as a provider received it. */
export interface ProviderRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A local stand-in for the outside providers behind speech to text and translation, at the edge of the platform:
 * Google Cloud Speech-to-Text (`POST /v1/speech:recognize`) and an OpenAI-compatible Chat Completions server
 * (`POST /v1/chat/completions`, answered whole: translation asks for the text in one piece). Point the voice
 * service at it with `GOOGLE_STT_BASE_URL` and `<PROVIDER>_BASE_URL` (see `env()`).
 */
export class FakeLanguageProviders {
  /** What the recognizer hears in any recording. */
  transcript = 'Good morning from Accra';
  /** What the translator answers, whatever it is asked. */
  translation = 'Maakye, wo ho te sɛn?';
  readonly requests: ProviderRequest[] = [];
  private server?: http.Server;

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  /**
   * The voice service's settings that send speech to text and translation here. Only the Google key for speech to
   * text is set (not its text-to-speech key), so synthesis keeps using the offline engine.
   */
  env(): NodeJS.ProcessEnv {
    return {
      GOOGLE_STT_API_KEY: 'fake-google-stt-key',
      GOOGLE_STT_BASE_URL: this.url,
      TRANSLATE_PROVIDERS: 'edge-translator',
      EDGE_TRANSLATOR_BASE_URL: `${this.url}/v1`,
      EDGE_TRANSLATOR_MODEL: 'fake-translator',
      EDGE_TRANSLATOR_API_KEY: 'fake-translator-key',
    };
  }

  requestsTo(path: string): ProviderRequest[] {
    return this.requests.filter((r) => r.path === path);
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
    const path = (req.url ?? '/').split('?')[0]!;
    this.requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body: Buffer.concat(chunks) });
    const json = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method === 'POST' && path === '/v1/speech:recognize') {
      json(200, { results: [{ alternatives: [{ transcript: this.transcript, confidence: 0.93 }] }] });
      return;
    }
    if (req.method === 'POST' && path === '/v1/chat/completions') {
      const model = (JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { model?: string }).model;
      json(200, {
        id: 'chatcmpl-fake-translation',
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: model ?? 'fake-translator',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: this.translation },
            finish_reason: 'stop',
            logprobs: null,
          },
        ],
        usage: { prompt_tokens: 30, completion_tokens: 8, total_tokens: 38 },
      });
      return;
    }
    json(404, { error: { message: 'no such route in the fake', type: 'invalid_request_error' } });
  }
}
