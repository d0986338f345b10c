/** What the billing tests share: a database, the broker, apps over them, people (not a test file itself). */
import type { AuthResponse, KasaEvent, SubscriptionTier } from '@kasa/contracts';
import {
  EventBus,
  connectDatabase,
  createLogger,
  createMongoProcessedEventStore,
  isDatabaseReady,
} from '@kasa/service-kit';
import { identityHeaders } from '@kasa/test-kit';
import type { Express } from 'express';
import type { Connection } from 'mongoose';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { AuthComponents } from '../../src/authComponents';
import { paymentModel, type PaymentDocument } from '../../src/billing/paymentModel';
import type { PaymentProvider } from '../../src/billing/paymentProvider';
import { subscriptionModel, type SubscriptionDocument } from '../../src/billing/subscriptionModel';
import { inboxEventModel } from '../../src/billing/webhookInbox';
import { generateSigningKey } from '../../src/tokens/signingKey';
import { userModel } from '../../src/users/userModel';
import { createTestAuthApp } from '../authApp';

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
export const DAY_MS = 24 * 3600_000;
export const GRACE_MS = 7 * DAY_MS;
const unique = () => randomUUID().slice(0, 8);

export interface Person {
  userId: string;
  email: string;
  token: string;
  /** The headers the gateway sets after verifying the person's token. */
  identity: Record<string, string>;
}

/** A clock that the test moves forward (to the end of a period, past a grace), starting at the real time. */
export class TravelClock {
  private offsetMs = 0;
  readonly now = (): Date => new Date(Date.now() + this.offsetMs);
  travel(ms: number): void {
    this.offsetMs += ms;
  }
  /** Moves to just after `when` (if it is ahead). */
  travelPast(when: Date): void {
    const ahead = when.getTime() - this.now().getTime();
    if (ahead >= 0) this.travel(ahead + 60_000);
  }
}

/** A database and the broker for one test file, with apps and billing services over them. */
export class BillingHarness {
  readonly logger = createLogger({
    service: 'auth-billing-test',
    version: 'test',
    // KASA_TEST_LOG_LEVEL=warn shows what billing logged (a processor's refusal, a webhook that waits).
    level: (process.env.KASA_TEST_LOG_LEVEL as 'warn' | undefined) ?? 'silent',
  });
  readonly planChanges: KasaEvent<'auth.user.plan_changed'>[] = [];
  readonly callsAdded: KasaEvent<'auth.user.calls_added'>[] = [];
  private readonly signingKey = generateSigningKey();
  private readonly components: AuthComponents[] = [];
  db!: Connection;
  bus!: EventBus;
  private observerDb!: Connection;
  private observer!: EventBus;

  constructor(private readonly name: string) {}

  async start(): Promise<this> {
    const url = process.env.MONGO_URL!;
    this.db = await connectDatabase({
      url,
      dbName: `kasa_auth_${this.name}_${process.pid}`,
      logger: this.logger,
      maxAttempts: 3,
    });
    this.observerDb = await connectDatabase({
      url,
      dbName: `kasa_auth_${this.name}_observer_${process.pid}`,
      logger: this.logger,
      maxAttempts: 3,
    });
    this.bus = new EventBus({ url: AMQP_URL, source: 'kasa/auth', logger: this.logger });
    this.observer = new EventBus({
      url: AMQP_URL,
      source: `kasa/auth-${this.name}-test`,
      logger: this.logger,
      consumerName: `auth-${this.name}-test-${unique()}`,
      processedEvents: createMongoProcessedEventStore(this.observerDb),
    });
    this.observer.subscribeBroadcast('auth.user.plan_changed', async (event) => {
      this.planChanges.push(event as KasaEvent<'auth.user.plan_changed'>);
    });
    this.observer.subscribeBroadcast('auth.user.calls_added', async (event) => {
      this.callsAdded.push(event as KasaEvent<'auth.user.calls_added'>);
    });
    await Promise.all([this.bus.start(), this.observer.start()]);
    await Promise.all([
      userModel(this.db).init(),
      paymentModel(this.db).init(),
      subscriptionModel(this.db).init(),
      inboxEventModel(this.db).init(),
    ]);
    return this;
  }

  async stop(): Promise<void> {
    await Promise.all(this.components.map((c) => c.apiKeyUsage.close()));
    await Promise.all([this.bus?.close(), this.observer?.close()]);
    await this.db?.dropDatabase();
    await this.observerDb?.dropDatabase();
    await Promise.all([this.db?.close(), this.observerDb?.close()]);
  }

  /** The auth app as index.ts makes it, with these payment providers, billing reading `clock`. */
  app(providers: PaymentProvider | PaymentProvider[], clock?: () => Date): { app: Express; auth: AuthComponents } {
    const built = createTestAuthApp({
      db: this.db,
      bus: this.bus,
      logger: this.logger,
      name: `auth-${this.name}-${unique()}`,
      readiness: { database: () => isDatabaseReady(this.db) },
      signingKey: this.signingKey,
      paymentProvider: providers,
      billingClock: clock,
    });
    this.components.push(built.auth);
    return built;
  }

  async signUp(app: Express): Promise<Person> {
    const id = unique();
    const res = await request(app)
      .post('/api/auth/register')
      .send({ username: `ama_${id}`, email: `ama.${id}@example.com`, password: 'akwaaba-123' });
    if (res.status !== 201) throw new Error(`register: ${res.status} ${res.text}`);
    const { user, token } = res.body as AuthResponse;
    return {
      userId: user.id,
      email: user.email,
      token,
      identity: identityHeaders({ userId: user.id, username: user.username, tier: 'free' }),
    };
  }

  async tierOf(userId: string): Promise<SubscriptionTier> {
    const doc = await userModel(this.db).findById(userId).lean();
    if (!doc) throw new Error(`no user ${userId}`);
    return doc.subscriptionTier;
  }

  /** Whether the person's account has a tier now (for `eventually`). */
  async hasTier(userId: string, tier: SubscriptionTier): Promise<boolean> {
    const current = await this.tierOf(userId);
    return current === tier;
  }

  /** The extra calls announced for a person (auth.user.calls_added), in order. */
  callsAddedFor(userId: string): Array<KasaEvent<'auth.user.calls_added'>['data']> {
    return this.callsAdded.filter((e) => e.data.userId === userId).map((e) => e.data);
  }

  subscriptionOf(userId: string): Promise<SubscriptionDocument | null> {
    return subscriptionModel(this.db).findById(userId).lean();
  }

  paymentOf(reference: string): Promise<PaymentDocument | null> {
    return paymentModel(this.db).findOne({ reference }).lean();
  }

  /** The plan changes announced for a person, in order. */
  changesOf(userId: string): Array<{ from: string; to: string }> {
    return this.planChanges.filter((e) => e.data.userId === userId).map((e) => ({ from: e.data.from, to: e.data.to }));
  }
}
