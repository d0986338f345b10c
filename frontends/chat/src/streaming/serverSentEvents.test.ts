import { serverSentEvents, type ServerSentEvent } from './serverSentEvents';

/** An endless stream of `job` events that records whether it was cancelled. */
function endless() {
  const state = { cancelled: false, pulls: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(stream) {
      state.pulls++;
      stream.enqueue(new TextEncoder().encode(`event: job\nid: ${state.pulls}\ndata: {"n":${state.pulls}}\n\n`));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { body, state };
}

describe('serverSentEvents', () => {
  it('gives the SDK reader’s events: name, data and id', async () => {
    const { body } = endless();
    const events: ServerSentEvent[] = [];
    for await (const event of serverSentEvents(body)) {
      events.push(event);
      if (events.length === 2) break;
    }
    expect(events).toEqual([
      { event: 'job', data: '{"n":1}', id: '1' },
      { event: 'job', data: '{"n":2}', id: '2' },
    ]);
  });

  it('cancels the body when the loop is left early, with or without a signal', async () => {
    for (const signal of [undefined, new AbortController().signal]) {
      const { body, state } = endless();
      for await (const event of serverSentEvents(body, signal)) if (event.id === '3') break;
      expect(state.cancelled).toBe(true);
    }
  });

  it('ends at once, cancelling the body unread, when the signal has already aborted', async () => {
    const { body, state } = endless();
    const controller = new AbortController();
    controller.abort();
    const events: ServerSentEvent[] = [];
    for await (const event of serverSentEvents(body, controller.signal)) events.push(event);
    expect(events).toEqual([]);
    expect(state.cancelled).toBe(true);
  });

  it('ends quietly when the signal aborts during the loop', async () => {
    const { body, state } = endless();
    const controller = new AbortController();
    const events: ServerSentEvent[] = [];
    for await (const event of serverSentEvents(body, controller.signal)) {
      events.push(event);
      if (events.length === 2) controller.abort();
    }
    expect(events).toHaveLength(2);
    expect(state.cancelled).toBe(true);
  });
});
