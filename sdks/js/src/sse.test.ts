import { readServerSentEvents, type ServerSentEvent } from './sse';

/** A body that delivers `chunks` one by one, as a network would. */
function bodyOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(encoder.encode(chunks[i++]));
      else controller.close();
    },
  });
}

async function collect(chunks: string[]): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = [];
  for await (const event of readServerSentEvents(bodyOf(chunks))) events.push(event);
  return events;
}

describe('readServerSentEvents', () => {
  it('reads named events and their data, skipping comments', async () => {
    expect(await collect(['event: meta\ndata: {"a":1}\n\n: ping\n\nevent: token\ndata: {"text":"Hi"}\n\n'])).toEqual([
      { event: 'meta', data: '{"a":1}' },
      { event: 'token', data: '{"text":"Hi"}' },
    ]);
  });

  it('puts together events split anywhere across chunks, including inside a CRLF', async () => {
    expect(
      await collect(['eve', 'nt: tok', 'en\r', '\ndata: {"text":"é', '"}\r', '\n\r\n', 'data: [DONE]\n\n']),
    ).toEqual([
      { event: 'token', data: '{"text":"é"}' },
      { event: 'message', data: '[DONE]' },
    ]);
  });

  it('decodes a multi-byte character split between chunks', async () => {
    const bytes = new TextEncoder().encode('data: Akwaaba 🌍\n\n');
    const split = 15; // inside the four bytes of the emoji
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, split));
        controller.enqueue(bytes.slice(split));
        controller.close();
      },
    });
    const events: ServerSentEvent[] = [];
    for await (const event of readServerSentEvents(body)) events.push(event);
    expect(events).toEqual([{ event: 'message', data: 'Akwaaba 🌍' }]);
  });

  it('joins several data lines with a line feed and keeps the id', async () => {
    expect(await collect(['id: 7\ndata: one\ndata:two\n\n'])).toEqual([
      { event: 'message', data: 'one\ntwo', id: '7' },
    ]);
  });

  it('drops an event the stream ended before dispatching', async () => {
    expect(await collect(['data: complete\n\n', 'data: cut off'])).toEqual([{ event: 'message', data: 'complete' }]);
  });

  it('cancels the body when the reader leaves early', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode('data: again\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const event of readServerSentEvents(body)) {
      expect(event.data).toBe('again');
      break;
    }
    expect(cancelled).toBe(true);
  });
});
