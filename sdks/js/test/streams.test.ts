import { Kasa, type ReplyEvent } from '@kasa/sdk';
import { localServer, type Handler } from './localServer';

const servers: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A server answering every call with `body` as an event stream. */
async function streaming(body: string): Promise<Kasa> {
  const handler: Handler = (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': 'req-sse' });
    res.end(body);
  };
  const server = await localServer([handler]);
  servers.push(server);
  return new Kasa({ baseUrl: server.baseUrl, token: 'test-token' });
}

async function readAll<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of stream) items.push(item);
  return items;
}

const meta =
  'event: meta\ndata: {"userMessageId":"u","assistantMessageId":"a","provider":"p","model":"m","continued":false}\n\n';

describe('a streamed reply that does not end well', () => {
  it('turns an error event into a 503 KasaError after the tokens that came', async () => {
    const kasa = await streaming(
      `${meta}event: token\ndata: {"text":"Hi"}\n\nevent: error\ndata: {"message":"No AI provider could answer. Please try again."}\n\n`,
    );
    const stream = await kasa.chat.messages.stream('s1', { content: 'Hello' });
    const seen: ReplyEvent[] = [];
    const error = await (async () => {
      for await (const event of stream) seen.push(event);
    })().catch((err: unknown) => err);
    expect(seen.map((e) => e.type)).toEqual(['meta', 'token']);
    expect(error).toMatchObject({
      name: 'KasaError',
      status: 503,
      code: 'upstream_unavailable',
      message: 'No AI provider could answer. Please try again.',
      requestId: 'req-sse',
    });
  });

  it('reports a stream that closes before done as stream_error', async () => {
    const kasa = await streaming(`${meta}event: token\ndata: {"text":"Hi"}\n\n`);
    const stream = await kasa.chat.messages.stream('s1', { content: 'Hello' });
    await expect(stream.finalMessage()).rejects.toMatchObject({ status: 0, code: 'stream_error' });
  });

  it('hands out nothing more once its signal aborts, even events already read in the same chunk', async () => {
    const tokens = ['w1', 'w2', 'w3', 'w4', 'w5'].map((w) => `event: token\ndata: {"text":"${w} "}\n\n`).join('');
    const kasa = await streaming(`${meta}${tokens}`);
    const controller = new AbortController();
    const stream = await kasa.chat.messages.stream('s1', { content: 'Hello' }, { signal: controller.signal });
    const seen: string[] = [];
    const reading = (async () => {
      for await (const event of stream) {
        if (event.type === 'token') seen.push(event.text);
        if (seen.length === 2) controller.abort();
      }
    })();
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toEqual(['w1 ', 'w2 ']);
  });

  it('can be read once only', async () => {
    const kasa = await streaming(`${meta}event: done\ndata: {"id":"a","role":"assistant","content":"Hi"}\n\n`);
    const stream = await kasa.chat.messages.stream('s1', { content: 'Hello' });
    expect((await readAll(stream)).map((e) => e.type)).toEqual(['meta', 'done']);
    await expect(readAll(stream)).rejects.toThrow(/read once/);
  });
});

describe('a streamed completion', () => {
  it('ends at [DONE] and ignores anything after it', async () => {
    const chunk = (content: string) =>
      `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'kasa', choices: [{ index: 0, delta: { content }, logprobs: null, finish_reason: null }] })}\n\n`;
    const kasa = await streaming(`${chunk('Me ')}${chunk('ho ye')}data: [DONE]\n\n${chunk('late')}`);
    const chunks = await readAll(
      await kasa.completions.stream({ model: 'kasa', messages: [{ role: 'user', content: 'Hi' }] }),
    );
    expect(chunks.map((c) => c.choices[0]?.delta.content).join('')).toBe('Me ho ye');
  });

  it('turns an error chunk into a KasaError', async () => {
    const kasa = await streaming(
      'data: {"error":{"message":"Something went wrong on our side.","type":"api_error"}}\n\n',
    );
    const stream = await kasa.completions.stream({ model: 'kasa', messages: [{ role: 'user', content: 'Hi' }] });
    await expect(readAll(stream)).rejects.toMatchObject({ status: 503, message: 'Something went wrong on our side.' });
  });
});
