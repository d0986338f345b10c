/**
 * Uploads past the processing limits, through createApp() on the built output with the real database: each gets a
 * clear 4xx, nothing is stored and the allowance is not charged; ordinary files still give their text; and while a
 * heavy document is read (in the worker pool), the same service keeps answering.
 */
import type { Express } from 'express';
import JSZip from 'jszip';
import request from 'supertest';
import { attachmentModel, attachmentUsageModel } from '../src/attachments/attachmentModel';
import type { ChatComponents } from '../src/chatComponents';
import { makeDocx, makePdf, makePng } from './attachmentFixtures';
import { TestEnvironment, eventually, userHeaders } from './support';

const env = new TestEnvironment('attachment_limits');
let app: Express;
let chat: ChatComponents;

beforeAll(async () => {
  await env.start();
  ({ app, chat } = await env.app());
});
afterAll(() => env.stop());

const upload = (target: Express, headers: Record<string, string>, name: string, bytes: Buffer) =>
  request(target)
    .post(`/api/chat/attachments?name=${encodeURIComponent(name)}`)
    .set(headers)
    .set('content-type', 'application/octet-stream')
    .send(bytes);

/** A Word document whose document.xml holds `paragraphs` paragraphs made by `text`, zipped by jszip. */
async function wordDocument(paragraphs: number, text: (i: number) => string): Promise<Buffer> {
  const zip = new JSZip();
  const main = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ' +
      'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" ' +
      'Target="word/document.xml"/></Relationships>',
  );
  const body = Array.from({ length: paragraphs }, (_, i) => `<w:p><w:r><w:t>${text(i)}</w:t></w:r></w:p>`).join('');
  zip.file('word/document.xml', `<w:document xmlns:w="${main}"><w:body>${body}</w:body></w:document>`);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 9 } });
}

/** Text that compresses as prose does (about 5 to 1), not as a bomb. */
const prose = (i: number) =>
  `Paragraph ${i}: the market at Kejetia opened at ${(i * 7919) % 1440} minutes, ${(i * 104_729).toString(36)} traders.`;

/** What the person has stored and been charged: attachments, files in GridFS and their allowance. */
async function storedFor(userId: string) {
  const [attachments, files, usage] = await Promise.all([
    attachmentModel(env.db).countDocuments({ ownerId: userId }),
    env.db.db!.collection('attachments.files').countDocuments({ 'metadata.ownerId': userId }),
    attachmentUsageModel(env.db).findOne({ _id: userId }).lean(),
  ]);
  return { attachments, files, charged: { count: usage?.count ?? 0, bytes: usage?.bytes ?? 0 } };
}
const NOTHING = { attachments: 0, files: 0, charged: { count: 0, bytes: 0 } };

describe('uploads past the processing limits', () => {
  it('refuses a Word document that unpacks 2 MB from a few KB with 422 naming the limit, storing nothing', async () => {
    const userId = `bomb-${Date.now()}`;
    const bomb = await wordDocument(50_000, () => 'All work and no play makes Jack a dull boy.');
    expect(bomb.length).toBeLessThan(40 * 1024);
    const res = await upload(app, userHeaders('pro', userId), 'report.docx', bomb);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      code: 'file_too_complex',
      message:
        'This Word document unpacks to more than 100 times its packed size, as zip bombs do; ' +
        'Word documents may unpack to at most 100 times their size.',
      details: { limit: 'docxCompressionRatio', max: 100 },
      requestId: expect.any(String),
    });
    expect(await storedFor(userId)).toEqual(NOTHING);
  });

  it('refuses a 2,000-page PDF with 422 naming the page limit, storing nothing', async () => {
    const userId = `pages-${Date.now()}`;
    const pdf = makePdf(Array.from({ length: 2_000 }, (_, i) => `Page ${i + 1}`));
    const res = await upload(app, userHeaders('pro', userId), 'minutes.pdf', pdf);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      code: 'file_too_complex',
      message: 'This PDF has 2,000 pages; PDFs may have at most 1,000 pages.',
      details: { limit: 'pdfPages', max: 1_000, found: 2_000 },
    });
    expect(await storedFor(userId)).toEqual(NOTHING);
  });

  it('refuses an image over the pixel limit with 422, storing nothing', async () => {
    const userId = `pixels-${Date.now()}`;
    const { app: small, chat: smallChat } = await env.app({ CHAT_IMAGE_MAX_PIXELS: '1000' });
    expect(smallChat.attachmentProcessor).not.toBe(chat.attachmentProcessor);
    const res = await upload(small, userHeaders('pro', userId), 'wide.png', makePng(50, 30));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      code: 'file_too_complex',
      message: 'This image is 50 × 30 pixels; images may have at most 1,000 pixels.',
      details: { limit: 'imagePixels', max: 1_000, found: 1_500 },
    });
    expect(await storedFor(userId)).toEqual(NOTHING);
  });

  it('refuses a document whose reading runs out of its worker’s memory with 422, and reads the next one', async () => {
    const userId = `memory-${Date.now()}`;
    const { app: tight } = await env.app({ CHAT_ATTACHMENT_WORKER_MEMORY_MB: '32', CHAT_ATTACHMENT_THREADS_MAX: '1' });
    const heavy = await wordDocument(40_000, prose);
    const res = await upload(tight, userHeaders('pro', userId), 'ledger.docx', heavy);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'file_too_complex', details: { limit: 'workerMemoryMb', max: 32 } });
    expect(res.body.message).toMatch(/^Reading this Word document needed more than 32 MB of memory/);
    expect(await storedFor(userId)).toEqual(NOTHING);

    const next = await upload(tight, userHeaders('pro', userId), 'note.txt', Buffer.from('Medaase paa.'));
    expect(next.status).toBe(201);
  });

  it('still reads an ordinary Word document and PDF, and charges them', async () => {
    const userId = `ordinary-${Date.now()}`;
    const who = userHeaders('pro', userId);
    const docx = makeDocx([{ heading: 'Markets', paragraphs: ['Kejetia is one of the largest markets.'] }]);
    const word = await upload(app, who, 'guide.docx', docx);
    expect(word.status).toBe(201);
    expect(word.body).toMatchObject({ kind: 'document', pages: 1, characters: 46 });
    const pdf = makePdf(['Cocoa exports rose.', 'Gold output fell.']);
    const paper = await upload(app, who, 'report.pdf', pdf);
    expect(paper.status).toBe(201);
    expect(paper.body).toMatchObject({ pages: 2, characters: 36 });
    expect(await storedFor(userId)).toEqual({
      attachments: 2,
      files: 2,
      charged: { count: 2, bytes: docx.length + pdf.length },
    });
    // The stored bytes are the uploaded ones (they went to the worker and back).
    const file = await request(app)
      .get(`/api/chat/attachments/${paper.body.id}`)
      .set(who)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect((file.body as Buffer).equals(pdf)).toBe(true);
  });
});

describe('the event loop while a heavy document is read', () => {
  it('answers GET /api/personas on the same service while a 1,000-page PDF is read in a worker', async () => {
    const heavy = makePdf(Array.from({ length: 1_000 }, (_, i) => `Page ${i + 1} of the annual report of the market.`));
    const reading = upload(app, userHeaders('pro'), 'annual.pdf', heavy).then((res) => res);
    await eventually(() => (chat.attachmentProcessor.load.running > 0 ? true : undefined), 10_000);
    const started = performance.now();
    const personas = await request(app).get('/api/personas');
    const ms = Math.round(performance.now() - started);
    const stillReading = chat.attachmentProcessor.load.running > 0;
    expect(personas.status).toBe(200);
    expect(personas.body.length).toBeGreaterThanOrEqual(6);
    // The figure, for whoever reads the output; the test never fails on speed.
    console.log(
      `GET /api/personas answered in ${ms} ms while a 1,000-page PDF was read ` +
        `(${stillReading ? 'still reading when it answered' : 'read by then'})`,
    );
    const read = await reading;
    expect(read.status).toBe(201);
    expect(read.body).toMatchObject({ pages: 1_000 });
  });

  it('answers 503 with Retry-After when the pool is full, storing nothing', async () => {
    const { app: narrow, chat: narrowChat } = await env.app({
      CHAT_ATTACHMENT_THREADS_MAX: '1',
      CHAT_ATTACHMENT_QUEUE_MAX: '0',
    });
    const heavy = makePdf(Array.from({ length: 1_000 }, (_, i) => `Page ${i + 1}`));
    const reading = upload(narrow, userHeaders('pro'), 'annual.pdf', heavy).then((res) => res);
    await eventually(() => (narrowChat.attachmentProcessor.load.running > 0 ? true : undefined), 10_000);
    const userId = `busy-${Date.now()}`;
    const busy = await upload(narrow, userHeaders('pro', userId), 'note.txt', Buffer.from('Akwaaba.'));
    expect(busy.status).toBe(503);
    expect(busy.headers['retry-after']).toBe('5');
    expect(busy.body).toMatchObject({
      code: 'upstream_unavailable',
      message: 'Too many files are being read right now. Please try again in 5 seconds.',
    });
    expect(await storedFor(userId)).toEqual(NOTHING);
    expect((await reading).status).toBe(201);
  });
});
