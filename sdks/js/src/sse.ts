/** One Server-Sent Event: its `event` name (`message` when the stream gave none) and its `data` lines joined. */
export interface ServerSentEvent {
  event: string;
  data: string;
  id?: string;
}

/**
 * Reads a `text/event-stream` body as events, following the WHATWG rules: lines end with LF, CRLF or CR; `:` starts
 * a comment (the server's keep-alive pings); several `data:` lines join with LF; a blank line dispatches. Works on
 * the ReadableStream of any fetch (browsers and Node). Leaving the loop early cancels the body.
 */
export async function* readServerSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | undefined;
  let finished = false;
  const dispatch = (): ServerSentEvent | undefined => {
    const result =
      data.length > 0
        ? { event: event || 'message', data: data.join('\n'), ...(id === undefined ? {} : { id }) }
        : undefined;
    event = '';
    data = [];
    return result;
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      // A CR at the very end may be the first half of a CRLF split across chunks: wait for the next chunk.
      for (let end = lineEnd(buffer, done); end !== -1; end = lineEnd(buffer, done)) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(buffer[end] === '\r' && buffer[end + 1] === '\n' ? end + 2 : end + 1);
        if (line === '') {
          const ready = dispatch();
          if (ready) yield ready;
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        let value = colon === -1 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
        else if (field === 'id') id = value;
      }
      if (done) {
        finished = true;
        // The spec drops an event that the stream ended without a blank line after.
        return;
      }
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

function lineEnd(buffer: string, done: boolean): number {
  for (let i = 0; i < buffer.length; i++) {
    const char = buffer[i];
    if (char === '\n') return i;
    if (char === '\r') return i + 1 < buffer.length || done ? i : -1;
  }
  return -1;
}
