import { Kasa, KasaError, type Attachment, type ReplyEvent } from '@kasa/sdk';
import { randomUUID } from 'node:crypto';
import { makePng } from '@kasa/test-kit';
import { usePlatformWithFakeProvider } from '../../../tests/support/fakeProviderPlatform';
import { imagePartsOf } from '../../../tests/support/fakeOpenAI';
import { json, localServer, type Handler } from './localServer';

/**
 * The `attachments` resource and `attachmentIds` of messages: the requests they send and how they read the answers
 * (against a local server), then against the built platform (a fake provider answers): upload, send, read, delete, and
 * the plan, type and ownership refusals.
 */
const world = usePlatformWithFakeProvider({ FAKE_VISION: 'true' });

const servers: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(...handlers: Handler[]) {
  const server = await localServer(handlers);
  servers.push(server);
  return server;
}

/** A small RGB PNG (the bytes the server recognises as an image). */
const png = (width = 4, height = 3): Uint8Array => new Uint8Array(makePng(width, height, [180, 180, 180]));

const stored: Attachment = {
  id: 'AAAAAAAAAAAAAAAAAAAAAA',
  kind: 'image',
  name: 'photo.png',
  mediaType: 'image/png',
  size: 4,
  createdAt: '2026-11-24T09:30:00.000Z',
  hasThumbnail: true,
};

describe('attachments against a local server', () => {
  it('uploads the bytes as the body with the name in the query and an Idempotency-Key, and reads the attachment', async () => {
    const server = await serve(json(201, stored));
    const kasa = new Kasa({ baseUrl: server.baseUrl, apiKey: 'ksk_test' });

    await expect(kasa.attachments.upload(new Uint8Array([1, 2, 3, 4]), { name: 'my photo.png' })).resolves.toEqual(
      stored,
    );

    const [request] = server.seen;
    expect(request).toMatchObject({ method: 'POST', url: '/api/chat/attachments?name=my+photo.png' });
    expect(request!.contentType).toBe('application/octet-stream');
    expect([...request!.body]).toEqual([1, 2, 3, 4]);
    expect(request!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends a Blob with its own type, and an ArrayBuffer as bytes; the same body again on a retry', async () => {
    const server = await serve(
      json(201, stored),
      json(503, { message: 'busy', code: 'upstream_unavailable' }, { 'retry-after': '0' }),
      json(201, stored),
    );
    const kasa = new Kasa({ baseUrl: server.baseUrl, apiKey: 'ksk_test' });

    await kasa.attachments.upload(new Blob(['# Notes'], { type: 'text/markdown' }), { name: 'notes.md' });
    expect(server.seen[0]!.contentType).toBe('text/markdown');
    expect(server.seen[0]!.body.toString()).toBe('# Notes');

    await kasa.attachments.upload(new Uint8Array([9, 8, 7]).buffer, { name: 'scan.pdf' });
    expect(server.seen).toHaveLength(3);
    expect([...server.seen[1]!.body]).toEqual([9, 8, 7]);
    expect([...server.seen[2]!.body]).toEqual([9, 8, 7]);
    expect(server.seen[2]!.idempotencyKey).toBe(server.seen[1]!.idempotencyKey);
  });

  it('refuses an upload without a name or with something that is not bytes, before sending anything', async () => {
    const server = await serve(json(201, stored));
    const kasa = new Kasa({ baseUrl: server.baseUrl, apiKey: 'ksk_test' });

    await expect(kasa.attachments.upload(new Uint8Array([1]), { name: ' ' })).rejects.toBeInstanceOf(TypeError);
    await expect(
      kasa.attachments.upload('not bytes' as unknown as Uint8Array, { name: 'a.txt' }),
    ).rejects.toBeInstanceOf(TypeError);
    expect(server.seen).toHaveLength(0);
  });

  it.each([
    [403, 'forbidden'],
    [409, 'conflict'],
    [413, 'payload_too_large'],
    [415, 'unsupported_media_type'],
  ])(
    'rejects a %i with a KasaError of code %s, also when the answer is not Kasa’s error JSON',
    async (status, code) => {
      const server = await serve(
        json(status, { message: `refused ${status}`, code, details: { plan: 'pro' } }),
        (_req, res) => {
          res.writeHead(status, { 'content-type': 'text/html' }).end('<h1>No</h1>');
        },
      );
      const kasa = new Kasa({ baseUrl: server.baseUrl, apiKey: 'ksk_test' });

      const first = await kasa.attachments.upload(new Uint8Array([1]), { name: 'a.png' }).catch((e: unknown) => e);
      expect(first).toBeInstanceOf(KasaError);
      expect(first).toMatchObject({ status, code, message: `refused ${status}`, details: { plan: 'pro' } });
      const second = await kasa.attachments.upload(new Uint8Array([1]), { name: 'a.png' }).catch((e: unknown) => e);
      expect(second).toMatchObject({ status, code });
      // Refusals are final: never retried.
      expect(server.seen).toHaveLength(2);
    },
  );

  it('reads a file’s bytes, media type and name, and its thumbnail; deletes one', async () => {
    const bytes = Buffer.from('Kente is woven in Bonwire.');
    const server = await serve(
      (_req, res) =>
        res
          .writeHead(200, {
            'content-type': 'text/plain; charset=utf-8',
            'content-disposition': `attachment; filename="_ntoa.txt"; filename*=UTF-8''%C9%94ntoa.txt`,
          })
          .end(bytes),
      (_req, res) =>
        res
          .writeHead(200, { 'content-type': 'image/webp', 'content-disposition': 'inline; filename="photo.png.webp"' })
          .end(Buffer.from([0x52, 0x49])),
      (_req, res) => res.writeHead(204).end(),
    );
    const kasa = new Kasa({ baseUrl: server.baseUrl, apiKey: 'ksk_test' });

    const file = await kasa.attachments.get('id/with?odd');
    expect(Buffer.from(file.bytes).toString()).toBe('Kente is woven in Bonwire.');
    expect(file).toMatchObject({ mediaType: 'text/plain', name: 'ɔntoa.txt' });
    const preview = await kasa.attachments.thumbnail(stored.id);
    expect(preview).toEqual({ bytes: new Uint8Array([0x52, 0x49]), mediaType: 'image/webp', name: 'photo.png.webp' });
    await expect(kasa.attachments.delete(stored.id)).resolves.toBeUndefined();

    expect(server.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /api/chat/attachments/id%2Fwith%3Fodd',
      `GET /api/chat/attachments/${stored.id}/thumbnail`,
      `DELETE /api/chat/attachments/${stored.id}`,
    ]);
  });

  it('sends attachmentIds with a message and with an edit', async () => {
    const reply = { id: 'r1', role: 'assistant', content: 'Yes.', timestamp: stored.createdAt, type: 'text' };
    const server = await serve(json(200, { ...reply, status: 'complete', userMessageId: 'u1' }));
    const kasa = new Kasa({ baseUrl: server.baseUrl, apiKey: 'ksk_test' });

    await kasa.chat.messages.send('s1', { content: 'What is this?', attachmentIds: [stored.id] });
    await kasa.chat.messages.edit('s1', 'u1', { content: 'And now?', attachmentIds: [] });

    expect(JSON.parse(server.seen[0]!.body.toString())).toEqual({
      content: 'What is this?',
      attachmentIds: [stored.id],
      role: 'user',
    });
    expect(JSON.parse(server.seen[1]!.body.toString())).toEqual({
      content: 'And now?',
      attachmentIds: [],
      role: 'user',
    });
  });
});

/**
 * A client signed in as a new person on `plan`. The SDK has no billing calls: Pro comes from the checkout, called
 * directly (the test platform's payment provider completes it at once), and its answer carries a token with the plan.
 */
async function signedIn(plan: 'free' | 'pro'): Promise<Kasa> {
  const id = randomUUID().slice(0, 8);
  const kasa = new Kasa({ baseUrl: world.platform.baseUrl });
  await kasa.auth.register({ username: `abena_${id}`, email: `abena.${id}@example.com`, password: 'adinkra-sika' });
  if (plan === 'free') return kasa;
  const response = await fetch(`${world.platform.baseUrl}/api/billing/checkout`, {
    method: 'POST',
    headers: { authorization: `Bearer ${kasa.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ planId: 'pro' }),
  });
  expect(response.status).toBe(201);
  const paid = (await response.json()) as { token: string; user: { subscriptionTier: string } };
  expect(paid.user.subscriptionTier).toBe('pro');
  kasa.setToken(paid.token);
  return kasa;
}

describe('attachments against the platform', () => {
  it('uploads an image and a document, sends them with messages, reads them back and deletes one', async () => {
    const kasa = await signedIn('pro');
    const image = png();
    const photo = await kasa.attachments.upload(new Blob([image.slice()]), { name: 'kente.png' });
    expect(photo).toMatchObject({ kind: 'image', name: 'kente.png', mediaType: 'image/png', size: image.length });
    expect(photo.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const notes = await kasa.attachments.upload(new TextEncoder().encode('# Bonwire\n\nKente is woven here.'), {
      name: 'notes.md',
    });
    expect(notes).toMatchObject({ kind: 'document', mediaType: 'text/markdown', hasThumbnail: false });

    const session = await kasa.chat.sessions.create({ personaId: 'kasa', title: 'Files' });
    world.provider.mode = { kind: 'ok', text: 'A kente cloth.' };
    const reply = await kasa.chat.messages.send(session.id, {
      content: 'What are these?',
      attachmentIds: [photo.id, notes.id],
    });
    expect(reply.content).toBe('A kente cloth.');
    // The image reached the provider; the document's text went into the prompt.
    const sent = world.provider.requests.at(-1)!;
    expect(imagePartsOf(sent)).toHaveLength(1);
    expect(JSON.stringify(sent.body.messages)).toContain('Kente is woven here.');

    const page = await kasa.chat.messages.list(session.id);
    const question = page.messages.find((m) => m.id === reply.userMessageId)!;
    expect(question.attachments).toEqual([
      { id: photo.id, kind: 'image', name: 'kente.png', mediaType: 'image/png', size: image.length },
      { id: notes.id, kind: 'document', name: 'notes.md', mediaType: 'text/markdown', size: notes.size },
    ]);

    // A streamed edit without attachmentIds keeps them.
    const stream = await kasa.chat.messages.editStream(session.id, reply.userMessageId, { content: 'And these?' });
    const events: ReplyEvent[] = [];
    for await (const event of stream) events.push(event);
    const edited = (await kasa.chat.messages.list(session.id)).messages.find((m) => m.content === 'And these?')!;
    expect(edited.attachments?.map((a) => a.id)).toEqual([photo.id, notes.id]);

    const file = await kasa.attachments.get(photo.id);
    expect(file).toMatchObject({ mediaType: 'image/png', name: 'kente.png' });
    expect(Buffer.from(file.bytes).equals(Buffer.from(image))).toBe(true);
    expect(photo.hasThumbnail).toBe(true);
    const preview = await kasa.attachments.thumbnail(photo.id);
    expect(preview.mediaType).toBe('image/webp');
    expect(preview.bytes.length).toBeGreaterThan(0);
    await expect(kasa.attachments.thumbnail(notes.id)).rejects.toMatchObject({ status: 404, code: 'not_found' });

    await kasa.attachments.delete(notes.id);
    await expect(kasa.attachments.get(notes.id)).rejects.toMatchObject({ status: 404, code: 'not_found' });
    await expect(kasa.attachments.delete(notes.id)).rejects.toMatchObject({ status: 404 });
  });

  it('refuses Free accounts (403), files of other types (415), others’ attachments (404) and reuse in another session (409)', async () => {
    const free = await signedIn('free');
    const refused = await free.attachments.upload(png(), { name: 'kente.png' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(KasaError);
    expect(refused).toMatchObject({ status: 403, code: 'forbidden' });

    const kasa = await signedIn('pro');
    await expect(
      kasa.attachments.upload(new Uint8Array([0x00, 0x13, 0x37, 0x00, 0x42]), { name: 'blob.bin' }),
    ).rejects.toMatchObject({ status: 415, code: 'unsupported_media_type' });

    const photo = await kasa.attachments.upload(png(), { name: 'kente.png' });
    const stranger = await signedIn('pro');
    await expect(stranger.attachments.get(photo.id)).rejects.toMatchObject({ status: 404 });

    const first = await kasa.chat.sessions.create({ personaId: 'kasa', title: 'One' });
    await kasa.chat.messages.send(first.id, { content: 'Look.', attachmentIds: [photo.id] });
    const second = await kasa.chat.sessions.create({ personaId: 'kasa', title: 'Two' });
    await expect(
      kasa.chat.messages.send(second.id, { content: 'Again.', attachmentIds: [photo.id] }),
    ).rejects.toMatchObject({ status: 409, code: 'conflict' });
  });
});
