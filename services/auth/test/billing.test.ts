import type { AuthResponse, CheckoutResponse, KasaEvent, PlansResponse } from '@kasa/contracts';
import { PAYMENT_REFERENCE_PATTERN, PlansResponse as PlansResponseSchema } from '@kasa/contracts';
import {
  EventBus,
  connectDatabase,
  createLogger,
  createMongoProcessedEventStore,
  isDatabaseReady,
} from '@kasa/service-kit';
import { eventually, identityHeaders } from '@kasa/test-kit';
import type { Express } from 'express';
import type { Connection } from 'mongoose';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { AuthComponents } from '../src/authComponents';
import { createBillingService } from '../src/billing/billingService';
import { enterpriseInquiryModel } from '../src/billing/enterpriseInquiryModel';
import { paymentModel } from '../src/billing/paymentModel';
import {
  BuiltInPaymentProvider,
  paymentProviderFor,
  UnconfiguredPaymentProvider,
  type PaymentProvider,
} from '../src/billing/paymentProvider';
import { generateSigningKey } from '../src/tokens/signingKey';
import type { TokenService } from '../src/tokens/tokenService';
import { userModel } from '../src/users/userModel';
import type { UserService } from '../src/users/userService';
import { createTestAuthApp } from './authApp';

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const logger = createLogger({ service: 'auth-billing-test', version: 'test', level: 'silent' });
const signingKey = generateSigningKey();

let db: Connection;
let observerDb: Connection;
let bus: EventBus;
let observer: EventBus;
let users: UserService;
let tokens: TokenService;
let app: Express;
/** Every app's components, closed at the end. */
const components: AuthComponents[] = [];
const planChanges: KasaEvent<'auth.user.plan_changed'>[] = [];

const unique = () => randomUUID().slice(0, 8);

/** An app over the same database and bus, with another payment provider (the edge of the world). */
function appWith(provider: PaymentProvider, publishBus: Pick<EventBus, 'publishWithin'> = bus): Express {
  const built = createTestAuthApp({
    db,
    bus: publishBus,
    logger,
    name: `auth-billing-test-${unique()}`,
    readiness: { database: () => isDatabaseReady(db) },
    signingKey,
    paymentProvider: provider,
  });
  components.push(built.auth);
  return built.app;
}

/** Registers a person and answers the headers the gateway would set after verifying their token. */
async function signUp(target: Express = app) {
  const id = unique();
  const res = await request(target)
    .post('/api/auth/register')
    .send({ username: `kofi_${id}`, email: `kofi.${id}@example.com`, password: 'akwaaba-123' });
  expect(res.status).toBe(201);
  const { user, token } = res.body as AuthResponse;
  const identity = identityHeaders({ userId: user.id, username: user.username, tier: 'free' });
  return { user, token, identity };
}

beforeAll(async () => {
  const url = process.env.MONGO_URL!;
  db = await connectDatabase({ url, dbName: `kasa_auth_billing_test_${process.pid}`, logger, maxAttempts: 3 });
  observerDb = await connectDatabase({
    url,
    dbName: `kasa_auth_billing_observer_${process.pid}`,
    logger,
    maxAttempts: 3,
  });
  bus = new EventBus({ url: AMQP_URL, source: 'kasa/auth', logger });
  observer = new EventBus({
    url: AMQP_URL,
    source: 'kasa/auth-billing-test',
    logger,
    consumerName: `auth-billing-test-${unique()}`,
    processedEvents: createMongoProcessedEventStore(observerDb),
  });
  observer.subscribeBroadcast('auth.user.plan_changed', async (event) => {
    planChanges.push(event as KasaEvent<'auth.user.plan_changed'>);
  });
  await Promise.all([bus.start(), observer.start()]);

  const userDocs = userModel(db);
  await Promise.all([userDocs.init(), paymentModel(db).init(), enterpriseInquiryModel(db).init()]);
  app = appWith(new BuiltInPaymentProvider());
  ({ users, tokens } = components[0]!);
});

afterAll(async () => {
  await Promise.all(components.map((c) => c.apiKeyUsage.close()));
  await Promise.all([bus?.close(), observer?.close()]);
  await db?.dropDatabase();
  await observerDb?.dropDatabase();
  await Promise.all([db?.close(), observerDb?.close()]);
});

describe('GET /api/billing/plans', () => {
  it('answers the three plans of the spec, the add-ons and the FAQ, without signing in', async () => {
    const res = await request(app).get('/api/billing/plans');
    expect(res.status).toBe(200);
    const body = PlansResponseSchema.parse(res.body) as PlansResponse;
    expect(body.plans.map((p) => [p.id, p.name, p.price, p.period, p.popular])).toEqual([
      ['free', 'Free', 0, 'month', false],
      ['pro', 'Pro', 29, 'month', true],
      ['enterprise', 'Enterprise', 199, 'month', false],
    ]);
    expect(body.plans.map((p) => p.monthlyApiCalls)).toEqual([1_000, 50_000, null]);
    const [free, pro, enterprise] = body.plans;
    expect(free!.limitations.join(' ')).toMatch(/voice/i);
    expect(pro!.features.join(' ')).toMatch(/voice/i);
    expect(enterprise!.enterpriseExtras).toEqual(
      expect.arrayContaining(['Custom personas', 'White-label deployment', 'Video generation', 'Team management']),
    );
    // Every add-on a plan names exists in the add-ons row.
    const addOnNames = body.addOns.map((a) => a.name);
    for (const plan of body.plans) for (const name of plan.addOns) expect(addOnNames).toContain(name);
    expect(body.faq.map((f) => f.question).join(' ')).toMatch(/change plans/i);
    expect(body.faq.map((f) => f.answer).join(' ')).toMatch(/prorated/i);
    // The built-in provider takes no money: the web app shows its test-mode banner to everyone.
    expect(body.testMode).toBe(true);
  });

  it('says testMode false when no provider of this server is a test one', async () => {
    const res = await request(appWith(new UnconfiguredPaymentProvider())).get('/api/billing/plans');
    expect(res.status).toBe(200);
    expect((PlansResponseSchema.parse(res.body) as PlansResponse).testMode).toBe(false);
  });
});

describe('POST /api/billing/checkout', () => {
  it('answers 401 without the identity the gateway sets', async () => {
    const res = await request(app).post('/api/billing/checkout').send({ planId: 'pro' });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'unauthenticated', message: expect.any(String) });
  });

  it.each([
    [{}, 'planId'],
    [{ planId: 'platinum' }, 'planId'],
    [{ planId: 42 }, 'planId'],
  ])('answers 400 naming the field for %j', async (body, field) => {
    const { identity } = await signUp();
    const res = await request(app).post('/api/billing/checkout').set(identity).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', message: expect.stringContaining(field) });
    expect(res.body.details).toEqual([expect.objectContaining({ path: field })]);
  });

  it('tells a Free user choosing Free that they already are on it, and buys nothing', async () => {
    const { user, identity } = await signUp();
    const res = await request(app).post('/api/billing/checkout').set(identity).send({ planId: 'free' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      outcome: 'already_on_plan',
      planId: 'free',
      message: 'You are already on the Free plan.',
    });
    expect(await paymentModel(db).countDocuments({ userId: user.id })).toBe(0);
  });

  it('stores an Enterprise inquiry once per person and answers 202 with the sales message', async () => {
    const { user, identity } = await signUp();
    const first = await request(app).post('/api/billing/checkout').set(identity).send({ planId: 'enterprise' });
    expect(first.status).toBe(202);
    expect(first.body).toEqual({
      outcome: 'inquiry_received',
      planId: 'enterprise',
      inquiryId: expect.any(String),
      message: 'Our sales team will contact you shortly to discuss enterprise solutions.',
    });
    const again = await request(app).post('/api/billing/checkout').set(identity).send({ planId: 'enterprise' });
    expect(again.status).toBe(202);
    expect(again.body.inquiryId).toBe(first.body.inquiryId);

    const stored = await enterpriseInquiryModel(db).find({ userId: user.id }).lean();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      username: user.username,
      email: user.email,
      currentTier: 'free',
      status: 'open',
      requestCount: 2,
    });
    // An inquiry changes no plan.
    expect((await users.findById(user.id)).subscriptionTier).toBe('free');
  });

  it('upgrades to Pro: a completed payment, the new tier, a fresh token with it, and auth.user.plan_changed', async () => {
    const { user, identity, token: oldToken } = await signUp();
    const res = await request(app).post('/api/billing/checkout').set(identity).send({ planId: 'pro' });
    expect(res.status).toBe(201);
    const body = res.body as Extract<CheckoutResponse, { outcome: 'checkout' }>;
    expect(body).toMatchObject({
      outcome: 'checkout',
      planId: 'pro',
      status: 'completed',
      user: { id: user.id, subscriptionTier: 'pro' },
      payment: {
        planId: 'pro',
        planName: 'Pro',
        status: 'completed',
        amount: 29,
        currency: 'USD',
        provider: 'builtin',
      },
    });
    expect(body.reference).toMatch(PAYMENT_REFERENCE_PATTERN);
    expect(body.redirectUrl).toBe(`/billing/success?reference=${body.reference}`);
    expect(res.headers['cache-control']).toBe('no-store');

    // The fresh token carries the new tier and is the session cookie now; /me (by the token) says pro.
    const claims = await tokens.verify(body.token!);
    expect(claims).toMatchObject({ sub: user.id, tier: 'pro', username: user.username });
    expect(String(res.headers['set-cookie'])).toContain(`kasa_session=${body.token}`);
    const me = await request(app).get('/api/auth/me').set('authorization', `Bearer ${body.token}`);
    expect(me.body.user.subscriptionTier).toBe('pro');
    // The old token still works (with its old claims) until it expires.
    expect((await request(app).get('/api/auth/me').set('authorization', `Bearer ${oldToken}`)).status).toBe(200);

    const event = await eventually(() => planChanges.find((e) => e.data.userId === user.id));
    expect(event.data).toEqual({ userId: user.id, from: 'free', to: 'pro', reference: body.reference });
    await eventually(async () =>
      (await paymentModel(db).findOne({ reference: body.reference }).lean())?.pendingPlanChangedEventId === null
        ? true
        : undefined,
    );

    // Choosing Pro again buys nothing more.
    const again = await request(app)
      .post('/api/billing/checkout')
      .set({ ...identity, 'x-kasa-tier': 'pro' })
      .send({ planId: 'pro' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ outcome: 'already_on_plan', planId: 'pro' });
    expect(await paymentModel(db).countDocuments({ userId: user.id })).toBe(1);

    // A paid plan is not left for Free through the checkout.
    const down = await request(app).post('/api/billing/checkout').set(identity).send({ planId: 'free' });
    expect(down.status).toBe(409);
    expect(down.body).toMatchObject({ code: 'conflict', message: expect.stringContaining('Pro plan') });
  });

  it('makes one payment of eight checkouts sent at once, and answers every one with it', async () => {
    for (let round = 0; round < 3; round++) {
      const { user, identity } = await signUp();
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          request(app).post('/api/billing/checkout').set(identity).send({ planId: 'pro' }),
        ),
      );
      expect(await paymentModel(db).countDocuments({ userId: user.id })).toBe(1);
      const [payment] = await paymentModel(db).find({ userId: user.id }).lean();
      expect(payment).toMatchObject({ status: 'completed', planId: 'pro' });
      for (const res of answers) {
        // Answered with the one payment, or (once the plan had changed) told that nothing more is to be bought.
        if (res.status === 201) expect(res.body).toMatchObject({ reference: payment!.reference, status: 'completed' });
        else expect(res.body).toMatchObject({ outcome: 'already_on_plan', planId: 'pro' });
      }
      expect(answers.filter((res) => res.status === 201).length).toBeGreaterThanOrEqual(1);
    }
  });

  it('answers a pending checkout again, with the same page, instead of starting another', async () => {
    const pending = appWith({
      name: 'hosted',
      createCheckout: async ({ reference }) => ({
        status: 'pending',
        providerReference: `hosted_${reference}`,
        redirectUrl: `https://pay.example/${reference}`,
      }),
    });
    const { user, identity } = await signUp();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        request(pending).post('/api/billing/checkout').set(identity).send({ planId: 'pro' }),
      ),
    );
    expect(await paymentModel(db).countDocuments({ userId: user.id })).toBe(1);
    const references = new Set(answers.map((res) => res.body.reference));
    expect(references.size).toBe(1);
    for (const res of answers) {
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ status: 'pending', redirectUrl: `https://pay.example/${[...references][0]}` });
    }
  });

  it('sells nothing in production without a payment processor: 503, no payment, the plan stays', async () => {
    const unconfigured = appWith(paymentProviderFor({ NODE_ENV: 'production' }));
    const { user, identity } = await signUp();
    const res = await request(unconfigured).post('/api/billing/checkout').set(identity).send({ planId: 'pro' });
    expect(res.status).toBe(503);
    expect(res.body.message).toMatch(/Payments are not configured/);
    expect(await paymentModel(db).countDocuments({ userId: user.id })).toBe(0);
    expect((await users.findById(user.id)).subscriptionTier).toBe('free');
    // KASA_PAYMENTS=builtin (the local platform) and any other environment take the built-in provider.
    expect(paymentProviderFor({ NODE_ENV: 'production', KASA_PAYMENTS: 'builtin' }).testMode).toBe(true);
    expect(paymentProviderFor({ NODE_ENV: 'development' }).name).toBe('builtin');
  });

  it('answers 503 and records a failed payment when the provider is down; the tier stays', async () => {
    const broken = appWith({
      name: 'unreachable',
      createCheckout: () => Promise.reject(new Error('connect ECONNREFUSED')),
    });
    const { user, identity } = await signUp(broken);
    const res = await request(broken).post('/api/billing/checkout').set(identity).send({ planId: 'pro' });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 'upstream_unavailable', message: expect.stringContaining('payment') });
    expect(JSON.stringify(res.body)).not.toContain('ECONNREFUSED');
    const payments = await paymentModel(db).find({ userId: user.id }).lean();
    expect(payments.map((p) => p.status)).toEqual(['failed']);
    expect((await users.findById(user.id)).subscriptionTier).toBe('free');
  });

  it('sends the person to the provider’s page when the payment is not complete yet, leaving the tier as it is', async () => {
    const hosted = appWith({
      name: 'hosted',
      createCheckout: async (req) => ({
        status: 'pending',
        providerReference: `hp_${req.reference}`,
        redirectUrl: `https://pay.example/checkout/${req.reference}`,
      }),
    });
    const { user, identity } = await signUp(hosted);
    const res = await request(hosted).post('/api/billing/checkout').set(identity).send({ planId: 'pro' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ outcome: 'checkout', status: 'pending', payment: { status: 'pending' } });
    expect(res.body.redirectUrl).toBe(`https://pay.example/checkout/${res.body.reference}`);
    expect(res.body.token).toBeUndefined();
    expect((await users.findById(user.id)).subscriptionTier).toBe('free');
  });

  it('re-sends a plan change the broker never confirmed, with the same event id', async () => {
    // A publish that fails (the bus closed before the broker confirmed): false, and the marker stays.
    const offline = appWith(new BuiltInPaymentProvider(), { publishWithin: () => Promise.resolve(false) });
    const { user, identity } = await signUp(offline);
    const res = await request(offline).post('/api/billing/checkout').set(identity).send({ planId: 'pro' });
    expect(res.status).toBe(201);
    const stored = await paymentModel(db).findOne({ reference: res.body.reference }).lean();
    const eventId = stored!.pendingPlanChangedEventId;
    expect(eventId).toEqual(expect.any(String));

    const later = new Date(Date.now() + 60_000);
    const service = createBillingService({
      db,
      users,
      provider: new BuiltInPaymentProvider(),
      bus,
      logger,
      now: () => later,
    });
    expect(await service.republishPending()).toBeGreaterThanOrEqual(1);
    const event = await eventually(() => planChanges.find((e) => e.data.userId === user.id));
    expect(event.id).toBe(eventId);
    expect(event.data).toMatchObject({ from: 'free', to: 'pro', reference: res.body.reference });
  });
});

describe('GET /api/billing/checkout/:reference', () => {
  it('answers the payment to its owner only; anyone else gets the same 404 as for an unknown reference', async () => {
    const owner = await signUp();
    const paid = await request(app).post('/api/billing/checkout').set(owner.identity).send({ planId: 'pro' });
    const { reference } = paid.body as { reference: string };

    const mine = await request(app).get(`/api/billing/checkout/${reference}`).set(owner.identity);
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual({
      reference,
      planId: 'pro',
      planName: 'Pro',
      addOnId: null,
      calls: null,
      description: 'Kasa Pro plan, 1 month',
      status: 'completed',
      amount: 29,
      currency: 'USD',
      provider: 'builtin',
      createdAt: expect.any(String),
      completedAt: expect.any(String),
    });

    const stranger = await signUp();
    const theirs = await request(app).get(`/api/billing/checkout/${reference}`).set(stranger.identity);
    const unknown = await request(app).get('/api/billing/checkout/KASA-0000000000').set(stranger.identity);
    expect(theirs.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(theirs.body).toEqual({ ...unknown.body, requestId: expect.any(String) });
    expect(theirs.body).toMatchObject({ code: 'not_found', message: 'Payment not found' });
  });

  it('answers 400 for a malformed reference and 401 without an identity', async () => {
    const { identity } = await signUp();
    const bad = await request(app).get('/api/billing/checkout/not-a-reference').set(identity);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'validation_failed', message: expect.stringContaining('reference') });
    expect((await request(app).get('/api/billing/checkout/KASA-0000000000')).status).toBe(401);
  });
});

describe('the subscription (built-in provider, test mode)', () => {
  it('answers none before a purchase, then a monthly test-mode subscription that cancels at the period’s end and resumes', async () => {
    const { user, identity } = await signUp();
    const none = await request(app).get('/api/billing/subscription').set(identity);
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ subscription: null, testMode: true });
    expect((await request(app).post('/api/billing/portal').set(identity)).status).toBe(404);
    expect((await request(app).post('/api/billing/subscription/cancel').set(identity)).status).toBe(404);

    const paid = await request(app).post('/api/billing/checkout').set(identity).send({ planId: 'pro' });
    expect(paid.status).toBe(201);
    const view = await request(app).get('/api/billing/subscription').set(identity);
    expect(view.body).toEqual({
      testMode: true,
      subscription: {
        processor: 'builtin',
        planId: 'pro',
        planName: 'Pro',
        status: 'active',
        effectiveTier: 'pro',
        amount: 29,
        currency: 'USD',
        currentPeriodEnd: expect.any(String),
        cancelAtPeriodEnd: false,
        graceUntil: null,
        endedAt: null,
        reference: paid.body.reference,
        canManage: true,
        canCancel: true,
        canResume: false,
        seats: null,
      },
    });
    const periodEnd = new Date(view.body.subscription.currentPeriodEnd).getTime();
    expect(periodEnd - Date.now()).toBeGreaterThan(27 * 24 * 3600_000);
    // Test mode has no processor's page: the portal is Kasa's own settings.
    const portal = await request(app).post('/api/billing/portal').set(identity);
    expect(portal.body).toEqual({ processor: 'builtin', url: 'http://localhost:8080/settings' });

    const cancelled = await request(app).post('/api/billing/subscription/cancel').set(identity);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.subscription).toMatchObject({
      cancelAtPeriodEnd: true,
      canResume: true,
      effectiveTier: 'pro',
    });
    expect((await users.findById(user.id)).subscriptionTier).toBe('pro');
    const resumed = await request(app).post('/api/billing/subscription/resume').set(identity);
    expect(resumed.body.subscription).toMatchObject({ cancelAtPeriodEnd: false, canCancel: true });
    expect((await request(app).post('/api/billing/subscription/resume').set(identity)).status).toBe(409);
  });

  it('verifies a checkout that completed at once without asking anyone, with a fresh token', async () => {
    const { user, identity } = await signUp();
    const paid = await request(app).post('/api/billing/checkout').set(identity).send({ planId: 'pro' });
    const verified = await request(app).post(`/api/billing/checkout/${paid.body.reference}/verify`).set(identity);
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({
      outcome: 'checkout',
      status: 'completed',
      user: { id: user.id, subscriptionTier: 'pro' },
    });
    expect(await tokens.verify(verified.body.token)).toMatchObject({ sub: user.id, tier: 'pro' });
    const stranger = await signUp();
    expect(
      (await request(app).post(`/api/billing/checkout/${paid.body.reference}/verify`).set(stranger.identity)).status,
    ).toBe(404);
  });
});
