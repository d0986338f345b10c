import OpenAI from 'openai';
import type { Express } from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { Attachment } from '@kasa/contracts';
import { AttachmentService } from '../src/attachments/attachmentService';
import type { ChatComponents } from '../src/chatComponents';
import { NO_VISION_NOTICE } from '../src/providers/providerChain';
import { makeDocx, makeJpeg, makePdf, makePng } from './attachmentFixtures';
import { FakeOpenAI, TestEnvironment, imagePartsOf, logger, userHeaders, type FakeRequest } from './support';

const env = new TestEnvironment('attachments');
const fake = new FakeOpenAI();
/** A chain whose provider sees images. */
let vision: Express;
/** The worker pool of `vision`'s components. */
let processor: ChatComponents['attachmentProcessor'];
/** The same provider declared blind (FAKE_VISION=false): images never reach it. */
let blind: Express;

beforeAll(async () => {
  await Promise.all([env.start(), fake.start()]);
  const provider = { CHAT_PROVIDERS: 'fake', FAKE_BASE_URL: fake.baseURL, FAKE_MODEL: 'fake-model' };
  const visionApp = await env.app({ ...provider, FAKE_VISION: 'true' });
  ({ app: vision } = visionApp);
  processor = visionApp.chat.attachmentProcessor;
  ({ app: blind } = await env.app({ ...provider, FAKE_VISION: 'false' }));
});
afterAll(async () => {
  await fake.stop();
  await env.stop();
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.mode = { kind: 'ok', text: 'Here is what I found.' };
});

const upload = (
  headers: Record<string, string>,
  name: string,
  bytes: Buffer,
  contentType = 'application/octet-stream',
  app = vision,
) =>
  request(app)
    .post(`/api/chat/attachments?name=${encodeURIComponent(name)}`)
    .set(headers)
    .set('content-type', contentType)
    .send(bytes);

async function newSession(headers: Record<string, string>, app = vision): Promise<string> {
  const res = await request(app).post('/api/chat/sessions').set(headers).send({ personaId: 'kasa', title: 'Files' });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

const send = (app: Express, headers: Record<string, string>, sessionId: string, body: object) =>
  request(app)
    .post(`/api/chat/sessions/${sessionId}/messages`)
    .set(headers)
    .send({ role: 'user', type: 'text', ...body });

/** The system prompt a provider request carried (OpenAI's first message). */
const systemOf = (req: FakeRequest): string =>
  String(req.body.messages.find((m) => m.role === 'system')?.content ?? '');

describe('uploading attachments', () => {
  it('stores a PNG with a thumbnail and serves it back to its owner only', async () => {
    const owner = userHeaders('pro');
    const png = makePng(40, 30);
    const res = await upload(owner, 'kente photo.png', png, 'text/plain');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      kind: 'image',
      name: 'kente photo.png',
      mediaType: 'image/png',
      size: png.length,
      createdAt: expect.any(String),
      hasThumbnail: true,
    });

    const file = await request(vision)
      .get(`/api/chat/attachments/${res.body.id}`)
      .set(owner)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(file.status).toBe(200);
    expect((file.body as Buffer).equals(png)).toBe(true);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['cache-control']).toMatch(/^private/);
    expect(file.headers['content-disposition']).toBe(
      `inline; filename="kente photo.png"; filename*=UTF-8''kente%20photo.png`,
    );

    const thumbnail = await request(vision).get(`/api/chat/attachments/${res.body.id}/thumbnail`).set(owner);
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers['content-type']).toBe('image/webp');

    // Another person gets exactly what an unknown id gets.
    const stranger = userHeaders('pro');
    for (const path of [`/api/chat/attachments/${res.body.id}`, `/api/chat/attachments/${res.body.id}/thumbnail`]) {
      const other = await request(vision).get(path).set(stranger);
      expect(other.status).toBe(404);
      expect(other.body.code).toBe('not_found');
    }
    expect((await request(vision).delete(`/api/chat/attachments/${res.body.id}`).set(stranger)).status).toBe(404);
    expect((await request(vision).get('/api/chat/attachments/not-an-id').set(owner)).status).toBe(400);

    expect((await request(vision).delete(`/api/chat/attachments/${res.body.id}`).set(owner)).status).toBe(204);
    expect((await request(vision).get(`/api/chat/attachments/${res.body.id}`).set(owner)).status).toBe(404);
  });

  it('tells a JPEG by its bytes whatever type was declared, and encodes a non-ASCII name safely', async () => {
    const res = await upload(userHeaders('enterprise'), 'ɔdɔ "plan".jpg', await makeJpeg(), 'application/pdf');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ kind: 'image', mediaType: 'image/jpeg', name: 'ɔdɔ "plan".jpg' });
    const file = await request(vision).get(`/api/chat/attachments/${res.body.id}`).set(userHeaders('pro')).send();
    expect(file.status).toBe(404);
  });

  it('reads the text of a PDF page by page, of a DOCX section by section, and of markdown and plain text', async () => {
    const who = userHeaders('pro');
    const pdf = await upload(who, 'report.pdf', makePdf(['Cocoa exports rose.', 'Gold output fell.']));
    expect(pdf.status).toBe(201);
    expect(pdf.body).toMatchObject({ kind: 'document', mediaType: 'application/pdf', pages: 2, characters: 36 });
    expect(pdf.body.hasThumbnail).toBe(false);

    const docx = await upload(
      who,
      'guide.docx',
      makeDocx([
        { heading: 'Markets', paragraphs: ['Kejetia is one of the largest markets in West Africa.'] },
        { heading: 'Transport', paragraphs: ['Trotros leave from Kejetia station.'] },
      ]),
    );
    expect(docx.status).toBe(201);
    expect(docx.body).toMatchObject({
      kind: 'document',
      mediaType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      pages: 2,
    });

    const markdown = await upload(who, 'notes.md', Buffer.from('# Akwaaba\nWelcome.\n\n# Adinkra\nSymbols.'));
    expect(markdown.body).toMatchObject({ kind: 'document', mediaType: 'text/markdown', pages: 2 });
    const text = await upload(who, 'plain', Buffer.from('Medaase paa.'), 'text/plain; charset=utf-8');
    expect(text.body).toMatchObject({ kind: 'document', mediaType: 'text/plain', pages: 1, characters: 12 });
  });

  it('accepts a PDF with no text and says it has none', async () => {
    const res = await upload(userHeaders('pro'), 'scan.pdf', makePdf(['']));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ kind: 'document', characters: 0 });
  });

  it('refuses other file types with 415 and the accepted list', async () => {
    const who = userHeaders('pro');
    const zip = Buffer.from('504b0304140000000800', 'hex');
    for (const [name, bytes] of [
      ['archive.zip', zip],
      ['binary.txt', Buffer.from([0x68, 0x00, 0x69])],
      ['notes.csv', Buffer.from('a,b\n1,2\n')],
    ] as const) {
      const res = await upload(who, name, Buffer.from(bytes));
      expect(res.status).toBe(415);
      expect(res.body).toMatchObject({
        code: 'unsupported_media_type',
        message: expect.stringContaining('PNG, JPEG, WebP or GIF images; PDF, DOCX'),
        details: { accepted: expect.arrayContaining(['image/png', 'application/pdf', 'text/markdown']) },
      });
    }
  });

  it('refuses an image over 10 MB and a body over 20 MB with 413 and a clear message', async () => {
    const who = userHeaders('pro');
    const big = Buffer.concat([makePng(), Buffer.alloc(11 * 1024 * 1024)]);
    const image = await upload(who, 'big.png', big);
    expect(image.status).toBe(413);
    expect(image.body).toMatchObject({ code: 'payload_too_large', message: expect.stringMatching(/at most 10 MB/) });

    const huge = await upload(who, 'huge.pdf', Buffer.concat([makePdf(['x']), Buffer.alloc(21 * 1024 * 1024)]));
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({
      code: 'payload_too_large',
      message: 'The request body is too large: the limit is 20 MB.',
    });
  });

  it('refuses Free with 403 naming what Pro adds', async () => {
    const res = await upload(userHeaders('free'), 'a.png', makePng());
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'forbidden', details: { plan: 'pro' } });
    expect(res.body.message).toMatch(/Pro plan.*photos, PDFs and Word documents/);
  });

  it('keeps each person within their allowance, even when uploads arrive at once', async () => {
    const service = new AttachmentService(env.db, logger, processor, {
      perPersonCount: 2,
      perPersonBytes: 1024 * 1024,
    });
    const who = { userId: `quota-${Date.now()}`, username: 'ama', tier: 'pro' as const };
    const outcomes = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => service.upload(who, `n${i}.txt`, Buffer.from(`note ${i}`), 'text/plain')),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(2);
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(refused).toHaveLength(4);
    for (const { reason } of refused) expect(reason).toMatchObject({ status: 409, code: 'conflict' });
    // Deleting one frees its place.
    const kept = outcomes.find((o): o is PromiseFulfilledResult<Attachment> => o.status === 'fulfilled')!;
    await service.remove(who, kept.value.id);
    await expect(service.upload(who, 'again.txt', Buffer.from('again'), 'text/plain')).resolves.toMatchObject({
      kind: 'document',
    });
  });
});

describe('sending attachments with messages', () => {
  it('sends an image to a vision-capable provider as an image part and lists it on the message', async () => {
    const who = userHeaders('pro');
    const png = makePng(8, 8);
    const image = (await upload(who, 'cloth.png', png)).body as { id: string };
    const sessionId = await newSession(who);
    const res = await send(vision, who, sessionId, { content: 'What pattern is this?', attachmentIds: [image.id] });
    expect(res.status).toBe(201);
    expect(res.body.content).toBe('Here is what I found.');

    const parts = imagePartsOf(fake.requests.at(-1)!);
    expect(parts).toHaveLength(1);
    const [, mediaType, base64] = /^data:([^;]+);base64,(.+)$/.exec(parts[0]!.url)!;
    expect(mediaType).toBe('image/png');
    expect(Buffer.from(base64!, 'base64').equals(png)).toBe(true);

    const session = await request(vision).get(`/api/chat/sessions/${sessionId}`).set(who);
    expect(session.body.messages[0]).toMatchObject({
      role: 'user',
      attachments: [{ id: image.id, kind: 'image', name: 'cloth.png', mediaType: 'image/png', size: png.length }],
    });
    expect(session.body.messages[1].attachments).toBeUndefined();

    // The next message's history has the text, not the image again.
    await send(vision, who, sessionId, { content: 'And its colours?' });
    expect(imagePartsOf(fake.requests.at(-1)!)).toEqual([]);
  });

  it('puts a PDF’s text in the prompt, labelled with its name and pages, and asks for citations', async () => {
    const who = userHeaders('pro');
    const pdf = (await upload(who, 'report.pdf', makePdf(['Cocoa exports rose.', 'Gold output fell 4%.']))).body;
    const sessionId = await newSession(who);
    const res = await send(vision, who, sessionId, { content: 'What happened to gold?', attachmentIds: [pdf.id] });
    expect(res.status).toBe(201);
    const system = systemOf(fake.requests.at(-1)!);
    expect(system).toContain('[report.pdf, p. 1]\nCocoa exports rose.');
    expect(system).toContain('[report.pdf, p. 2]\nGold output fell 4%.');
    expect(system).toMatch(/cite it with that label/);
    expect(imagePartsOf(fake.requests.at(-1)!)).toEqual([]);
  });

  it('says plainly that it cannot see images when the provider is not vision-capable', async () => {
    const who = userHeaders('pro');
    const image = (await upload(who, 'x.png', makePng(), undefined, blind)).body;
    const sessionId = await newSession(who, blind);
    const res = await send(blind, who, sessionId, { content: 'Describe it', attachmentIds: [image.id] });
    expect(res.status).toBe(201);
    expect(res.body.content).toBe(`${NO_VISION_NOTICE.en}Here is what I found.`);
    expect(res.body.content).toMatch(/an operator can add one under AI providers/);
    expect(imagePartsOf(fake.requests.at(-1)!)).toEqual([]);
    expect(systemOf(fake.requests.at(-1)!)).toMatch(/you cannot see them/);

    const french = await send(blind, who, sessionId, {
      content: 'Décris-la encore',
      language: 'fr',
      attachmentIds: [image.id],
    });
    expect(french.body.content).toMatch(/^Je ne peux pas voir les images pour le moment/);
  });

  it('refuses another person’s attachment (404), one sent in another session (409), and Free (403)', async () => {
    const who = userHeaders('pro');
    const image = (await upload(who, 'x.png', makePng())).body;
    const first = await newSession(who);
    expect((await send(vision, who, first, { content: 'One', attachmentIds: [image.id] })).status).toBe(201);
    // Sending it again in the same conversation is fine.
    expect((await send(vision, who, first, { content: 'Again', attachmentIds: [image.id] })).status).toBe(201);

    const second = await newSession(who);
    const elsewhere = await send(vision, who, second, { content: 'Two', attachmentIds: [image.id] });
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.body.code).toBe('conflict');

    const stranger = userHeaders('pro');
    const theirs = await newSession(stranger);
    const stolen = await send(vision, stranger, theirs, { content: 'Mine?', attachmentIds: [image.id] });
    expect(stolen.status).toBe(404);

    const free = userHeaders('free');
    const freeSession = await newSession(free);
    const refused = await send(vision, free, freeSession, { content: 'Hi', attachmentIds: [image.id] });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/Pro plan/);

    const tooMany = await send(vision, who, first, { content: 'Many', attachmentIds: Array(5).fill(image.id) });
    expect(tooMany.status).toBe(400);
  });

  it('keeps an edited message’s attachments unless the edit says otherwise', async () => {
    const who = userHeaders('pro');
    const image = (await upload(who, 'x.png', makePng())).body;
    const sessionId = await newSession(who);
    const sent = await send(vision, who, sessionId, { content: 'What is it?', attachmentIds: [image.id] });
    const edit = (body: object) =>
      request(vision)
        .post(`/api/chat/sessions/${sessionId}/messages/${sent.body.userMessageId}/edit`)
        .set(who)
        .send(body);
    expect((await edit({ content: 'What is this, please?' })).status).toBe(201);
    expect(imagePartsOf(fake.requests.at(-1)!)).toHaveLength(1);
    expect((await edit({ content: 'Never mind the picture.', attachmentIds: [] })).status).toBe(201);
    expect(imagePartsOf(fake.requests.at(-1)!)).toHaveLength(0);

    // An image deleted since is left out of a later edit that keeps the message's attachments.
    expect((await request(vision).delete(`/api/chat/attachments/${image.id}`).set(who)).status).toBe(204);
    expect((await edit({ content: 'And now?' })).status).toBe(201);
    expect(imagePartsOf(fake.requests.at(-1)!)).toHaveLength(0);
  });

  it('deletes the attachments sent in a session with the session', async () => {
    const who = userHeaders('pro');
    const image = (await upload(who, 'x.png', makePng())).body;
    const unsent = (await upload(who, 'y.png', makePng())).body;
    const sessionId = await newSession(who);
    await send(vision, who, sessionId, { content: 'Look', attachmentIds: [image.id] });
    expect((await request(vision).delete(`/api/chat/sessions/${sessionId}`).set(who)).status).toBe(204);
    expect((await request(vision).get(`/api/chat/attachments/${image.id}`).set(who)).status).toBe(404);
    expect((await request(vision).get(`/api/chat/attachments/${unsent.id}`).set(who)).status).toBe(200);
  });

  it('does not show attachments on a shared link', async () => {
    const who = userHeaders('pro');
    const image = (await upload(who, 'x.png', makePng())).body;
    const sessionId = await newSession(who);
    await send(vision, who, sessionId, { content: 'Look at this', attachmentIds: [image.id] });
    const share = await request(vision).post(`/api/chat/sessions/${sessionId}/share`).set(who);
    const page = await request(vision).get(`/api/chat/shared/${share.body.token}`);
    expect(page.status).toBe(200);
    expect(JSON.stringify(page.body)).not.toContain(image.id);
  });
});

describe('images on /v1/chat/completions', () => {
  let server: http.Server;
  let blindServer: http.Server;
  const clientFor = (target: http.Server) =>
    new OpenAI({
      baseURL: `http://127.0.0.1:${(target.address() as AddressInfo).port}/v1`,
      apiKey: 'kasa_test_key',
      defaultHeaders: userHeaders('enterprise'),
      maxRetries: 0,
    });
  const dataUrl = `data:image/png;base64,${makePng().toString('base64')}`;

  beforeAll(async () => {
    server = vision.listen(0, '127.0.0.1');
    blindServer = blind.listen(0, '127.0.0.1');
    await Promise.all([server, blindServer].map((s) => new Promise((resolve) => s.once('listening', resolve))));
  });
  afterAll(async () => {
    for (const s of [server, blindServer]) {
      s.closeAllConnections();
      await new Promise((resolve) => s.close(resolve));
    }
  });

  it('sends a data URL image to a vision-capable provider', async () => {
    const completion = await clientFor(server).chat.completions.create({
      model: 'kasa',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this picture?' },
            { type: 'image_url', image_url: { url: dataUrl, detail: 'low' } },
          ],
        },
      ],
    });
    expect(completion.choices[0]!.message.content).toBe('Here is what I found.');
    const [part] = imagePartsOf(fake.requests.at(-1)!);
    expect(part!.url.replace(/^data:image\/png;base64,/, '')).toBe(makePng().toString('base64'));
  });

  it('refuses an http(s) image URL with 400 naming the parameter, without fetching it', async () => {
    const refused = await clientFor(server)
      .chat.completions.create({
        model: 'kasa',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Look' },
              { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
            ],
          },
        ],
      })
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    const error = (refused as InstanceType<typeof OpenAI.BadRequestError>).error as { param?: string; type?: string };
    expect(error).toMatchObject({ type: 'invalid_request_error', param: 'messages.0.content.1.image_url.url' });
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses a data URL that is not an image by its bytes', async () => {
    const res = await request(vision)
      .post('/v1/chat/completions')
      .set(userHeaders('enterprise'))
      .send({
        model: 'kasa',
        messages: [
          {
            role: 'user',
            content: [
              {
                type: 'image_url',
                image_url: { url: `data:image/png;base64,${Buffer.from('hi').toString('base64')}` },
              },
            ],
          },
        ],
      });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ param: 'messages.0.content.0.image_url.url' });
  });

  it('answers 400 invalid_request_error when no provider can see images', async () => {
    const refused = await clientFor(blindServer)
      .chat.completions.create({
        model: 'kasa',
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: dataUrl } }] }],
      })
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    const error = (refused as InstanceType<typeof OpenAI.BadRequestError>).error as { message?: string; type?: string };
    expect(error.type).toBe('invalid_request_error');
    expect(error.message).toMatch(/can see images/);
    expect(fake.requests).toHaveLength(0);
  });
});
