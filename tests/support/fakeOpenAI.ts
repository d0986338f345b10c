import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

export type FakeMode =
  /** Streams `text` word by word, `delayMs` apart, the first after `firstTokenDelayMs`. */
  | { kind: 'ok'; text: string; delayMs?: number; firstTokenDelayMs?: number }
  /** Answers with an HTTP error before streaming. */
  | { kind: 'status'; status: number }
  /** Accepts the request and never answers. */
  | { kind: 'hang' }
  /** Streams the first `words` words of `text`, then kills the connection. */
  | { kind: 'die'; text: string; words: number }
  /** Streams `text` and then stalls forever with the connection open. */
  | { kind: 'stall'; text: string }
  /** Streams a numbered word every `intervalMs`, forever, until the client goes away. */
  | { kind: 'endless'; intervalMs: number }
  /** Answers 200 with `body` exactly as given (e.g. malformed or hostile stream events), then ends. */
  | { kind: 'raw'; body: string; contentType?: string }
  /**
   * Calls tools as OpenAI does (optionally after some text): with `stream: true`, each call's first delta has its
   * index, id, type and name with empty arguments, then its arguments in `argumentPieces` pieces (default 3) under
   * the same index, then finish_reason "tool_calls"; otherwise one message with `tool_calls`.
   */
  | { kind: 'tool-calls'; calls: FakeToolCall[]; text?: string; argumentPieces?: number }
  /** Answers with `json` (a value, sent as its JSON text, or a text sent as it is), streamed or in one message. */
  | { kind: 'json'; json: unknown }
  /** Answers each request as `choose` says from its body: e.g. one caller's replies slow, another's quick. */
  | { kind: 'choose'; choose: (body: FakeRequest['body']) => Exclude<FakeMode, { kind: 'choose' }> };

/** A tool call the fake makes: the tool's name and its arguments as a JSON text (and the call's id, if given). */
export interface FakeToolCall {
  name: string;
  arguments: string;
  id?: string;
}

export interface FakeRequest {
  body: {
    model: string;
    stream?: boolean;
    messages: { role: string; content: unknown }[];
    max_tokens?: number;
    max_completion_tokens?: number;
    [param: string]: unknown;
  };
  startedAt: number;
  closedAt?: number;
  /** performance.now() when the first word was written: benchmarks compare the client's arrival time with it. */
  firstTokenAt?: number;
}

/** What an embedding request to the fake carries (OpenAI's POST /v1/embeddings). */
export interface EmbeddingBody {
  model: string;
  input: string | string[];
  encoding_format?: 'float' | 'base64';
  dimensions?: number;
}

/**
 * A fake OpenAI-compatible server (POST /v1/chat/completions, streaming in OpenAI's SSE format, and POST
 * /v1/embeddings).
 */
export class FakeOpenAI {
  mode: FakeMode = { kind: 'ok', text: 'Hello from the fake provider.' };
  readonly requests: FakeRequest[] = [];
  private server?: http.Server;

  get baseURL(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/v1`;
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  /** Embedding requests received (POST /v1/embeddings), in order. */
  readonly embeddingRequests: EmbeddingBody[] = [];
  /** Answers embedding requests with this HTTP status instead (an error body), when set. */
  embeddingStatus?: number;

  /**
   * OpenAI's embeddings, deterministic: each text's vector (8 dimensions, or `dimensions`) is made from its characters,
   * unit length, so the same text always gets the same vector; `encoding_format: base64` as OpenAI sends it.
   */
  private embed(body: EmbeddingBody, res: http.ServerResponse): void {
    this.embeddingRequests.push(body);
    if (this.embeddingStatus) {
      res.writeHead(this.embeddingStatus, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `fake ${this.embeddingStatus}`, type: 'server_error' } }));
      return;
    }
    const texts = typeof body.input === 'string' ? [body.input] : body.input;
    const size = body.dimensions ?? 8;
    const data = texts.map((text, index) => {
      const vector = Array.from({ length: size }, (_, i) =>
        [...text].reduce((sum, c, j) => sum + Math.sin((c.codePointAt(0)! + 1) * (i + 1) * (j + 1)), 0),
      );
      const norm = Math.hypot(...vector) || 1;
      const unit = vector.map((v) => v / norm);
      const bytes = Buffer.alloc(unit.length * 4);
      unit.forEach((v, i) => bytes.writeFloatLE(v, i * 4));
      return {
        object: 'embedding',
        index,
        embedding: body.encoding_format === 'base64' ? bytes.toString('base64') : unit,
      };
    });
    const tokens = texts.reduce((sum, t) => sum + t.split(/\s+/).length, 0);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        object: 'list',
        data,
        model: body.model,
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      }),
    );
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    if (req.url === '/v1/embeddings') {
      this.embed(JSON.parse(raw) as EmbeddingBody, res);
      return;
    }
    if (req.url !== '/v1/chat/completions') {
      res.writeHead(404).end();
      return;
    }
    const record: FakeRequest = { body: JSON.parse(raw), startedAt: Date.now() };
    this.requests.push(record);
    res.on('close', () => (record.closedAt = Date.now()));
    const mode = this.mode.kind === 'choose' ? this.mode.choose(record.body) : this.mode;
    if (mode.kind === 'status') {
      res.writeHead(mode.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `fake ${mode.status}`, type: 'server_error' } }));
      return;
    }
    if (mode.kind === 'hang') return;
    if (mode.kind === 'raw') {
      res.writeHead(200, { 'content-type': mode.contentType ?? 'text/event-stream' });
      res.end(mode.body);
      return;
    }
    if (mode.kind === 'tool-calls' || mode.kind === 'json') {
      answerInOpenAIShape(record, res, mode);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      `data: ${JSON.stringify({
        id: 'chatcmpl-fake',
        object: 'chat.completion.chunk',
        created: Math.floor(Date.now() / 1000),
        model: record.body.model,
        choices: [{ index: 0, delta, finish_reason: finish }],
      })}\n\n`;
    const words = (text: string) => text.match(/\s*\S+/g) ?? [];
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    res.write(chunk({ role: 'assistant', content: '' }));
    switch (mode.kind) {
      case 'ok': {
        // Like a real provider, a word a token, cut at the caller's max_tokens with finish_reason "length".
        const limit = record.body.max_completion_tokens ?? record.body.max_tokens;
        const all = words(mode.text);
        const sent = limit !== undefined ? all.slice(0, limit) : all;
        if (mode.firstTokenDelayMs) await sleep(mode.firstTokenDelayMs);
        for (const word of sent) {
          if (res.destroyed) return;
          res.write(chunk({ content: word }));
          record.firstTokenAt ??= performance.now();
          if (mode.delayMs) await sleep(mode.delayMs);
        }
        res.write(chunk({}, sent.length < all.length ? 'length' : 'stop'));
        res.write(
          `data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 0, model: record.body.model, choices: [], usage: { prompt_tokens: 42, completion_tokens: sent.length, total_tokens: 42 + sent.length } })}\n\n`,
        );
        res.end('data: [DONE]\n\n');
        return;
      }
      case 'die':
        for (const word of words(mode.text).slice(0, mode.words)) res.write(chunk({ content: word }));
        await sleep(30);
        res.destroy();
        return;
      case 'stall':
        for (const word of words(mode.text)) res.write(chunk({ content: word }));
        return;
      case 'endless':
        for (let i = 1; !res.destroyed; i++) {
          res.write(chunk({ content: `w${i} ` }));
          record.firstTokenAt ??= performance.now();
          await sleep(mode.intervalMs);
        }
        return;
    }
  }
}

/** The chat service's settings for a chain of this one fake provider (model `fake-model`), for startPlatform. */
export function fakeProviderEnv(fake: Pick<FakeOpenAI, 'baseURL'>): Record<string, string> {
  return { CHAT_PROVIDERS: 'fake', FAKE_BASE_URL: fake.baseURL, FAKE_MODEL: 'fake-model' };
}

/** The `image_url` parts a request's messages carried (OpenAI's Chat Completions shape), in order. */
export function imagePartsOf(request: FakeRequest): { url: string; detail?: string }[] {
  return request.body.messages.flatMap((message) =>
    Array.isArray(message.content)
      ? (message.content as { type?: string; image_url?: { url: string; detail?: string } }[])
          .filter((part) => part.type === 'image_url' && part.image_url)
          .map((part) => part.image_url!)
      : [],
  );
}

const usageOf = (completion: number) => ({
  prompt_tokens: 42,
  completion_tokens: completion,
  total_tokens: 42 + completion,
});

/** Splits a text into `pieces` parts (fewer for a short text), in order. */
function piecesOf(text: string, pieces: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, pieces)));
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
  return parts;
}

/** A tool-calling or JSON answer in OpenAI's documented wire format, streamed when the request asks for it. */
function answerInOpenAIShape(
  record: FakeRequest,
  res: http.ServerResponse,
  mode: Extract<FakeMode, { kind: 'tool-calls' | 'json' }>,
): void {
  const calls =
    mode.kind === 'tool-calls'
      ? mode.calls.map((call, index) => ({ ...call, id: call.id ?? `call_fake_${index + 1}` }))
      : [];
  const text =
    mode.kind === 'json' ? (typeof mode.json === 'string' ? mode.json : JSON.stringify(mode.json)) : mode.text;
  const finish = calls.length ? 'tool_calls' : 'stop';
  const base = { id: 'chatcmpl-fake', created: Math.floor(Date.now() / 1000), model: record.body.model };
  if (!record.body.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        ...base,
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: text ?? null,
              refusal: null,
              ...(calls.length
                ? {
                    tool_calls: calls.map((call) => ({
                      id: call.id,
                      type: 'function',
                      function: { name: call.name, arguments: call.arguments },
                    })),
                  }
                : {}),
            },
            logprobs: null,
            finish_reason: finish,
          },
        ],
        usage: usageOf(calls.length + (text ? 1 : 0)),
      }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
    res.write(
      `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] })}\n\n`,
    );
  chunk({ role: 'assistant', content: text === undefined ? null : '' });
  if (text) for (const piece of piecesOf(text, 4)) chunk({ content: piece });
  const pieces = mode.kind === 'tool-calls' ? (mode.argumentPieces ?? 3) : 0;
  calls.forEach((call, index) => {
    chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] });
    for (const piece of piecesOf(call.arguments, pieces))
      chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  chunk({}, finish);
  res.write(
    `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [], usage: usageOf(calls.length + (text ? 1 : 0)) })}\n\n`,
  );
  res.end('data: [DONE]\n\n');
}

/** The tool messages a request's conversation carried (OpenAI's Chat Completions shape), in order. */
export function toolResultsOf(request: FakeRequest): { tool_call_id: string; content: unknown }[] {
  return request.body.messages
    .filter((message) => message.role === 'tool')
    .map((message) => ({
      tool_call_id: (message as { tool_call_id?: string }).tool_call_id ?? '',
      content: message.content,
    }));
}
