import { readReplyEvents, toReplyEvent, type ReplyEvent } from './replyEvents';

const reply = {
  id: '64b7f0c2a1b2c3d4e5f60719',
  role: 'assistant',
  content: 'Akwaaba — ɛyɛ!',
  timestamp: '2025-01-01T00:00:00.000Z',
  type: 'text',
  status: 'complete',
  provider: 'offline',
  model: 'kasa-offline',
  userMessageId: '64b7f0c2a1b2c3d4e5f60718',
};

const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

const conversation =
  sse('meta', {
    userMessageId: reply.userMessageId,
    assistantMessageId: reply.id,
    provider: 'offline',
    model: 'kasa-offline',
    continued: false,
  }) +
  ': ping\n\n' +
  sse('token', { text: 'Akwaaba ' }) +
  sse('token', { text: '— ɛyɛ!' }) +
  sse('done', reply);

/** A body that delivers `bytes` in the given chunk sizes, like a network would. */
function bodyOf(bytes: Uint8Array, sizes: (index: number) => number): ReadableStream<Uint8Array> {
  let offset = 0;
  let index = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      const size = Math.max(1, sizes(index++));
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
}

async function collect(body: ReadableStream<Uint8Array>, signal?: AbortSignal): Promise<ReplyEvent[]> {
  const events: ReplyEvent[] = [];
  await readReplyEvents(body, (event) => events.push(event), signal);
  return events;
}

const expected: ReplyEvent[] = [
  {
    type: 'meta',
    meta: {
      userMessageId: reply.userMessageId,
      assistantMessageId: reply.id,
      provider: 'offline',
      model: 'kasa-offline',
      continued: false,
    },
  },
  { type: 'token', text: 'Akwaaba ' },
  { type: 'token', text: '— ɛyɛ!' },
  { type: 'done', reply: reply as never },
];

describe('readReplyEvents', () => {
  const bytes = new TextEncoder().encode(conversation);

  it('reads meta, tokens and done in order, skipping the keep-alive comment', async () => {
    expect(await collect(bodyOf(bytes, () => bytes.length))).toEqual(expected);
  });

  it('gives the same events whatever the chunk boundaries, multi-byte characters split included', async () => {
    expect(await collect(bodyOf(bytes, () => 1))).toEqual(expected);
    expect(await collect(bodyOf(bytes, (i) => (i % 7) + 1))).toEqual(expected);
    expect(await collect(bodyOf(bytes, (i) => [3, 50, 2, 11][i % 4]!))).toEqual(expected);
  });

  it('accepts CRLF line endings', async () => {
    const crlf = new TextEncoder().encode(conversation.replace(/\n/g, '\r\n'));
    expect(await collect(bodyOf(crlf, () => 5))).toEqual(expected);
  });

  it('skips malformed and unknown events and reads on', async () => {
    const noisy = new TextEncoder().encode(
      sse('meta', { provider: 'offline' }) + // no assistantMessageId
        'event: token\ndata: not json\n\n' +
        sse('surprise', { text: 'x' }) +
        'data: {"text":"no event name"}\n\n' +
        'event: token\n\n' + // no data: nothing to dispatch
        conversation,
    );
    expect(await collect(bodyOf(noisy, () => 9))).toEqual(expected);
  });

  it('joins an event split over several data lines with line feeds', async () => {
    const multiLine = new TextEncoder().encode(
      'event: token\ndata: {"text":\ndata: "Akwaaba"}\n\n' + // JSON broken across lines still parses
        'event: error\r\ndata: {"message":\r\ndata: "two\\nlines"}\r\n\r\n',
    );
    expect(await collect(bodyOf(multiLine, () => 4))).toEqual([
      { type: 'token', text: 'Akwaaba' },
      { type: 'error', message: 'two\nlines' },
    ]);
  });

  it('drops an event the stream ended without finishing, and rejects when the body fails', async () => {
    const cut = new TextEncoder().encode(sse('token', { text: 'a' }) + 'event: token\ndata: {"text":"b"}\n');
    expect(await collect(bodyOf(cut, () => cut.length))).toEqual([{ type: 'token', text: 'a' }]);
    let sent = false;
    const dropped = new ReadableStream<Uint8Array>({
      pull(stream) {
        if (sent) return stream.error(new TypeError('network error'));
        sent = true;
        stream.enqueue(new TextEncoder().encode(sse('token', { text: 'a' })));
      },
    });
    const events: ReplyEvent[] = [];
    await expect(readReplyEvents(dropped, (event) => events.push(event))).rejects.toThrow('network error');
    expect(events).toEqual([{ type: 'token', text: 'a' }]);
  });

  it('stops reading when the signal aborts', async () => {
    const controller = new AbortController();
    const events: ReplyEvent[] = [];
    const endless = new ReadableStream<Uint8Array>({
      pull(stream) {
        stream.enqueue(new TextEncoder().encode(sse('token', { text: 'w ' })));
      },
    });
    await readReplyEvents(
      endless,
      (event) => {
        events.push(event);
        if (events.length === 3) controller.abort();
      },
      controller.signal,
    );
    expect(events.length).toBeGreaterThanOrEqual(3);
    expect(events.length).toBeLessThan(10);
  });

  it('cancels a body that has gone quiet when the signal aborts, and resolves', async () => {
    const controller = new AbortController();
    let cancelled = false;
    const silent = new ReadableStream<Uint8Array>({
      start(stream) {
        stream.enqueue(new TextEncoder().encode(sse('token', { text: 'w ' })));
      },
      cancel() {
        cancelled = true;
      },
    });
    const events: ReplyEvent[] = [];
    const reading = readReplyEvents(silent, (event) => events.push(event), controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    await expect(reading).resolves.toBeUndefined();
    expect(events).toEqual([{ type: 'token', text: 'w ' }]);
    expect(cancelled).toBe(true);
  });
});

describe('toReplyEvent', () => {
  const message = (event: string, data: string) => ({ event, data });

  it('skips unknown events, events without a name and malformed data', () => {
    expect(toReplyEvent(message('surprise', '{"text":"x"}'))).toBeNull();
    // The reader names an event that has no `event:` line 'message'.
    expect(toReplyEvent(message('message', '{"text":"x"}'))).toBeNull();
    expect(toReplyEvent(message('token', 'not json'))).toBeNull();
    expect(toReplyEvent(message('token', '{"text":42}'))).toBeNull();
    expect(toReplyEvent(message('meta', '{"provider":"offline"}'))).toBeNull();
  });

  it('rejects a done event whose message is not a stored assistant reply', () => {
    expect(toReplyEvent(message('done', JSON.stringify({ ...reply, role: 'user' })))).toBeNull();
    expect(toReplyEvent(message('done', JSON.stringify({ ...reply, status: 'exploded' })))).toBeNull();
    expect(toReplyEvent(message('done', JSON.stringify({ ...reply, content: undefined })))).toBeNull();
  });

  it('reads the place in the local model’s line, and skips a malformed one', () => {
    expect(toReplyEvent(message('queued', '{"position":3}'))).toEqual({ type: 'queued', position: 3 });
    expect(toReplyEvent(message('queued', '{"position":0}'))).toEqual({ type: 'queued', position: 0 });
    expect(toReplyEvent(message('queued', '{"position":-1}'))).toBeNull();
    expect(toReplyEvent(message('queued', '{"position":"2"}'))).toBeNull();
  });

  it('keeps a stopped reply and its provider', () => {
    const event = toReplyEvent(message('done', JSON.stringify({ ...reply, status: 'stopped' })));
    expect(event).toMatchObject({ type: 'done', reply: { status: 'stopped', provider: 'offline' } });
  });

  it('turns an error event into its message, with a fallback when it has none', () => {
    expect(toReplyEvent(message('error', '{"message":"No AI provider could answer."}'))).toEqual({
      type: 'error',
      message: 'No AI provider could answer.',
    });
    expect(toReplyEvent(message('error', ''))).toEqual({
      type: 'error',
      message: 'The reply could not be completed.',
    });
  });
});
