import { readServerSentEvents, type ServerSentEvent } from '@kasa/sdk/sse';

export type { ServerSentEvent };

/**
 * The events of a `text/event-stream` body, read with @kasa/sdk's reader (the one the SDK's own streams use; only
 * that module is bundled, through the `@kasa/sdk/sse` entry point). Leaving the loop cancels the body. When `signal`
 * aborts, the body is cancelled too, even while a read is waiting on a silent connection, and the loop simply ends:
 * the caller sees the abort on its signal, not as an error. Any other failure of the body (a dropped connection)
 * is thrown.
 */
export async function* serverSentEvents(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<ServerSentEvent, void, undefined> {
  if (signal?.aborted) {
    await body.cancel(signal.reason).catch(() => undefined);
    return;
  }
  // The pipe cancels the body and fails the pending read as soon as the signal aborts.
  const stream = signal ? body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>(), { signal }) : body;
  try {
    for await (const event of readServerSentEvents(stream)) {
      if (signal?.aborted) return;
      yield event;
    }
  } catch (error) {
    if (signal?.aborted) return;
    throw error;
  }
}
