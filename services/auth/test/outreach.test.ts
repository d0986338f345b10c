import { CONTACT_REFERENCE_PATTERN } from '@kasa/contracts';
import { ServiceMetrics, connectDatabase, createLogger, createServiceApp } from '@kasa/service-kit';
import type { Express } from 'express';
import type { Connection } from 'mongoose';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { contactMessageModel } from '../src/outreach/contactMessageModel';
import { newsletterSubscriptionModel } from '../src/outreach/newsletterSubscriptionModel';
import { NEWSLETTER_MESSAGE, createOutreachRouter } from '../src/outreach/outreachRouter';

const logger = createLogger({ service: 'auth-outreach-test', version: 'test', level: 'silent' });
let db: Connection;
let app: Express;

const unique = () => randomUUID().slice(0, 8);

beforeAll(async () => {
  db = await connectDatabase({
    url: process.env.MONGO_URL!,
    dbName: `kasa_auth_outreach_test_${process.pid}`,
    logger,
    maxAttempts: 3,
  });
  await Promise.all([newsletterSubscriptionModel(db).init(), contactMessageModel(db).init()]);
  app = createServiceApp({
    logger,
    metrics: new ServiceMetrics('auth-outreach-test'),
    readiness: {},
    bodyLimit: '16kb',
    routes: [createOutreachRouter({ db, logger })],
  });
});

afterAll(async () => {
  await db?.dropDatabase();
  await db?.close();
});

describe('POST /api/newsletter', () => {
  it('subscribes an address once: the same answer twice, whatever its case, and one record', async () => {
    const email = `Yaa.${unique()}@Example.com`;
    const first = await request(app).post('/api/newsletter').send({ email });
    const second = await request(app)
      .post('/api/newsletter')
      .send({ email: `  ${email.toLowerCase()} ` });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(first.body).toEqual({ success: true, message: NEWSLETTER_MESSAGE });
    expect(second.body).toEqual(first.body);
    expect(await newsletterSubscriptionModel(db).countDocuments({ email: email.toLowerCase() })).toBe(1);
  });

  it('keeps one record when the same address arrives many times at once', async () => {
    const email = `rush.${unique()}@example.com`;
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => request(app).post('/api/newsletter').send({ email })),
    );
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await newsletterSubscriptionModel(db).countDocuments({ email })).toBe(1);
  });

  it.each([[{}], [{ email: 'not-an-email' }], [{ email: 42 }], [{ email: `${'a'.repeat(250)}@example.com` }]])(
    'answers 400 naming the email field for %j, and stores nothing',
    async (body) => {
      const before = await newsletterSubscriptionModel(db).countDocuments();
      const res = await request(app).post('/api/newsletter').send(body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation_failed', message: expect.stringContaining('email') });
      expect(await newsletterSubscriptionModel(db).countDocuments()).toBe(before);
    },
  );

  it('answers 400 in the shared shape for malformed JSON', async () => {
    const res = await request(app).post('/api/newsletter').set('content-type', 'application/json').send('{"email":');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  });
});

describe('POST /api/contact', () => {
  const valid = () => ({
    name: 'Kwame Mensah',
    email: `Kwame.${unique()}@Example.com`,
    subject: 'Twi voices',
    message: 'Hello team,\nDo you plan more Twi voices?\n\tThanks',
  });

  it('stores the message and answers 201 with a reference', async () => {
    const input = valid();
    const res = await request(app).post('/api/contact').send(input);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      reference: expect.stringMatching(CONTACT_REFERENCE_PATTERN),
      message: expect.stringContaining('Kwame Mensah'),
    });
    const stored = await contactMessageModel(db).findOne({ reference: res.body.reference }).lean();
    expect(stored).toMatchObject({
      name: input.name,
      email: input.email.toLowerCase(),
      subject: input.subject,
      message: input.message,
      status: 'new',
    });
  });

  it('gives every message its own reference', async () => {
    const [a, b] = await Promise.all([
      request(app).post('/api/contact').send(valid()),
      request(app).post('/api/contact').send(valid()),
    ]);
    expect(a!.body.reference).not.toBe(b!.body.reference);
  });

  it.each<[string, Record<string, unknown>]>([
    ['name', { name: '' }],
    ['name', { name: 'x'.repeat(101) }],
    ['name', { name: 'Kwame\u0000' }],
    ['email', { email: 'kwame@' }],
    ['subject', { subject: '   ' }],
    ['subject', { subject: 's'.repeat(151) }],
    ['subject', { subject: 'two\nlines' }],
    ['message', { message: 'too short' }],
    ['message', { message: 'm'.repeat(4001) }],
    ['message', { message: undefined }],
  ])('answers 400 naming %s for %j, and stores nothing', async (field, change) => {
    const before = await contactMessageModel(db).countDocuments();
    const res = await request(app)
      .post('/api/contact')
      .send({ ...valid(), ...change });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', message: expect.stringContaining(field) });
    expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: field })]));
    expect(await contactMessageModel(db).countDocuments()).toBe(before);
  });

  it('answers 413 for a body over the limit', async () => {
    const res = await request(app)
      .post('/api/contact')
      .send({ ...valid(), padding: 'x'.repeat(20_000) });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'payload_too_large' });
  });
});
