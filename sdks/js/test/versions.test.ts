import { Kasa, type ReplyEvent } from '@kasa/sdk';
import { randomUUID } from 'node:crypto';
import { usePlatformWithFakeProvider } from '../../../tests/support/fakeProviderPlatform';
import { json, localServer, type SeenRequest } from './localServer';

/**
 * Versions of messages with the SDK: `chat.messages.edit`/`editStream`, `regenerate`/`regenerateStream` and
 * `selectVersion` against the built platform (a fake provider answers), and the requests they send.
 */
const world = usePlatformWithFakeProvider();

async function signedIn(): Promise<Kasa> {
  const id = randomUUID().slice(0, 8);
  const kasa = new Kasa({ baseUrl: world.platform.baseUrl });
  await kasa.auth.register({ username: `esi_${id}`, email: `esi.${id}@example.com`, password: 'adinkra-sika' });
  return kasa;
}

describe('chat.messages versions', () => {
  it('edits a message, regenerates the answer into versions, and shows another version', async () => {
    const kasa = await signedIn();
    const session = await kasa.chat.sessions.create({ personaId: 'kasa', title: 'Versions' });
    world.provider.mode = { kind: 'ok', text: 'Accra.' };
    const first = await kasa.chat.messages.send(session.id, { content: 'Capital of Ghana?' });

    world.provider.mode = { kind: 'ok', text: 'Abuja.' };
    const edited = await kasa.chat.messages.edit(session.id, first.userMessageId, { content: 'Capital of Nigeria?' });
    expect(edited).toMatchObject({ role: 'assistant', content: 'Abuja.', status: 'complete' });
    let page = await kasa.chat.messages.list(session.id);
    expect(page.messages.map((m) => m.content)).toEqual(['Capital of Nigeria?', 'Abuja.']);
    expect(page.messages[0]!.version).toEqual({
      index: 1,
      count: 2,
      siblingIds: [first.userMessageId, edited.userMessageId],
    });

    world.provider.mode = { kind: 'ok', text: 'Abuja, since 1991.' };
    const second = await kasa.chat.messages.regenerate(session.id, edited.id);
    expect(second.version).toEqual({ index: 1, count: 2, siblingIds: [edited.id, second.id] });

    world.provider.mode = { kind: 'ok', text: 'It is Abuja.', delayMs: 2 };
    const stream = await kasa.chat.messages.regenerateStream(session.id, edited.id, { language: 'en' });
    const events: ReplyEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events[0]).toMatchObject({ type: 'meta', userMessageId: edited.userMessageId });
    const done = events.at(-1);
    expect(done).toMatchObject({ type: 'done', message: { content: 'It is Abuja.', version: { index: 2, count: 3 } } });

    // Back to the first question: its own answer, kept, and so it stays.
    const shown = await kasa.chat.messages.selectVersion(session.id, first.userMessageId);
    expect(shown.messages.map((m) => m.content)).toEqual(['Capital of Ghana?', 'Accra.']);
    page = await kasa.chat.messages.list(session.id);
    expect(page.messages.map((m) => m.content)).toEqual(['Capital of Ghana?', 'Accra.']);
  });

  it('streams an edit, and rejects editing an answer with a 400 KasaError', async () => {
    const kasa = await signedIn();
    const session = await kasa.chat.sessions.create({ personaId: 'kasa', title: 'Edit stream' });
    world.provider.mode = { kind: 'ok', text: 'Yes.' };
    const first = await kasa.chat.messages.send(session.id, { content: 'Is it raining?' });
    world.provider.mode = { kind: 'ok', text: 'No, it is sunny.' };
    const reply = await (
      await kasa.chat.messages.editStream(session.id, first.userMessageId, { content: 'Is it sunny?' })
    ).finalMessage();
    expect(reply).toMatchObject({ content: 'No, it is sunny.', status: 'complete' });
    await expect(kasa.chat.messages.edit(session.id, reply.id, { content: 'x' })).rejects.toMatchObject({
      name: 'KasaBadRequestError',
      status: 400,
      message: expect.stringMatching(/Only your own messages can be edited/),
    });
    const stranger = await signedIn();
    await expect(stranger.chat.messages.selectVersion(session.id, reply.id)).rejects.toMatchObject({ status: 404 });
  });
});

describe('the requests of versions', () => {
  it('sends edit and regenerate as creating POSTs with an Idempotency-Key, and select with the page size', async () => {
    const reply = { id: 'a2', role: 'assistant', content: 'Hi', timestamp: '', type: 'text', status: 'complete' };
    const server = await localServer([
      json(201, { ...reply, userMessageId: 'u2' }),
      json(201, { ...reply, userMessageId: 'u1' }),
      json(200, { id: 's1', personaId: 'kasa', title: 't', createdAt: '', messages: [], nextCursor: null }),
    ]);
    try {
      const kasa = new Kasa({ baseUrl: server.baseUrl, token: 't' });
      await kasa.chat.messages.edit('s1', 'u1', { content: 'New text' });
      await kasa.chat.messages.regenerate('s1', 'a1');
      await kasa.chat.messages.selectVersion('s1', 'u1', { limit: 50 });
      const calls = server.seen.map((r: SeenRequest) => `${r.method} ${r.url}`);
      expect(calls).toEqual([
        'POST /api/chat/sessions/s1/messages/u1/edit',
        'POST /api/chat/sessions/s1/messages/a1/regenerate',
        'POST /api/chat/sessions/s1/messages/u1/select?limit=50',
      ]);
      expect(server.seen[0]!.idempotencyKey).toEqual(expect.any(String));
      expect(server.seen[1]!.idempotencyKey).toEqual(expect.any(String));
      expect(server.seen[1]!.idempotencyKey).not.toBe(server.seen[0]!.idempotencyKey);
      expect(server.seen[2]!.idempotencyKey).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});
