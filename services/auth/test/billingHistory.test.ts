import type { BillingHistoryResponse, CheckoutResponse } from '@kasa/contracts';
import { ADD_ONS, BillingHistoryResponse as BillingHistoryResponseSchema } from '@kasa/contracts';
import { eventually } from '@kasa/test-kit';
import type { Express } from 'express';
import request from 'supertest';
import { quotaMonthOf } from '../src/billing/addOnLedger';
import { BuiltInPaymentProvider } from '../src/billing/paymentProvider';
import { BillingHarness, type Person } from './support/billingHarness';

// The billing history, its receipts (a page and a PDF) and extra-calls packs, through the built-in provider (test
// mode: every checkout completes at once). Stripe's and Paystack's packs: billingStripe.test.ts, billingPaystack.test.ts.

let h: BillingHarness;
let app: Express;

beforeAll(async () => {
  h = await new BillingHarness('history').start();
  ({ app } = h.app(new BuiltInPaymentProvider()));
}, 60_000);

afterAll(async () => {
  await h?.stop();
});

/** A person on Pro (through the built-in provider), with the identity the gateway now sends. */
async function proPerson(): Promise<{ person: Person; reference: string }> {
  const person = await h.signUp(app);
  const res = await request(app).post('/api/billing/checkout').set(person.identity).send({ planId: 'pro' });
  expect(res.status).toBe(201);
  return { person, reference: (res.body as { reference: string }).reference };
}

const history = (person: Person, query = '') => request(app).get(`/api/billing/history${query}`).set(person.identity);

describe('GET /api/billing/history', () => {
  it('is empty before the first payment', async () => {
    const person = await h.signUp(app);
    const res = await history(person);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({ payments: [], nextCursor: null });
  });

  it('lists the person’s own completed payments, newest first, with their receipts', async () => {
    const { person, reference } = await proPerson();
    const pack = await request(app)
      .post('/api/billing/add-ons/checkout')
      .set(person.identity)
      .send({ addOnId: 'extra-calls' });
    expect(pack.status).toBe(201);
    await proPerson(); // someone else's payment

    const res = await history(person);
    expect(res.status).toBe(200);
    const body = BillingHistoryResponseSchema.parse(res.body);
    expect(body.payments.map((p) => p.reference)).toEqual([pack.body.reference, reference]);
    expect(body.payments[0]).toMatchObject({
      addOnId: 'extra-calls',
      calls: 10_000,
      description: 'Extra API calls: 10,000 calls',
      amount: 5,
      currency: 'USD',
      status: 'completed',
    });
    expect(body.payments[1]).toMatchObject({
      planId: 'pro',
      addOnId: null,
      description: 'Kasa Pro plan, 1 month',
      amount: 29,
      receiptUrl: `/api/billing/receipts/${reference}`,
      receiptPdfUrl: `/api/billing/receipts/${reference}/receipt.pdf`,
    });
    expect(body.nextCursor).toBeNull();
  });

  it('pages with a bounded limit and a cursor', async () => {
    const { person } = await proPerson();
    for (let i = 0; i < 2; i++)
      expect(
        (await request(app).post('/api/billing/add-ons/checkout').set(person.identity).send({ addOnId: 'extra-calls' }))
          .status,
      ).toBe(201);
    const first = (await history(person, '?limit=2')).body as BillingHistoryResponse;
    expect(first.payments).toHaveLength(2);
    expect(first.nextCursor).not.toBeNull();
    const second = (await history(person, `?limit=2&cursor=${first.nextCursor}`)).body as BillingHistoryResponse;
    expect(second.payments).toHaveLength(1);
    expect(second.payments[0]!.planId).toBe('pro');
    expect(second.payments[0]!.addOnId).toBeNull();
    expect(second.nextCursor).toBeNull();

    expect((await history(person, '?limit=51')).status).toBe(400);
    expect((await history(person, '?limit=0')).status).toBe(400);
    expect((await history(person, '?cursor=nope')).status).toBe(400);
  });

  it('needs the gateway’s identity', async () => {
    expect((await request(app).get('/api/billing/history')).status).toBe(401);
  });
});

describe('receipts', () => {
  it('shows a payment’s receipt as a page with Kasa, the number, date, item, amount, processor reference and payer', async () => {
    const { person, reference } = await proPerson();
    const res = await request(app).get(`/api/billing/receipts/${reference}`).set(person.identity);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    const html = res.text;
    expect(html).toContain('<h1>Kasa</h1>');
    expect(html).toContain(reference);
    expect(html).toContain('Kasa Pro plan, 1 month');
    expect(html).toContain('USD 29.00');
    expect(html).toContain(`builtin_${reference}`);
    expect(html).toContain(person.email);
    const year = String(new Date().getUTCFullYear());
    expect(html).toContain(year);
    expect(html).not.toMatch(/<script/i);
  });

  it('downloads the same receipt as a small PDF', async () => {
    const { person, reference } = await proPerson();
    const started = Date.now();
    const res = await request(app)
      .get(`/api/billing/receipts/${reference}/receipt.pdf`)
      .set(person.identity)
      .buffer(true)
      .parse((answer, done) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="kasa-receipt-${reference}.pdf"`);
    const pdf = res.body as Buffer;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.length).toBeLessThan(20_000);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('answers 404 for someone else’s payment and an unknown one', async () => {
    const { reference } = await proPerson();
    const stranger = await h.signUp(app);
    for (const path of [`/api/billing/receipts/${reference}`, `/api/billing/receipts/${reference}/receipt.pdf`]) {
      const res = await request(app).get(path).set(stranger.identity);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Receipt not found');
    }
    expect((await request(app).get('/api/billing/receipts/KASA-0000000000').set(stranger.identity)).status).toBe(404);
    expect((await request(app).get('/api/billing/receipts/not-a-reference').set(stranger.identity)).status).toBe(400);
  });
});

describe('extra-calls packs', () => {
  it('refuses Free with 403 naming the plan that may buy them', async () => {
    const person = await h.signUp(app);
    const res = await request(app)
      .post('/api/billing/add-ons/checkout')
      .set(person.identity)
      .send({ addOnId: 'extra-calls' });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(
      'Extra API calls packs are for the Pro plan; yours is Free. Upgrade to Pro to buy them.',
    );
    expect(res.body.details).toMatchObject({ plan: 'pro', addOnId: 'extra-calls', currentTier: 'free' });
    expect((await history(person)).body.payments).toEqual([]);
  });

  it('refuses an unknown add-on with 400', async () => {
    const { person } = await proPerson();
    const res = await request(app).post('/api/billing/add-ons/checkout').set(person.identity).send({ addOnId: 'gold' });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/addOnId/);
  });

  it('sells Pro a pack at the table’s price, keeps the plan, and announces this month’s extra calls', async () => {
    const { person } = await proPerson();
    const res = await request(app)
      .post('/api/billing/add-ons/checkout')
      .set(person.identity)
      .send({ addOnId: 'extra-calls', currency: 'GHS' });
    expect(res.status).toBe(201);
    const body = res.body as Extract<CheckoutResponse, { outcome: 'checkout' }>;
    expect(body).toMatchObject({
      outcome: 'checkout',
      status: 'completed',
      planId: 'pro',
      payment: { addOnId: 'extra-calls', amount: ADD_ONS['extra-calls'].prices.GHS, currency: 'GHS' },
    });
    // No plan change: no fresh token, no account.
    expect(body.token).toBeUndefined();
    expect(body.user).toBeUndefined();
    expect(await h.tierOf(person.userId)).toBe('pro');
    const month = quotaMonthOf(new Date());
    expect((await h.paymentOf(body.reference))?.quotaMonth).toBe(month);

    await eventually(async () => h.callsAddedFor(person.userId).length === 1, { what: 'the calls are announced' });
    expect(h.callsAddedFor(person.userId)[0]).toEqual({
      userId: person.userId,
      reference: body.reference,
      addOnId: 'extra-calls',
      calls: 10_000,
      month,
      monthCalls: 10_000,
    });

    // A second pack: the month's total is both.
    await request(app).post('/api/billing/add-ons/checkout').set(person.identity).send({ addOnId: 'extra-calls' });
    await eventually(async () => h.callsAddedFor(person.userId).length === 2);
    expect(h.callsAddedFor(person.userId)[1]!.monthCalls).toBe(20_000);
    // The broker confirmed: the outbox marker is gone.
    await eventually(async () => (await h.paymentOf(body.reference))?.pendingCallsAddedEventId === null, {
      what: 'the outbox marker is cleared',
    });
  });
});
