import { Kasa, KasaError, type ReplyEvent, type ReplyMeta } from '@kasa/sdk';
import { eventually } from '@kasa/test-kit';
import { randomUUID } from 'node:crypto';
import { usePlatformWithFakeProvider } from '../../../tests/support/fakeProviderPlatform';

/**
 * Following a reply again (`chat.messages.resume`) and stopping it (`chat.messages.stop`) against the built platform,
 * with a slow fake provider so that the reply is still being written when it is followed.
 */
const world = usePlatformWithFakeProvider();

/** A client signed in as a new person. */
async function signedIn(): Promise<Kasa> {
  const id = randomUUID().slice(0, 8);
  const kasa = new Kasa({ baseUrl: world.platform.baseUrl });
  await kasa.auth.register({ username: `kofi_${id}`, email: `kofi.${id}@example.com`, password: 'adinkra-sika' });
  return kasa;
}

const tokenTexts = (events: ReplyEvent[]) =>
  events.filter((e): e is { type: 'token'; text: string } => e.type === 'token').map((e) => e.text);

/**
 * Starts a resumable reply, reads its `meta` and `tokens` tokens, then hangs up (a dropped connection): the reply goes
 * on being written on the server.
 */
async function startThenHangUp(kasa: Kasa, sessionId: string, tokens: number) {
  const stream = await kasa.chat.messages.stream(sessionId, { content: 'Tell me a story', resumable: true });
  let meta: ReplyMeta | undefined;
  const seen: string[] = [];
  for await (const event of stream) {
    if (event.type === 'meta') meta = event;
    if (event.type === 'token') seen.push(event.text);
    if (seen.length === tokens) break;
  }
  expect(meta).toBeDefined();
  return { meta: meta!, seen };
}

describe('chat.messages.resume', () => {
  it('follows a reply being written: the text so far as one token, then the rest, then the stored reply', async () => {
    const words = Array.from({ length: 30 }, (_, i) => `word${i + 1}`);
    const text = words.join(' ');
    world.provider.mode = { kind: 'ok', text, delayMs: 100 };
    const kasa = await signedIn();
    const session = await kasa.chat.sessions.create({ personaId: 'kasa', title: 'Resume' });

    const { meta, seen } = await startThenHangUp(kasa, session.id, 3);
    expect(seen.join('')).toBe('word1 word2 word3');

    const resumed = await kasa.chat.messages.resume(session.id, meta.assistantMessageId);
    const events: ReplyEvent[] = [];
    for await (const event of resumed) events.push(event);

    expect(events[0]).toMatchObject({
      type: 'meta',
      assistantMessageId: meta.assistantMessageId,
      userMessageId: meta.userMessageId,
      provider: 'fake',
      model: 'fake-model',
    });
    const tokens = tokenTexts(events);
    // The first token is everything written before the reply was followed again: at least what was read before the
    // hang-up, less than all of it (it was still being written); the rest follows as it is written.
    expect(tokens[0]!.startsWith('word1 word2 word3')).toBe(true);
    expect(tokens[0]!.length).toBeLessThan(text.length);
    expect(tokens.length).toBeGreaterThan(1);
    expect(tokens.join('')).toBe(text);
    expect(events.at(-1)).toEqual({
      type: 'done',
      message: expect.objectContaining({
        id: meta.assistantMessageId,
        userMessageId: meta.userMessageId,
        role: 'assistant',
        content: text,
        status: 'complete',
        provider: 'fake',
      }),
    });

    // The stored reply is the same.
    const page = await kasa.chat.messages.list(session.id);
    expect(page.messages.find((m) => m.id === meta.assistantMessageId)).toMatchObject({
      content: text,
      status: 'complete',
    });
  }, 30_000);

  it('gives a finished reply at once: meta, its whole text, then done; finalMessage reads it too', async () => {
    const kasa = await signedIn();
    const session = await kasa.chat.sessions.create({ personaId: 'ticha', title: 'Done already' });
    const reply = await kasa.chat.messages.send(session.id, { content: 'What is 2 + 2?' });

    const events: ReplyEvent[] = [];
    for await (const event of await kasa.chat.messages.resume(session.id, reply.id)) events.push(event);
    expect(events.map((e) => e.type)).toEqual(['meta', 'token', 'done']);
    expect(tokenTexts(events)).toEqual(['Hello from the fake provider.']);
    expect(events[2]).toMatchObject({ type: 'done', message: { id: reply.id, status: 'complete' } });

    const again = await kasa.chat.messages.resume(session.id, reply.id);
    await expect(again.finalMessage()).resolves.toMatchObject({
      id: reply.id,
      userMessageId: reply.userMessageId,
      content: 'Hello from the fake provider.',
    });
  });

  it('rejects before streaming, with a 404 KasaError, for an unknown message or someone else’s', async () => {
    const owner = await signedIn();
    const session = await owner.chat.sessions.create({ personaId: 'kasa', title: 'Mine' });
    const reply = await owner.chat.messages.send(session.id, { content: 'Hi' });

    const unknown = owner.chat.messages.resume(session.id, '0123456789abcdef01234567');
    await expect(unknown).rejects.toBeInstanceOf(KasaError);
    await expect(unknown).rejects.toMatchObject({ status: 404, code: 'not_found' });

    const stranger = await signedIn();
    await expect(stranger.chat.messages.resume(session.id, reply.id)).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
    });
    await expect(owner.chat.messages.resume(session.id, 'not-an-id')).rejects.toMatchObject({
      status: 400,
      code: 'validation_failed',
    });
  });
});

describe('chat.messages.stop', () => {
  it('stops a resumable reply that is being followed: the stream ends with the reply stored as stopped', async () => {
    world.provider.mode = { kind: 'endless', intervalMs: 20 };
    const kasa = await signedIn();
    const session = await kasa.chat.sessions.create({ personaId: 'kasa', title: 'Stop it' });
    const { meta } = await startThenHangUp(kasa, session.id, 2);
    const call = world.provider.requests.at(-1)!;

    const resumed = await kasa.chat.messages.resume(session.id, meta.assistantMessageId);
    const events: ReplyEvent[] = [];
    let stopping: Promise<unknown> | undefined;
    for await (const event of resumed) {
      events.push(event);
      // Once the followed reply has grown past the first token, stop it from "another" caller.
      if (event.type === 'token' && tokenTexts(events).length === 3) {
        stopping = kasa.chat.messages.stop(session.id, meta.assistantMessageId);
      }
    }
    await expect(stopping).resolves.toMatchObject({ id: meta.assistantMessageId, role: 'assistant' });

    const written = tokenTexts(events).join('');
    expect(written.startsWith('w1 w2 ')).toBe(true);
    const done = events.at(-1);
    expect(done).toMatchObject({ type: 'done', message: { id: meta.assistantMessageId, status: 'stopped' } });
    // Nothing was lost or repeated: the stored text is what was streamed.
    expect((done as { message: { content: string } }).message.content).toBe(written);
    await eventually(async () => call.closedAt, { timeoutMs: 2_000, what: 'the provider call to be cancelled' });

    const stored = await kasa.chat.messages.list(session.id);
    expect(stored.messages.find((m) => m.id === meta.assistantMessageId)).toMatchObject({
      status: 'stopped',
      content: written,
    });
    // Stopping again changes nothing.
    await expect(kasa.chat.messages.stop(session.id, meta.assistantMessageId)).resolves.toMatchObject({
      status: 'stopped',
      content: written,
    });
  }, 30_000);

  it('refuses to stop someone else’s reply with a 404', async () => {
    const owner = await signedIn();
    const session = await owner.chat.sessions.create({ personaId: 'kasa', title: 'Mine' });
    const reply = await owner.chat.messages.send(session.id, { content: 'Hi' });
    const stranger = await signedIn();
    await expect(stranger.chat.messages.stop(session.id, reply.id)).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
    });
  });
});
