import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { WebhookSignatureError } from './billingFacts';
import { PaystackProvider } from './paystackProvider';
import { StripeProvider } from './stripeProvider';

// The two processors' webhook signatures and what their events mean to Kasa, without a network.

describe('Paystack’s x-paystack-signature', () => {
  const secretKey = 'sk_test_paystack_unit';
  const paystack = new PaystackProvider({
    secretKey,
    baseUrl: 'http://127.0.0.1:9',
    currency: 'GHS',
    planPro: 'PLN_pro',
  });
  const body = Buffer.from(JSON.stringify({ event: 'charge.success', data: { reference: 'KASA-AAAAAAAAAA' } }));
  const sign = (bytes: Buffer, key = secretKey) => createHmac('sha512', key).update(bytes).digest('hex');

  it('is the HMAC-SHA512 of the raw body under the secret key; the event id is the body’s hash', () => {
    const first = paystack.verifyWebhook(body, { 'x-paystack-signature': sign(body) });
    expect(first).toEqual({ id: expect.stringMatching(/^paystack:[0-9a-f]{64}$/), type: 'charge.success' });
    expect(paystack.verifyWebhook(body, { 'x-paystack-signature': sign(body).toUpperCase() }).id).toBe(first.id);
  });

  it.each([
    ['missing', {}],
    ['made with another key', { 'x-paystack-signature': sign(body, 'sk_test_other') }],
    ['of another body', { 'x-paystack-signature': sign(Buffer.from(`${body.toString()} `)) }],
    ['not hex', { 'x-paystack-signature': 'z'.repeat(128) }],
    ['short', { 'x-paystack-signature': sign(body).slice(0, 64) }],
  ])('is refused when %s', (_what, headers) => {
    expect(() => paystack.verifyWebhook(body, headers)).toThrow(WebhookSignatureError);
  });

  it('reads a payment of Kasa’s, a renewal, a failure, a cancellation; and leaves charges of others alone', () => {
    const charge = (reference: string, plan: unknown) =>
      JSON.stringify({
        event: 'charge.success',
        data: {
          id: 1,
          status: 'success',
          reference,
          amount: 35_000,
          currency: 'GHS',
          paid_at: '2026-03-01T10:00:00.000Z',
          customer: { customer_code: 'CUS_1', email: 'ama@example.com' },
          plan,
        },
      });
    const received = new Date('2026-03-01T10:00:05.000Z');
    expect(paystack.factsOfWebhook(charge('KASA-AAAAAAAAAA', { plan_code: 'PLN_pro' }), received)).toEqual([
      expect.objectContaining({
        kind: 'payment_succeeded',
        paid: { amountMinor: 35_000, currency: 'GHS' },
        customerId: 'CUS_1',
        renews: true,
        at: new Date('2026-03-01T10:00:00.000Z'),
        periodEnd: new Date('2026-04-01T10:00:00.000Z'),
      }),
    ]);
    expect(paystack.factsOfWebhook(charge('KASA-AAAAAAAAAA', {}), received)[0]).toMatchObject({ renews: false });
    expect(paystack.factsOfWebhook(charge('T_renewal_of_paystack', { plan_code: 'PLN_pro' }), received)).toEqual([]);

    const invoice = (event: string, paid: boolean) =>
      JSON.stringify({
        event,
        data: {
          paid,
          status: paid ? 'success' : 'failed',
          paid_at: paid ? '2026-04-01T10:00:00.000Z' : null,
          subscription: {
            subscription_code: 'SUB_1',
            email_token: 'tok',
            next_payment_date: '2026-05-01T10:00:00.000Z',
          },
          customer: { customer_code: 'CUS_1' },
        },
      });
    expect(paystack.factsOfWebhook(invoice('invoice.update', true), received)).toEqual([
      expect.objectContaining({
        status: 'active',
        periodEnd: new Date('2026-05-01T10:00:00.000Z'),
        subscriptionId: 'SUB_1',
      }),
    ]);
    expect(paystack.factsOfWebhook(invoice('invoice.payment_failed', false), received)).toEqual([
      expect.objectContaining({ status: 'past_due', at: received }),
    ]);
    const subscription = (event: string, status: string) =>
      JSON.stringify({
        event,
        data: { subscription_code: 'SUB_1', email_token: 'tok', status, next_payment_date: null },
      });
    expect(paystack.factsOfWebhook(subscription('subscription.not_renew', 'non-renewing'), received)[0]).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: true,
    });
    expect(paystack.factsOfWebhook(subscription('subscription.disable', 'complete'), received)[0]).toMatchObject({
      status: 'canceled',
    });
  });
});

describe('Stripe’s Stripe-Signature', () => {
  const webhookSecret = 'whsec_unit';
  const stripe = new StripeProvider({
    secretKey: 'sk_test_unit',
    webhookSecret,
    pricePro: 'price_pro',
    apiBase: 'http://127.0.0.1:9',
    toleranceSeconds: 300,
  });
  const signer = new Stripe('sk_test_signer');
  const payload = JSON.stringify({
    id: 'evt_1',
    object: 'event',
    type: 'invoice.paid',
    created: 1,
    data: { object: {} },
  });

  it('is checked by the SDK over the raw body, within the tolerance', () => {
    const header = signer.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
    expect(stripe.verifyWebhook(Buffer.from(payload), { 'stripe-signature': header })).toEqual({
      id: 'stripe:evt_1',
      type: 'invoice.paid',
    });
    const stale = signer.webhooks.generateTestHeaderString({
      payload,
      secret: webhookSecret,
      timestamp: Math.floor(Date.now() / 1000) - 301,
    });
    expect(() => stripe.verifyWebhook(Buffer.from(payload), { 'stripe-signature': stale })).toThrow(
      WebhookSignatureError,
    );
    const forged = signer.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other' });
    expect(() => stripe.verifyWebhook(Buffer.from(payload), { 'stripe-signature': forged })).toThrow(
      WebhookSignatureError,
    );
    expect(() => stripe.verifyWebhook(Buffer.from(payload), {})).toThrow(WebhookSignatureError);
  });

  it('reads the subscription’s status, period, cancellation and end from its events', () => {
    const event = (type: string, object: unknown) =>
      JSON.stringify({ id: 'evt_2', type, created: 1_775_000_000, data: { object } });
    const subscription = (status: string, fields = {}) => ({
      id: 'sub_1',
      status,
      customer: 'cus_1',
      cancel_at_period_end: false,
      ended_at: null,
      metadata: { reference: 'KASA-AAAAAAAAAA' },
      items: { data: [{ current_period_end: 1_777_000_000 }] },
      ...fields,
    });
    expect(stripe.factsOfWebhook(event('customer.subscription.updated', subscription('past_due')))[0]).toMatchObject({
      status: 'past_due',
      reference: 'KASA-AAAAAAAAAA',
      periodEnd: new Date(1_777_000_000_000),
      at: new Date(1_775_000_000_000),
    });
    const incomplete = stripe.factsOfWebhook(event('customer.subscription.updated', subscription('incomplete')));
    expect(incomplete).toEqual([expect.objectContaining({ kind: 'subscription', status: undefined })]);
    expect(
      stripe.factsOfWebhook(
        event('customer.subscription.deleted', subscription('canceled', { ended_at: 1_776_000_000 })),
      )[0],
    ).toMatchObject({ status: 'canceled', endedAt: new Date(1_776_000_000_000) });
    const invoice = {
      id: 'in_1',
      customer: 'cus_1',
      parent: { subscription_details: { subscription: 'sub_1', metadata: { reference: 'KASA-AAAAAAAAAA' } } },
      lines: { data: [{ period: { end: 1_779_000_000 } }] },
    };
    expect(stripe.factsOfWebhook(event('invoice.paid', invoice))[0]).toMatchObject({
      status: 'active',
      periodEnd: new Date(1_779_000_000_000),
    });
    expect(stripe.factsOfWebhook(event('invoice.payment_failed', invoice))[0]).toMatchObject({ status: 'past_due' });
    expect(stripe.factsOfWebhook(event('invoice.paid', { ...invoice, parent: null }))).toEqual([]);
    expect(stripe.factsOfWebhook(event('charge.refunded', {}))).toEqual([]);
  });
});
