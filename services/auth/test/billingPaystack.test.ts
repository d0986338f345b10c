import { BODY_LIMITS, type CheckoutResponse, type SubscriptionResponse } from '@kasa/contracts';
import { eventually } from '@kasa/test-kit';
import type { Express } from 'express';
import request from 'supertest';
import { apiKeyModel } from '../src/apiKeys/apiKeyModel';
import type { AuthComponents } from '../src/authComponents';
import { PaystackProvider } from '../src/billing/paystackProvider';
import { inboxEventModel } from '../src/billing/webhookInbox';
import { BillingHarness, DAY_MS, GRACE_MS, TravelClock, type Person } from './support/billingHarness';
import { PaystackFake, type FakePlan, type SignedWebhook } from './support/paystackFake';

// Paystack end to end against a fake that follows its documented API and signs webhooks as Paystack does: checkout,
// the success page's verification, webhooks (forged, repeated, out of order), renewals, failed renewals and grace,
// cancellation and resumption, months bought without a plan, and the reconciliation sync standing in for lost
// webhooks.

const SECRET = 'sk_test_kasa_paystack_secret';
const PRO_PLAN: FakePlan = {
  plan_code: 'PLN_kasapro',
  name: 'Kasa Pro',
  amount: 35_000,
  currency: 'GHS',
  interval: 'monthly',
};

let h: BillingHarness;
let fake: PaystackFake;
let provider: PaystackProvider;
let app: Express;
let auth: AuthComponents;
/** Billing's clock and Paystack's: moved forward to the end of a period or of a grace. */
const clock = new TravelClock();

beforeAll(async () => {
  h = await new BillingHarness('paystack').start();
  fake = await new PaystackFake(SECRET, [PRO_PLAN], clock.now).start();
  provider = new PaystackProvider({
    secretKey: SECRET,
    baseUrl: fake.url,
    currency: 'GHS',
    planPro: PRO_PLAN.plan_code,
  });
  ({ app, auth } = h.app(provider, clock.now));
});

afterAll(async () => {
  await fake?.stop();
  await h?.stop();
});

async function checkout(person: Person, target = app): Promise<string> {
  const res = await request(target).post('/api/billing/checkout').set(person.identity).send({ planId: 'pro' });
  expect(res.status).toBe(201);
  expect(res.body).toMatchObject({ outcome: 'checkout', status: 'pending' });
  return (res.body as { reference: string }).reference;
}

function deliver(hook: SignedWebhook, signature = hook.signature) {
  return request(app)
    .post('/api/billing/webhooks/paystack')
    .set('content-type', 'application/json')
    .set('x-paystack-signature', signature)
    .send(hook.body);
}

const inboxIsEmpty = async () => (await inboxEventModel(h.db).countDocuments()) === 0;

/** A person on Pro through Paystack, with the subscription.create webhook applied. */
async function subscribed(): Promise<{ person: Person; reference: string; code: string }> {
  const person = await h.signUp(app);
  const reference = await checkout(person);
  const paid = fake.pay(reference);
  expect((await deliver(paid.charge)).status).toBe(200);
  await eventually(async () => h.hasTier(person.userId, 'pro'), { what: 'the payment is applied' });
  expect((await deliver(paid.subscriptionCreated!)).status).toBe(200);
  const code = paid.subscription!.subscription_code;
  await eventually(async () => (await h.subscriptionOf(person.userId))?.subscriptionId === code, {
    what: 'the subscription code is known',
  });
  expect(await h.tierOf(person.userId)).toBe('pro');
  return { person, reference, code };
}

describe('checkout through Paystack', () => {
  it('sends the person to Paystack, and the success page’s verify call changes the plan once Paystack confirms', async () => {
    const person = await h.signUp(app);
    const res = await request(app)
      .post('/api/billing/checkout')
      .set(person.identity)
      .send({ planId: 'pro', currency: 'GHS' });
    expect(res.status).toBe(201);
    const body = res.body as Extract<CheckoutResponse, { outcome: 'checkout' }>;
    expect(body).toMatchObject({
      status: 'pending',
      payment: { amount: 350, currency: 'GHS', provider: 'paystack', status: 'pending' },
    });
    expect(body.redirectUrl).toMatch(/^https:\/\/checkout\.paystack\.example\//);
    expect(body.token).toBeUndefined();
    // Paystack was asked for the plan, by card, with Kasa's reference and the way back to the success page.
    const tx = fake.transactions.get(body.reference)!;
    expect(tx).toMatchObject({ amount: 35_000, currency: 'GHS', plan: { plan_code: PRO_PLAN.plan_code } });
    expect(JSON.parse(tx.metadata!)).toMatchObject({ reference: body.reference, userId: person.userId, planId: 'pro' });

    // Back too early: nothing paid yet, nothing changes.
    const early = await request(app).post(`/api/billing/checkout/${body.reference}/verify`).set(person.identity);
    expect(early.status).toBe(200);
    expect(early.body).toMatchObject({ status: 'pending', message: expect.stringMatching(/waiting/) });
    expect(early.body.token).toBeUndefined();
    expect(await h.tierOf(person.userId)).toBe('free');

    const paid = fake.pay(body.reference);
    const verified = await request(app).post(`/api/billing/checkout/${body.reference}/verify`).set(person.identity);
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({
      outcome: 'checkout',
      status: 'completed',
      user: { id: person.userId, subscriptionTier: 'pro' },
      payment: { status: 'completed', completedAt: expect.any(String) },
    });
    expect(await auth.tokens.verify(verified.body.token)).toMatchObject({ sub: person.userId, tier: 'pro' });
    expect(await h.tierOf(person.userId)).toBe('pro');
    const sub = await h.subscriptionOf(person.userId);
    expect(sub).toMatchObject({ processor: 'paystack', status: 'active', renews: true, cancelAtPeriodEnd: false });
    expect(sub!.customerId).toMatch(/^CUS_/);
    expect(sub!.currentPeriodEnd!.getTime()).toBeGreaterThan(clock.now().getTime() + 27 * DAY_MS);
    await eventually(() => h.changesOf(person.userId).length === 1, { what: 'auth.user.plan_changed' });
    expect(h.changesOf(person.userId)).toEqual([{ from: 'free', to: 'pro' }]);

    // The webhooks that follow change nothing more, and tell the subscription's code.
    expect((await deliver(paid.charge)).body).toEqual({ received: true, duplicate: false });
    expect((await deliver(paid.subscriptionCreated!)).status).toBe(200);
    await eventually(async () => (await h.subscriptionOf(person.userId))?.subscriptionToken, {
      what: 'the subscription code and token are stored',
    });
    await eventually(inboxIsEmpty, { what: 'the webhooks are applied' });
    expect(h.changesOf(person.userId)).toHaveLength(1);

    const view = await request(app).get('/api/billing/subscription').set(person.identity);
    expect(view.status).toBe(200);
    expect((view.body as SubscriptionResponse).subscription).toMatchObject({
      processor: 'paystack',
      status: 'active',
      effectiveTier: 'pro',
      currency: 'GHS',
      amount: 350,
      canManage: true,
      canCancel: true,
      canResume: false,
    });
    const portal = await request(app).post('/api/billing/portal').set(person.identity);
    expect(portal.status).toBe(200);
    expect(portal.body).toEqual({
      processor: 'paystack',
      url: expect.stringMatching(/^https:\/\/paystack\.example\/manage\/subscriptions\/SUB_/),
    });
  });

  it('refuses a currency that no processor here sells in, naming the ones it does', async () => {
    const person = await h.signUp(app);
    const res = await request(app)
      .post('/api/billing/checkout')
      .set(person.identity)
      .send({ planId: 'pro', currency: 'USD' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', message: expect.stringContaining('GHS') });
  });
});

describe('what changes nothing', () => {
  it('refuses a webhook whose signature is wrong or missing, and stores nothing', async () => {
    const person = await h.signUp(app);
    const reference = await checkout(person);
    const { charge } = fake.pay(reference);
    const forged = new PaystackFake('sk_test_someone_else').sign('charge.success', JSON.parse(charge.body).data);
    expect((await deliver(charge, forged.signature)).status).toBe(400);
    expect((await deliver(charge, 'nope')).status).toBe(400);
    const tampered = { body: charge.body.replace('"success"', '"success" '), signature: charge.signature };
    expect((await deliver(tampered)).status).toBe(400);
    const unsigned = await request(app)
      .post('/api/billing/webhooks/paystack')
      .set('content-type', 'application/json')
      .send(charge.body);
    expect(unsigned.status).toBe(400);
    expect(unsigned.body).toMatchObject({ code: 'validation_failed', message: expect.stringMatching(/signature/) });
    expect(await inboxEventModel(h.db).countDocuments()).toBe(0);
    expect(await h.tierOf(person.userId)).toBe('free');
    expect((await h.paymentOf(reference))!.status).toBe('pending');
  });

  it('refuses a body over the webhooks’ limit (512 KB) with 413, before reading a signature', async () => {
    const res = await request(app)
      .post('/api/billing/webhooks/paystack')
      .set('content-type', 'application/json')
      .set('x-paystack-signature', '0'.repeat(128))
      .send(Buffer.alloc(BODY_LIMITS.webhooks + 1, 'a'));
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({
      code: 'payload_too_large',
      message: 'The request body is too large: the limit is 512 KB.',
    });
    expect(await inboxEventModel(h.db).countDocuments()).toBe(0);
  });

  it('ignores a signed payment for a reference Kasa never made, and verifies no one else’s reference', async () => {
    const person = await h.signUp(app);
    const made = fake.sign('charge.success', {
      ...JSON.parse(fake.pay((await checkoutFor(await h.signUp(app))).reference).charge.body).data,
      reference: 'KASA-0000000000',
    });
    expect((await deliver(made)).status).toBe(200);
    await eventually(inboxIsEmpty, { what: 'the webhook is handled' });
    expect(await h.paymentOf('KASA-0000000000')).toBeNull();
    const unknown = await request(app).post('/api/billing/checkout/KASA-0000000000/verify').set(person.identity);
    expect(unknown.status).toBe(404);
    expect(await h.tierOf(person.userId)).toBe('free');
  });

  it.each([
    ['another amount', { amount: 100 }],
    ['another currency', { currency: 'NGN' }],
  ])('changes nothing when Paystack reports %s than the checkout asked for', async (_what, paidWith) => {
    const person = await h.signUp(app);
    const reference = await checkout(person);
    const { charge } = fake.pay(reference, paidWith);
    const verified = await request(app).post(`/api/billing/checkout/${reference}/verify`).set(person.identity);
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ status: 'pending' });
    expect(verified.body.token).toBeUndefined();
    expect((await deliver(charge)).status).toBe(200);
    await eventually(inboxIsEmpty, { what: 'the webhook is handled' });
    expect(await h.tierOf(person.userId)).toBe('free');
    expect(await h.subscriptionOf(person.userId)).toBeNull();
    expect((await h.paymentOf(reference))!.status).toBe('pending');
  });

  it('applies a repeated webhook once: the repeat is answered as a duplicate and the period moves on one month', async () => {
    const { person, code } = await subscribed();
    const before = (await h.subscriptionOf(person.userId))!.currentPeriodEnd!;
    const renewal = fake.renew(code);
    expect((await deliver(renewal)).body).toEqual({ received: true, duplicate: false });
    await eventually(async () => (await h.subscriptionOf(person.userId))!.currentPeriodEnd! > before, {
      what: 'the renewal is applied',
    });
    expect((await deliver(renewal)).body).toEqual({ received: true, duplicate: true });
    await eventually(inboxIsEmpty, { what: 'nothing waits' });
    const after = (await h.subscriptionOf(person.userId))!.currentPeriodEnd!;
    expect(after.toISOString()).toBe(fake.subscription(code).next_payment_date);
    expect(after.getTime() - before.getTime()).toBeLessThan(32 * DAY_MS);
    expect(h.changesOf(person.userId)).toEqual([{ from: 'free', to: 'pro' }]);
  });
});

describe('the subscription’s life', () => {
  it('keeps the plan through the grace period after a failed renewal, then moves to Free with the data kept', async () => {
    const { person, code } = await subscribed();
    const key = await request(app).post('/api/developer/keys').set(person.identity).send({ name: 'kept' });
    expect(key.status).toBe(201);

    const failedAt = clock.now();
    expect((await deliver(fake.failRenewal(code, failedAt))).status).toBe(200);
    const pastDue = await eventually(async () => {
      const sub = await h.subscriptionOf(person.userId);
      return sub?.status === 'past_due' ? sub : undefined;
    });
    expect(pastDue.graceUntil!.getTime()).toBe(failedAt.getTime() + GRACE_MS);
    expect(await h.tierOf(person.userId)).toBe('pro');

    // A day before the grace ends nothing moves; after it, the sync moves the account to Free.
    clock.travel(GRACE_MS - DAY_MS);
    await auth.billing.reconcile();
    expect(await h.tierOf(person.userId)).toBe('pro');
    clock.travel(2 * DAY_MS);
    await auth.billing.reconcile();
    expect(await h.tierOf(person.userId)).toBe('free');
    expect(await apiKeyModel(h.db).countDocuments({ userId: person.userId })).toBe(1);
    await eventually(() => h.changesOf(person.userId).length === 2, { what: 'the move to Free is announced' });
    expect(h.changesOf(person.userId)).toEqual([
      { from: 'free', to: 'pro' },
      { from: 'pro', to: 'free' },
    ]);

    // Paystack's next attempt goes through: Pro again.
    expect((await deliver(fake.renew(code))).status).toBe(200);
    await eventually(async () => h.hasTier(person.userId, 'pro'), { what: 'the plan is back' });
    expect(await h.subscriptionOf(person.userId)).toMatchObject({ status: 'active', graceUntil: null });
  });

  it('cancels at the end of the period and resumes, through Paystack’s API', async () => {
    const { person, code } = await subscribed();
    const cancelled = await request(app).post('/api/billing/subscription/cancel').set(person.identity);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.subscription).toMatchObject({ cancelAtPeriodEnd: true, canResume: true, canCancel: false });
    expect(fake.subscription(code).status).toBe('non-renewing');
    expect((await deliver(fake.notRenewing(code))).status).toBe(200);
    expect(await h.tierOf(person.userId)).toBe('pro');
    expect((await request(app).post('/api/billing/subscription/cancel').set(person.identity)).status).toBe(409);

    const resumed = await request(app).post('/api/billing/subscription/resume').set(person.identity);
    expect(resumed.status).toBe(200);
    expect(resumed.body.subscription).toMatchObject({ cancelAtPeriodEnd: false, canCancel: true });
    expect(fake.subscription(code).status).toBe('active');

    expect((await request(app).post('/api/billing/subscription/cancel').set(person.identity)).status).toBe(200);
    // The period runs out: the sync sees the subscription not renewing and past its end.
    clock.travelPast((await h.subscriptionOf(person.userId))!.currentPeriodEnd!);
    await auth.billing.reconcile({ subscriptionsEveryMs: 0 });
    expect(await h.tierOf(person.userId)).toBe('free');
    expect((await deliver(fake.end(code))).status).toBe(200);
    await eventually(async () => (await h.subscriptionOf(person.userId))?.status === 'canceled');
    expect(await h.tierOf(person.userId)).toBe('free');
    expect((await request(app).post('/api/billing/subscription/resume').set(person.identity)).status).toBe(409);
  });

  it('applies a subscription event that arrives before its payment once the payment is known', async () => {
    const person = await h.signUp(app);
    const reference = await checkout(person);
    const paid = fake.pay(reference);
    expect((await deliver(paid.subscriptionCreated!)).status).toBe(200);
    // Nobody's yet: it waits in the inbox.
    await eventually(async () => (await inboxEventModel(h.db).findOne().lean())?.lastError, {
      what: 'the event waits',
    });
    expect(await h.tierOf(person.userId)).toBe('free');
    expect((await deliver(paid.charge)).status).toBe(200);
    await eventually(async () => h.hasTier(person.userId, 'pro'));
    clock.travel(3600_000);
    await auth.billing.processWebhooks();
    expect(await h.subscriptionOf(person.userId)).toMatchObject({
      subscriptionId: paid.subscription!.subscription_code,
      subscriptionToken: paid.subscription!.email_token,
    });
    expect(await inboxIsEmpty()).toBe(true);
  });
});

describe('the reconciliation sync', () => {
  it('recovers what lost webhooks would have said: the payment, a renewal, then a failed renewal', async () => {
    const person = await h.signUp(app);
    const reference = await checkout(person);
    const paid = fake.pay(reference);
    // No webhook arrives and the person never comes back to the success page.
    await auth.billing.reconcile({ checkoutsAfterMs: 0 });
    expect(await h.tierOf(person.userId)).toBe('pro');
    const code = paid.subscription!.subscription_code;
    expect(await h.subscriptionOf(person.userId)).toMatchObject({ subscriptionId: code, status: 'active' });

    clock.travelPast((await h.subscriptionOf(person.userId))!.currentPeriodEnd!);
    fake.renew(code);
    await auth.billing.reconcile({ subscriptionsEveryMs: 0 });
    expect((await h.subscriptionOf(person.userId))!.currentPeriodEnd!.toISOString()).toBe(
      fake.subscription(code).next_payment_date,
    );
    expect(await h.tierOf(person.userId)).toBe('pro');

    clock.travelPast((await h.subscriptionOf(person.userId))!.currentPeriodEnd!);
    fake.failRenewal(code);
    await auth.billing.reconcile({ subscriptionsEveryMs: 0 });
    expect((await h.subscriptionOf(person.userId))!.status).toBe('past_due');
    expect(await h.tierOf(person.userId)).toBe('pro');
    clock.travel(GRACE_MS + DAY_MS);
    await auth.billing.reconcile({ subscriptionsEveryMs: 0 });
    expect(await h.tierOf(person.userId)).toBe('free');
  });
});

describe('a month without a plan (cards and mobile money)', () => {
  it('buys one month that does not renew, lets another follow it, and ends with its period', async () => {
    const monthly = new PaystackProvider({ secretKey: SECRET, baseUrl: fake.url, currency: 'GHS' });
    const { app: monthApp, auth: monthAuth } = h.app(monthly, clock.now);
    const person = await h.signUp(monthApp);
    const first = await checkout(person, monthApp);
    expect(fake.transactions.get(first)).toMatchObject({ amount: 35_000, currency: 'GHS', plan: null });
    fake.pay(first, { channel: 'mobile_money' });
    const verified = await request(monthApp).post(`/api/billing/checkout/${first}/verify`).set(person.identity);
    expect(verified.body).toMatchObject({ status: 'completed', user: { subscriptionTier: 'pro' } });
    const view = await request(monthApp).get('/api/billing/subscription').set(person.identity);
    expect(view.body.subscription).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: true,
      canCancel: false,
      canResume: false,
      canManage: false,
    });
    expect((await request(monthApp).post('/api/billing/portal').set(person.identity)).status).toBe(409);
    const firstEnd = (await h.subscriptionOf(person.userId))!.currentPeriodEnd!;

    // Another month, bought before the first ends, starts when it ends.
    const second = await checkout({ ...person, identity: { ...person.identity, 'x-kasa-tier': 'pro' } }, monthApp);
    fake.pay(second, { channel: 'mobile_money' });
    await request(monthApp).post(`/api/billing/checkout/${second}/verify`).set(person.identity).expect(200);
    const secondEnd = (await h.subscriptionOf(person.userId))!.currentPeriodEnd!;
    expect(secondEnd.getTime() - firstEnd.getTime()).toBeGreaterThan(27 * DAY_MS);

    clock.travelPast(firstEnd);
    await monthAuth.billing.reconcile();
    expect(await h.tierOf(person.userId)).toBe('pro');
    clock.travelPast(secondEnd);
    await monthAuth.billing.reconcile();
    expect(await h.tierOf(person.userId)).toBe('free');
  });
});

/** A checkout of someone's, for a webhook to be made from. */
async function checkoutFor(person: Person): Promise<{ reference: string }> {
  return { reference: await checkout(person) };
}

describe('extra-calls packs through Paystack', () => {
  it('initializes a one-off transaction at the table’s price, and adds the calls only once Paystack confirms', async () => {
    const { person } = await subscribed();
    const res = await request(app)
      .post('/api/billing/add-ons/checkout')
      .set(person.identity)
      .send({ addOnId: 'extra-calls' });
    expect(res.status).toBe(201);
    const body = res.body as Extract<CheckoutResponse, { outcome: 'checkout' }>;
    expect(body).toMatchObject({
      status: 'pending',
      payment: { addOnId: 'extra-calls', amount: 60, currency: 'GHS', provider: 'paystack', status: 'pending' },
    });
    expect(body.redirectUrl).toMatch(/^https:\/\/checkout\.paystack\.example\//);
    // Paid once: no plan for Paystack to renew, any channel.
    const tx = fake.transactions.get(body.reference)!;
    expect(tx).toMatchObject({ amount: 6_000, currency: 'GHS' });
    expect(tx.plan).toBeFalsy();
    expect(JSON.parse(tx.metadata!)).toMatchObject({ reference: body.reference, addOnId: 'extra-calls' });

    // A claim is not a payment: verify before paying changes nothing.
    const early = await request(app).post(`/api/billing/checkout/${body.reference}/verify`).set(person.identity);
    expect(early.body).toMatchObject({ status: 'pending' });
    expect(h.callsAddedFor(person.userId)).toEqual([]);
    expect((await request(app).get(`/api/billing/receipts/${body.reference}`).set(person.identity)).status).toBe(404);

    const paid = fake.pay(body.reference, { channel: 'mobile_money' });
    expect((await deliver(paid.charge)).status).toBe(200);
    await eventually(async () => h.callsAddedFor(person.userId).length === 1, { what: 'the calls are announced' });
    const payment = (await h.paymentOf(body.reference))!;
    expect(payment.status).toBe('completed');
    expect(h.callsAddedFor(person.userId)[0]).toMatchObject({
      reference: body.reference,
      calls: 10_000,
      month: payment.quotaMonth,
      monthCalls: 10_000,
    });
    // The same webhook again, and the success page's verify: still one announcement, the plan untouched.
    await deliver(paid.charge).expect(200);
    const verified = await request(app).post(`/api/billing/checkout/${body.reference}/verify`).set(person.identity);
    expect(verified.body).toMatchObject({ status: 'completed', message: expect.stringMatching(/extra API calls/) });
    expect(verified.body.token).toBeUndefined();
    await eventually(inboxIsEmpty);
    expect(h.callsAddedFor(person.userId)).toHaveLength(1);
    expect(await h.tierOf(person.userId)).toBe('pro');
    expect((await h.subscriptionOf(person.userId))!.reference).not.toBe(body.reference);
  });

  it('adds nothing when the amount paid is not the pack’s price', async () => {
    const { person } = await subscribed();
    const res = await request(app)
      .post('/api/billing/add-ons/checkout')
      .set(person.identity)
      .send({ addOnId: 'extra-calls' });
    const reference = (res.body as { reference: string }).reference;
    await deliver(fake.pay(reference, { amount: 100 }).charge).expect(200);
    await eventually(inboxIsEmpty);
    expect((await h.paymentOf(reference))!.status).toBe('pending');
    expect(h.callsAddedFor(person.userId)).toEqual([]);
  });
});
