import type { CheckoutResponse, SubscriptionResponse } from '@kasa/contracts';
import { eventually } from '@kasa/test-kit';
import type { Express } from 'express';
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import request from 'supertest';
import type { AuthComponents } from '../src/authComponents';
import { StripeProvider } from '../src/billing/stripeProvider';
import { inboxEventModel } from '../src/billing/webhookInbox';
import { BillingHarness, DAY_MS, GRACE_MS, TravelClock, type Person } from './support/billingHarness';
import { StripeMock } from './support/stripeMock';

// Stripe end to end with the official SDK against stripe-mock (Stripe's own mock of its API, which checks every
// request against Stripe's OpenAPI document): Checkout Sessions, the Customer Portal, cancel and resume, each with an
// idempotency key; and the subscription's life told by webhook events signed as Stripe signs them
// (stripe.webhooks.generateTestHeaderString), since stripe-mock keeps no state. Where the sync asks Stripe, the test
// sets what Stripe answers for that object (StripeMock.answer).

const WEBHOOK_SECRET = 'whsec_test_kasa_webhooks';
const PRICE_PRO = 'price_kasa_pro_monthly';

let h: BillingHarness;
let mock: StripeMock;
let provider: StripeProvider;
let app: Express;
let auth: AuthComponents;
const clock = new TravelClock();
/** Only for signing test events. */
const signer = new Stripe('sk_test_kasa_signer');

beforeAll(async () => {
  mock = await StripeMock.start();
  h = await new BillingHarness('stripe').start();
  provider = new StripeProvider({
    secretKey: 'sk_test_kasa',
    webhookSecret: WEBHOOK_SECRET,
    pricePro: PRICE_PRO,
    apiBase: mock.url,
    toleranceSeconds: 300,
  });
  ({ app, auth } = h.app(provider, clock.now));
}, 60_000);

afterAll(async () => {
  await h?.stop();
  await mock?.stop();
});

const unique = () => randomUUID().replace(/-/g, '').slice(0, 14);
const unix = (date: Date) => Math.floor(date.getTime() / 1000);

interface Signed {
  id: string;
  payload: string;
  header: string;
}

/** An event as Stripe sends it, signed with the endpoint's secret (or another), at a signing time (default now). */
function signed(
  type: string,
  object: Record<string, unknown>,
  options: { created?: Date; secret?: string; signedAt?: Date; id?: string } = {},
): Signed {
  const event = {
    id: options.id ?? `evt_${unique()}`,
    object: 'event',
    api_version: '2026-08-26.dahlia',
    created: unix(options.created ?? clock.now()),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  };
  const payload = JSON.stringify(event);
  const header = signer.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? WEBHOOK_SECRET,
    ...(options.signedAt ? { timestamp: unix(options.signedAt) } : {}),
  });
  return { id: event.id, payload, header };
}

function deliver(hook: Signed, header = hook.header) {
  return request(app)
    .post('/api/billing/webhooks/stripe')
    .set('content-type', 'application/json')
    .set('stripe-signature', header)
    .send(hook.payload);
}

const inboxIsEmpty = async () => (await inboxEventModel(h.db).countDocuments()) === 0;

async function checkout(person: Person): Promise<{ reference: string; sessionId: string; body: CheckoutResponse }> {
  const res = await request(app).post('/api/billing/checkout').set(person.identity).send({ planId: 'pro' });
  expect(res.status).toBe(201);
  const reference = res.body.reference as string;
  const sessionId = (await h.paymentOf(reference))!.providerReference!;
  return { reference, sessionId, body: res.body as CheckoutResponse };
}

/** Stripe's Checkout Session once paid, as its events carry it. */
function paidSession(
  sessionId: string,
  reference: string,
  ids: { customer: string; subscription: string },
  fields = {},
) {
  return mock.object(`/v1/checkout/sessions/${sessionId}`, {
    mode: 'subscription',
    status: 'complete',
    payment_status: 'paid',
    client_reference_id: reference,
    amount_total: 2900,
    currency: 'usd',
    customer: ids.customer,
    subscription: ids.subscription,
    metadata: { reference },
    ...fields,
  });
}

interface SubscriptionState {
  status: string;
  periodEnd: Date;
  cancelAtPeriodEnd?: boolean;
  endedAt?: Date | null;
}

/** A Stripe subscription in a state, as events carry it and as the sync is answered it. */
async function subscriptionObject(id: string, customer: string, reference: string, state: SubscriptionState) {
  const fixture = await mock.object(`/v1/subscriptions/${id}`);
  const items = fixture.items as { data: Array<Record<string, unknown>> };
  const fields = {
    id,
    status: state.status,
    customer,
    cancel_at_period_end: state.cancelAtPeriodEnd ?? false,
    ended_at: state.endedAt ? unix(state.endedAt) : null,
    metadata: { reference },
    items: { ...items, data: [{ ...items.data[0], current_period_end: unix(state.periodEnd) }] },
  };
  // What Stripe answers from now on when asked about it.
  mock.answer(`/v1/subscriptions/${id}`, fields);
  return { ...fixture, ...fields };
}

/** An invoice of the subscription (a renewal), paid or not, for the period ending at `periodEnd`. */
function invoiceObject(subscription: string, customer: string, reference: string, periodEnd: Date) {
  return mock.object(`/v1/invoices/in_${unique()}`, {
    customer,
    billing_reason: 'subscription_cycle',
    parent: {
      type: 'subscription_details',
      quote_details: null,
      subscription_details: { subscription, metadata: { reference } },
    },
    lines: {
      object: 'list',
      has_more: false,
      url: '/v1/invoices/lines',
      data: [{ period: { start: unix(clock.now()), end: unix(periodEnd) } }],
    },
  });
}

interface Subscribed {
  person: Person;
  reference: string;
  customer: string;
  subscription: string;
  periodEnd: Date;
}

/** A person on Pro through Stripe: the checkout, then the events Stripe sends once they paid. */
async function subscribed(): Promise<Subscribed> {
  const person = await h.signUp(app);
  const { reference, sessionId } = await checkout(person);
  const ids = { customer: `cus_${unique()}`, subscription: `sub_${unique()}` };
  const periodEnd = new Date(clock.now().getTime() + 30 * DAY_MS);
  expect(
    (await deliver(signed('checkout.session.completed', await paidSession(sessionId, reference, ids)))).status,
  ).toBe(200);
  await eventually(async () => h.hasTier(person.userId, 'pro'), { what: 'the checkout is applied' });
  const created = await subscriptionObject(ids.subscription, ids.customer, reference, { status: 'active', periodEnd });
  expect((await deliver(signed('customer.subscription.created', created))).status).toBe(200);
  await eventually(
    async () => (await h.subscriptionOf(person.userId))?.currentPeriodEnd?.getTime() === unix(periodEnd) * 1000,
    {
      what: 'the period is known',
    },
  );
  return { person, reference, ...ids, periodEnd: new Date(unix(periodEnd) * 1000) };
}

describe('checkout through Stripe', () => {
  it('opens a Checkout Session for Pro’s Price with the payment reference as idempotency key, and the signed event changes the plan', async () => {
    const person = await h.signUp(app);
    const { reference, sessionId, body } = await checkout(person);
    expect(body).toMatchObject({
      status: 'pending',
      payment: { amount: 29, currency: 'USD', provider: 'stripe' },
      redirectUrl: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\//),
    });
    expect(sessionId).toMatch(/^cs_/);
    const created = mock
      .mutations()
      .find((call) => call.path === '/v1/checkout/sessions' && call.params.client_reference_id === reference);
    expect(created).toMatchObject({
      idempotencyKey: reference,
      params: {
        mode: 'subscription',
        'line_items[0][price]': PRICE_PRO,
        'line_items[0][quantity]': '1',
        customer_email: person.email,
        success_url: `http://localhost:8080/billing/success?reference=${reference}`,
        cancel_url: 'http://localhost:8080/pricing',
        'subscription_data[metadata][reference]': reference,
        'subscription_data[metadata][userId]': person.userId,
        expires_at: expect.stringMatching(/^\d+$/),
      },
    });
    expect(await h.tierOf(person.userId)).toBe('free');

    const ids = { customer: `cus_${unique()}`, subscription: `sub_${unique()}` };
    const completed = signed('checkout.session.completed', await paidSession(sessionId, reference, ids));
    expect((await deliver(completed)).body).toEqual({ received: true, duplicate: false });
    await eventually(async () => h.hasTier(person.userId, 'pro'), { what: 'the plan changes' });
    expect(await h.subscriptionOf(person.userId)).toMatchObject({
      processor: 'stripe',
      status: 'active',
      customerId: ids.customer,
      subscriptionId: ids.subscription,
      renews: true,
    });
    await eventually(() => h.changesOf(person.userId).length === 1, { what: 'auth.user.plan_changed' });

    const verified = await request(app).post(`/api/billing/checkout/${reference}/verify`).set(person.identity);
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ status: 'completed', user: { subscriptionTier: 'pro' } });
    expect(await auth.tokens.verify(verified.body.token)).toMatchObject({ tier: 'pro' });

    const view = await request(app).get('/api/billing/subscription').set(person.identity);
    expect((view.body as SubscriptionResponse).subscription).toMatchObject({
      processor: 'stripe',
      status: 'active',
      canManage: true,
      canCancel: true,
    });
    expect((view.body as SubscriptionResponse).testMode).toBe(false);
    const portal = await request(app).post('/api/billing/portal').set(person.identity);
    expect(portal.status).toBe(200);
    expect(portal.body).toEqual({ processor: 'stripe', url: expect.stringMatching(/^https:\/\//) });
    const portalCall = mock
      .mutations()
      .find((call) => call.path === '/v1/billing_portal/sessions' && call.params.customer === ids.customer);
    expect(portalCall).toMatchObject({ params: { return_url: 'http://localhost:8080/settings' } });
    expect(portalCall!.idempotencyKey).toMatch(new RegExp(`^${reference}:portal:`));
  });

  it('completes the checkout when the success page asks and Stripe says it is paid, before any event arrives', async () => {
    const answerPaid = (sessionId: string, reference: string, amount: number) =>
      mock.answer(`/v1/checkout/sessions/${sessionId}`, {
        mode: 'subscription',
        status: 'complete',
        payment_status: 'paid',
        client_reference_id: reference,
        amount_total: amount,
        currency: 'usd',
        customer: `cus_${unique()}`,
        subscription: `sub_${unique()}`,
      });
    const person = await h.signUp(app);
    const { reference, sessionId } = await checkout(person);
    // stripe-mock's own answer: the session is still open.
    const early = await request(app).post(`/api/billing/checkout/${reference}/verify`).set(person.identity);
    expect(early.body).toMatchObject({ status: 'pending' });
    expect(early.body.token).toBeUndefined();

    answerPaid(sessionId, reference, 2900);
    const verified = await request(app).post(`/api/billing/checkout/${reference}/verify`).set(person.identity);
    expect(verified.body).toMatchObject({ status: 'completed', user: { subscriptionTier: 'pro' } });
    expect(await auth.tokens.verify(verified.body.token)).toMatchObject({ sub: person.userId, tier: 'pro' });

    // Stripe reporting another amount than was asked changes nothing.
    const other = await h.signUp(app);
    const second = await checkout(other);
    answerPaid(second.sessionId, second.reference, 100);
    const refused = await request(app).post(`/api/billing/checkout/${second.reference}/verify`).set(other.identity);
    expect(refused.body).toMatchObject({ status: 'pending' });
    expect(await h.tierOf(other.userId)).toBe('free');
  });

  it('puts an idempotency key on every call that changes something at Stripe', () => {
    const mutations = mock.mutations();
    expect(mutations.length).toBeGreaterThan(0);
    for (const call of mutations) expect(call.idempotencyKey).toMatch(/^KASA-[0-9A-Z]{10}(:|$)/);
  });
});

describe('what changes nothing', () => {
  it('refuses a forged, unsigned or stale event, and stores nothing', async () => {
    const person = await h.signUp(app);
    const { reference, sessionId } = await checkout(person);
    const session = await paidSession(sessionId, reference, {
      customer: `cus_${unique()}`,
      subscription: `sub_${unique()}`,
    });
    const forged = signed('checkout.session.completed', session, { secret: 'whsec_someone_else' });
    expect((await deliver(forged)).status).toBe(400);
    const unsigned = await request(app)
      .post('/api/billing/webhooks/stripe')
      .set('content-type', 'application/json')
      .send(forged.payload);
    expect(unsigned.status).toBe(400);
    // A genuine event replayed past the tolerance (5 minutes) is refused too.
    const stale = signed('checkout.session.completed', session, { signedAt: new Date(Date.now() - 10 * 60_000) });
    expect((await deliver(stale)).status).toBe(400);
    const tampered = signed('checkout.session.completed', session);
    expect((await deliver({ ...tampered, payload: tampered.payload.replace('"paid"', '"paid" ') })).status).toBe(400);
    expect(await inboxEventModel(h.db).countDocuments()).toBe(0);
    expect(await h.tierOf(person.userId)).toBe('free');
  });

  it('applies a repeated event once, and ignores an unknown reference and another amount or currency', async () => {
    const person = await h.signUp(app);
    const { reference, sessionId } = await checkout(person);
    const ids = { customer: `cus_${unique()}`, subscription: `sub_${unique()}` };
    for (const fields of [
      { client_reference_id: 'KASA-0000000000', metadata: { reference: 'KASA-0000000000' } },
      { amount_total: 100 },
      { currency: 'eur' },
    ]) {
      expect(
        (await deliver(signed('checkout.session.completed', await paidSession(sessionId, reference, ids, fields))))
          .status,
      ).toBe(200);
    }
    await eventually(inboxIsEmpty, { what: 'the events are handled' });
    expect(await h.tierOf(person.userId)).toBe('free');
    expect(await h.subscriptionOf(person.userId)).toBeNull();
    expect(await h.paymentOf('KASA-0000000000')).toBeNull();

    const completed = signed('checkout.session.completed', await paidSession(sessionId, reference, ids));
    expect((await deliver(completed)).body).toEqual({ received: true, duplicate: false });
    await eventually(async () => h.hasTier(person.userId, 'pro'));
    expect((await deliver(completed)).body).toEqual({ received: true, duplicate: true });
    // Stripe's own retry signs the same event again with a newer timestamp: still the same event.
    const retried = signer.webhooks.generateTestHeaderString({ payload: completed.payload, secret: WEBHOOK_SECRET });
    expect((await deliver(completed, retried)).body).toEqual({ received: true, duplicate: true });
    await eventually(inboxIsEmpty);
    await eventually(() => h.changesOf(person.userId).length === 1);
    expect(h.changesOf(person.userId)).toEqual([{ from: 'free', to: 'pro' }]);
  });
});

describe('the subscription’s life', () => {
  it('renews, keeps the plan through the grace period after a failed renewal, then moves to Free; an older event never overrides a newer one', async () => {
    const s = await subscribed();
    const renewedEnd = new Date(s.periodEnd.getTime() + 30 * DAY_MS);
    const paid = signed('invoice.paid', await invoiceObject(s.subscription, s.customer, s.reference, renewedEnd));
    expect((await deliver(paid)).status).toBe(200);
    await eventually(
      async () => (await h.subscriptionOf(s.person.userId))!.currentPeriodEnd!.getTime() === unix(renewedEnd) * 1000,
      {
        what: 'the period moves on',
      },
    );

    clock.travelPast(renewedEnd);
    const failedAt = clock.now();
    await subscriptionObject(s.subscription, s.customer, s.reference, { status: 'past_due', periodEnd: renewedEnd });
    const failed = signed(
      'invoice.payment_failed',
      await invoiceObject(s.subscription, s.customer, s.reference, renewedEnd),
      {
        created: failedAt,
      },
    );
    expect((await deliver(failed)).status).toBe(200);
    const pastDue = await eventually(async () => {
      const sub = await h.subscriptionOf(s.person.userId);
      return sub?.status === 'past_due' ? sub : undefined;
    });
    expect(pastDue.graceUntil!.getTime()).toBe(unix(failedAt) * 1000 + GRACE_MS);
    // An invoice.paid from before the failure, delivered late, does not undo it.
    const late = signed('invoice.paid', await invoiceObject(s.subscription, s.customer, s.reference, renewedEnd), {
      created: new Date(failedAt.getTime() - 3600_000),
    });
    expect((await deliver(late)).status).toBe(200);
    await eventually(inboxIsEmpty);
    expect((await h.subscriptionOf(s.person.userId))!.status).toBe('past_due');
    expect(await h.tierOf(s.person.userId)).toBe('pro');

    clock.travel(GRACE_MS - DAY_MS);
    await auth.billing.reconcile();
    expect(await h.tierOf(s.person.userId)).toBe('pro');
    clock.travel(2 * DAY_MS);
    await auth.billing.reconcile();
    expect(await h.tierOf(s.person.userId)).toBe('free');
    await eventually(() => h.changesOf(s.person.userId).length === 2);
    expect(h.changesOf(s.person.userId)).toEqual([
      { from: 'free', to: 'pro' },
      { from: 'pro', to: 'free' },
    ]);

    // Stripe's next attempt goes through: Pro again.
    const nextEnd = new Date(clock.now().getTime() + 30 * DAY_MS);
    await subscriptionObject(s.subscription, s.customer, s.reference, { status: 'active', periodEnd: nextEnd });
    expect(
      (await deliver(signed('invoice.paid', await invoiceObject(s.subscription, s.customer, s.reference, nextEnd))))
        .status,
    ).toBe(200);
    await eventually(async () => h.hasTier(s.person.userId, 'pro'), { what: 'the plan is back' });
  });

  it('cancels at the end of the period and resumes at Stripe, each change with its own idempotency key', async () => {
    const s = await subscribed();
    const cancelled = await request(app).post('/api/billing/subscription/cancel').set(s.person.identity);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.subscription).toMatchObject({ cancelAtPeriodEnd: true, canResume: true });
    const resumed = await request(app).post('/api/billing/subscription/resume').set(s.person.identity);
    expect(resumed.status).toBe(200);
    expect(resumed.body.subscription).toMatchObject({ cancelAtPeriodEnd: false, canCancel: true });
    expect((await request(app).post('/api/billing/subscription/cancel').set(s.person.identity)).status).toBe(200);
    const changes = mock.mutations().filter((call) => call.path === `/v1/subscriptions/${s.subscription}`);
    expect(changes.map((call) => call.params.cancel_at_period_end)).toEqual(['true', 'false', 'true']);
    expect(new Set(changes.map((call) => call.idempotencyKey)).size).toBe(3);
    for (const call of changes) expect(call.idempotencyKey).toMatch(new RegExp(`^${s.reference}:(cancel|resume):`));

    // Stripe's own event of the cancellation, then the end of the period: the subscription is deleted.
    const updated = await subscriptionObject(s.subscription, s.customer, s.reference, {
      status: 'active',
      periodEnd: s.periodEnd,
      cancelAtPeriodEnd: true,
    });
    expect((await deliver(signed('customer.subscription.updated', updated))).status).toBe(200);
    await eventually(inboxIsEmpty);
    expect(await h.tierOf(s.person.userId)).toBe('pro');
    clock.travelPast(s.periodEnd);
    const deleted = await subscriptionObject(s.subscription, s.customer, s.reference, {
      status: 'canceled',
      periodEnd: s.periodEnd,
      cancelAtPeriodEnd: true,
      endedAt: s.periodEnd,
    });
    expect((await deliver(signed('customer.subscription.deleted', deleted))).status).toBe(200);
    const ended = await eventually(async () => {
      const sub = await h.subscriptionOf(s.person.userId);
      return sub?.status === 'canceled' ? sub : undefined;
    });
    expect(ended.endedAt).toEqual(s.periodEnd);
    await eventually(async () => h.hasTier(s.person.userId, 'free'), {
      what: 'Free at the end of the period',
    });
    expect((await request(app).post('/api/billing/subscription/resume').set(s.person.identity)).status).toBe(409);
  });
});

describe('the reconciliation sync', () => {
  it('recovers a lost checkout event and a lost cancellation by asking Stripe', async () => {
    const person = await h.signUp(app);
    const { reference, sessionId } = await checkout(person);
    const ids = { customer: `cus_${unique()}`, subscription: `sub_${unique()}` };
    const periodEnd = new Date(clock.now().getTime() + 30 * DAY_MS);
    // Stripe has the payment; its events never arrive.
    mock.answer(`/v1/checkout/sessions/${sessionId}`, {
      mode: 'subscription',
      status: 'complete',
      payment_status: 'paid',
      client_reference_id: reference,
      amount_total: 2900,
      currency: 'usd',
      customer: ids.customer,
      subscription: ids.subscription,
    });
    await subscriptionObject(ids.subscription, ids.customer, reference, { status: 'active', periodEnd });
    await auth.billing.reconcile({ checkoutsAfterMs: 0 });
    expect(await h.tierOf(person.userId)).toBe('pro');
    expect(await h.subscriptionOf(person.userId)).toMatchObject({
      subscriptionId: ids.subscription,
      currentPeriodEnd: new Date(unix(periodEnd) * 1000),
    });

    // Cancelled at Stripe (by support, say), and that event is lost too.
    await subscriptionObject(ids.subscription, ids.customer, reference, {
      status: 'canceled',
      periodEnd,
      endedAt: clock.now(),
    });
    clock.travel(2 * 3600_000);
    await auth.billing.reconcile();
    expect(await h.tierOf(person.userId)).toBe('free');
    expect((await h.subscriptionOf(person.userId))!.status).toBe('canceled');
  });
});

describe('extra-calls packs through Stripe', () => {
  it('opens a one-off Checkout Session at the table’s price, and the signed payment adds this month’s calls', async () => {
    const { person } = await subscribed();
    const res = await request(app)
      .post('/api/billing/add-ons/checkout')
      .set(person.identity)
      .send({ addOnId: 'extra-calls' });
    expect(res.status).toBe(201);
    const body = res.body as Extract<CheckoutResponse, { outcome: 'checkout' }>;
    expect(body).toMatchObject({
      status: 'pending',
      payment: { addOnId: 'extra-calls', amount: 5, currency: 'USD', provider: 'stripe', status: 'pending' },
    });
    const created = mock.mutations().find((call) => call.idempotencyKey === body.reference)!;
    expect(created.path).toBe('/v1/checkout/sessions');
    expect(created.params).toMatchObject({
      mode: 'payment',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '500',
      'line_items[0][quantity]': '1',
      client_reference_id: body.reference,
      'metadata[addOnId]': 'extra-calls',
    });
    expect(created.params['line_items[0][price]']).toBeUndefined();

    // Back from Stripe before it says paid: nothing added.
    const sessionId = (await h.paymentOf(body.reference))!.providerReference!;
    mock.answer(`/v1/checkout/sessions/${sessionId}`, { mode: 'payment', status: 'open', payment_status: 'unpaid' });
    const early = await request(app).post(`/api/billing/checkout/${body.reference}/verify`).set(person.identity);
    expect(early.body).toMatchObject({ status: 'pending' });
    expect(h.callsAddedFor(person.userId)).toEqual([]);

    const session = await mock.object(`/v1/checkout/sessions/${sessionId}`, {
      mode: 'payment',
      status: 'complete',
      payment_status: 'paid',
      client_reference_id: body.reference,
      amount_total: 500,
      currency: 'usd',
      customer: null,
      subscription: null,
      metadata: { reference: body.reference },
    });
    expect((await deliver(signed('checkout.session.completed', session))).status).toBe(200);
    await eventually(async () => h.callsAddedFor(person.userId).length === 1, { what: 'the calls are announced' });
    const payment = (await h.paymentOf(body.reference))!;
    expect(payment.status).toBe('completed');
    expect(h.callsAddedFor(person.userId)[0]).toMatchObject({
      reference: body.reference,
      addOnId: 'extra-calls',
      calls: 10_000,
      month: payment.quotaMonth,
    });
    // The plan and its subscription are untouched.
    expect(await h.tierOf(person.userId)).toBe('pro');
    expect((await h.subscriptionOf(person.userId))!.reference).not.toBe(body.reference);
    const receipt = await request(app).get(`/api/billing/receipts/${body.reference}`).set(person.identity);
    expect(receipt.status).toBe(200);
    expect(receipt.text).toContain(sessionId);
    expect(receipt.text).toContain('USD 5.00');
  });
});
