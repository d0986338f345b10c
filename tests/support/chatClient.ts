import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Agent, request, type Dispatcher } from 'undici';

/**
 * An HTTP client of the Kasa API for benchmarks, load and scale tests: sign-up, JSON calls and streamed chat turns,
 * over one undici pool with no connection limit (many streams at once need many sockets).
 */
export function streamingAgent(): Agent {
  return new Agent({ connections: null, pipelining: 0, headersTimeout: 120_000, bodyTimeout: 120_000 });
}

/** The value at percentile `p` (0–100) of an ascending list. */
export const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
export const round = (ms: number): number => Math.round(ms * 100) / 100;

export interface TurnOutcome {
  firstTokenAt?: number;
  /** performance.now() when the response ended. */
  endedAt: number;
  done: boolean;
  status: number;
  error?: string;
  text: string;
  messageId?: string;
}

export class ChatClient {
  constructor(
    readonly baseUrl: string,
    readonly dispatcher: Dispatcher = streamingAgent(),
    /** Sent with every call (e.g. a balancer's header that pins a replica). */
    readonly headers: Record<string, string> = {},
  ) {}

  /** Registers a new person; resolves with their access token. */
  async signUp(prefix = 'load'): Promise<string> {
    const id = randomUUID().slice(0, 8);
    const res = await request(`${this.baseUrl}/api/auth/register`, {
      method: 'POST',
      dispatcher: this.dispatcher,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        username: `${prefix}_${id}`,
        email: `${prefix}.${id}@example.com`,
        password: 'load-password',
      }),
    });
    const text = await res.body.text();
    if (res.statusCode !== 201) throw new Error(`register: ${res.statusCode} ${text.slice(0, 200)}`);
    return (JSON.parse(text) as { token: string }).token;
  }

  /** A JSON call that must succeed (any 2xx); throws with the status and body otherwise. */
  async json<T>(method: string, url: string, token: string, body?: unknown): Promise<T> {
    const res = await request(`${this.baseUrl}${url}`, {
      method: method as 'POST',
      dispatcher: this.dispatcher,
      headers: { ...this.headers, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${text.slice(0, 200)}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  newSession(token: string, personaId = 'kasa'): Promise<{ id: string }> {
    return this.json<{ id: string }>('POST', '/api/chat/sessions', token, { personaId, title: 'load' });
  }

  /**
   * Sends one message and reads the streamed reply. Resolves with when the first token event arrived, the text, and
   * whether the stream ended with `done`; `onFirstToken` may abort.
   */
  async streamTurn(
    token: string,
    sessionId: string,
    options: {
      signal?: AbortSignal;
      resumable?: boolean;
      content?: string;
      /** Attachments uploaded before (POST /api/chat/attachments) that the message carries. */
      attachmentIds?: string[];
      onFirstToken?: (meta: { messageId?: string }) => void;
    } = {},
  ): Promise<TurnOutcome> {
    const res = await request(`${this.baseUrl}/api/chat/sessions/${sessionId}/messages`, {
      method: 'POST',
      dispatcher: this.dispatcher,
      signal: options.signal,
      headers: {
        ...this.headers,
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: JSON.stringify({
        role: 'user',
        content: options.content ?? 'Tell me about Kasa.',
        type: 'text',
        resumable: options.resumable,
        attachmentIds: options.attachmentIds,
      }),
    });
    if (res.statusCode !== 200) {
      const body = await res.body.text();
      return { done: false, status: res.statusCode, error: body.slice(0, 200), text: '', endedAt: performance.now() };
    }
    let buffer = '';
    let firstTokenAt: number | undefined;
    let messageId: string | undefined;
    let done = false;
    let error: string | undefined;
    let text = '';
    try {
      for await (const chunk of res.body) {
        buffer += chunk.toString();
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = () => JSON.parse(event.slice(event.indexOf('data: ') + 6)) as Record<string, string>;
          if (event.startsWith('event: meta')) {
            messageId ??= data().assistantMessageId;
          } else if (event.startsWith('event: token')) {
            text += data().text;
            if (firstTokenAt === undefined) {
              firstTokenAt = performance.now();
              options.onFirstToken?.({ messageId });
            }
          } else if (event.startsWith('event: done')) {
            done = true;
          } else if (event.startsWith('event: error')) {
            error = event.slice(event.indexOf('data: ') + 6);
          }
        }
      }
    } catch (err) {
      if (!options.signal?.aborted) throw err;
    }
    return { firstTokenAt, done, status: res.statusCode, error, text, messageId, endedAt: performance.now() };
  }
}

export interface ConcurrentStreamsResult {
  streams: number;
  failed: number;
  seconds: number;
  errors: string[];
  /** Time to first token and to the end of each stream, from the moment all were started (ms). */
  firstTokenMs: { p50: number; p99: number };
  completeMs: { p50: number; p99: number };
}

/**
 * Opens `streams` streamed chats at once (one session each, created first in batches of 25), one person's or spread
 * over `tokens`, and reports how many failed (not 200, or ended without `done`) with the latency percentiles.
 */
export async function runConcurrentStreams(
  client: ChatClient,
  tokens: string[],
  streams: number,
): Promise<ConcurrentStreamsResult> {
  const sessions: Array<{ token: string; id: string }> = [];
  for (let i = 0; i < streams; i += 25) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(25, streams - i) }, async (_, j) => {
        const token = tokens[(i + j) % tokens.length]!;
        return { token, id: (await client.newSession(token)).id };
      }),
    );
    sessions.push(...batch);
  }
  const started = performance.now();
  const results = await Promise.allSettled(sessions.map((s) => client.streamTurn(s.token, s.id)));
  const seconds = (performance.now() - started) / 1000;
  const errors = new Map<string, number>();
  const firstToken: number[] = [];
  const complete: number[] = [];
  for (const r of results) {
    const problem =
      r.status === 'rejected'
        ? String((r.reason as Error)?.message ?? r.reason)
        : r.value.status !== 200
          ? `status ${r.value.status}: ${r.value.error}`
          : !r.value.done
            ? `stream ended without done${r.value.error ? `: ${r.value.error}` : ''}`
            : undefined;
    if (problem) errors.set(problem, (errors.get(problem) ?? 0) + 1);
    else if (r.status === 'fulfilled') {
      if (r.value.firstTokenAt !== undefined) firstToken.push(r.value.firstTokenAt - started);
      complete.push(r.value.endedAt - started);
    }
  }
  firstToken.sort((a, b) => a - b);
  complete.sort((a, b) => a - b);
  return {
    streams,
    failed: [...errors.values()].reduce((a, b) => a + b, 0),
    seconds: round(seconds),
    errors: [...errors].map(([message, count]) => `${count}× ${message}`),
    firstTokenMs: { p50: round(percentile(firstToken, 50)), p99: round(percentile(firstToken, 99)) },
    completeMs: { p50: round(percentile(complete, 50)), p99: round(percentile(complete, 99)) },
  };
}
