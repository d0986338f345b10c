import type { EventData, KasaEvent } from '@kasa/contracts';
import {
  EventBus,
  connectDatabase,
  createLogger,
  createMongoProcessedEventStore,
  type Logger,
} from '@kasa/service-kit';
import { ManualClock, eventually, newAccount, unique } from '@kasa/test-kit';
import type { Express } from 'express';
import type { Connection } from 'mongoose';
import request from 'supertest';
import type { AuthComponents } from '../src/authComponents';
import { emailNoticeModel } from '../src/notices/emailNoticeModel';
import { EmailNotices } from '../src/notices/emailNotices';
import { LoginThrottle } from '../src/users/loginThrottle';
import { loginThrottleModel } from '../src/users/loginThrottleModel';
import { userModel } from '../src/users/userModel';
import { createTestAuthApp } from './authApp';

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const logger: Logger = createLogger({ service: 'auth-test', version: 'test', level: 'silent' });

let db: Connection;
let observerDb: Connection;
let bus: EventBus;
let observer: EventBus;
let app: Express;
let components: AuthComponents;
const notices: Array<KasaEvent<'auth.email.requested'>> = [];

const noticesFor = (userId: string) => notices.filter((e) => e.data.userId === userId);

beforeAll(async () => {
  const url = process.env.MONGO_URL!;
  db = await connectDatabase({ url, dbName: `kasa_auth_throttle_${process.pid}`, logger, maxAttempts: 3 });
  observerDb = await connectDatabase({ url, dbName: `kasa_auth_throttle_obs_${process.pid}`, logger, maxAttempts: 3 });
  bus = new EventBus({ url: AMQP_URL, source: 'kasa/auth', logger });
  observer = new EventBus({
    url: AMQP_URL,
    source: 'kasa/auth-test',
    logger,
    consumerName: `auth-throttle-test-${unique()}`,
    processedEvents: createMongoProcessedEventStore(observerDb),
  });
  observer.subscribeBroadcast('auth.email.requested', async (event) => {
    notices.push(event as KasaEvent<'auth.email.requested'>);
  });
  await Promise.all([bus.start(), observer.start()]);
  await Promise.all([userModel(db).init(), loginThrottleModel(db).init()]);
  ({ app, auth: components } = createTestAuthApp({ db, bus, logger, name: 'auth-throttle-test' }));
});

afterAll(async () => {
  await components?.apiKeyUsage.close();
  await Promise.all([bus?.close(), observer?.close()]);
  await db?.dropDatabase();
  await observerDb?.dropDatabase();
  await Promise.all([db?.close(), observerDb?.close()]);
});

async function registered() {
  const person = newAccount('kofi');
  const res = await request(app).post('/api/auth/register').send(person);
  expect(res.status).toBe(201);
  return { ...person, email: person.email.toLowerCase(), id: res.body.user.id as string };
}

const login = (email: string, password: string) => request(app).post('/api/auth/login').send({ email, password });

/** The parts of an error answer that must not depend on whether the account exists. */
const shape = (res: request.Response) => ({ status: res.status, code: res.body.code, message: res.body.message });

describe('sign-in delays per account', () => {
  it('makes the account wait after five wrong passwords, refuses even the right one meanwhile, then lets it in', async () => {
    const person = await registered();
    for (let i = 1; i <= 5; i++) {
      const res = await login(person.email, `wrong-${i}`);
      expect([i, res.status]).toEqual([i, 401]);
    }
    const waiting = await login(person.email, person.password);
    expect(waiting.status).toBe(429);
    expect(waiting.body).toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(/Try again in 1 second/),
    });
    expect(Number(waiting.headers['retry-after'])).toBe(1);

    // After the wait the right password signs in, and the failures are forgotten.
    const signedIn = await eventually(
      async () => {
        const res = await login(person.email, person.password);
        return res.status === 200 ? res : undefined;
      },
      { timeoutMs: 3_000, what: 'sign-in after the wait' },
    );
    expect(signedIn.body.user.id).toBe(person.id);
    expect((await login(person.email, 'wrong-again')).status).toBe(401);
    expect((await login(person.email, person.password)).status).toBe(200);
  });

  it('checks at most five passwords of twenty wrong ones sent at once; the rest wait with a 429', async () => {
    const person = await registered();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => login(person.email, `wrong-${i}`)));
    const statuses = answers.map((res) => res.status);
    // Each 401 is a checked password. (Exactly five unless the burst outlasted the first 1-second wait.)
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 401).length + statuses.filter((s) => s === 429).length).toBe(20);
    for (const res of answers.filter((r) => r.status === 429)) {
      expect(res.body).toMatchObject({ code: 'rate_limited' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
  });

  it('answers an unknown address exactly as an account, and sends no notice for it', async () => {
    const person = await registered();
    const nobody = `nobody.${unique()}@example.com`;
    for (let i = 1; i <= 6; i++) {
      const [known, unknown] = [await login(person.email, `wrong-${i}`), await login(nobody, `wrong-${i}`)];
      expect(shape(unknown)).toEqual(shape(known));
      expect(unknown.headers['retry-after']).toBe(known.headers['retry-after']);
    }
    expect(shape(await login(nobody, 'anything'))).toMatchObject({ status: 429, code: 'rate_limited' });
    await eventually(() => noticesFor(person.id).length === 1, { what: "the account owner's notice" });
    expect(notices.some((e) => e.data.to === nobody)).toBe(false);
  });

  it('e-mails the owner once per run of failures, through the outbox', async () => {
    const person = await registered();
    const failUntilWaiting = async () => {
      for (let i = 0; i < 5; i++) expect((await login(person.email, `wrong-${i}`)).status).toBe(401);
    };
    await failUntilWaiting();
    const [first] = await eventually(() => (noticesFor(person.id).length ? noticesFor(person.id) : undefined));
    const data: EventData<'auth.email.requested'> = first!.data;
    expect(data).toMatchObject({ to: person.email, notice: 'sign_in_throttled', retryAfter: expect.any(String) });

    // More failures in the same run (after the first wait) send nothing more.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await login(person.email, 'wrong-6')).status).toBe(401);
    // A sign-in ends the run; the next run of failures is a new notice.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect((await login(person.email, person.password)).status).toBe(200);
    await failUntilWaiting();
    await eventually(() => noticesFor(person.id).length === 2, { what: 'the second run’s notice' });
    expect(noticesFor(person.id)).toHaveLength(2);
    // Confirmed notices are marked published on their document (the kit's outbox).
    await eventually(
      async () =>
        (await db
          .collection('email_notices')
          .countDocuments({ userId: person.id, 'requestedEvent.state': { $ne: 'Published' } })) === 0,
    );
  });
});

describe('LoginThrottle', () => {
  const clock = new ManualClock();
  const throttle = () => new LoginThrottle(loginThrottleModel(db), { now: () => clock.date() });
  const waitOf = (t: LoginThrottle, email: string) => t.waitSeconds(email);

  it('doubles the wait from 1 s with each failure, up to 15 minutes', async () => {
    const t = throttle();
    const email = `guess.${unique()}@example.com`;
    const waits: number[] = [];
    for (let i = 1; i <= 16; i++) {
      const outcome = await t.recordFailure(email);
      waits.push(outcome.lockedUntil ? (outcome.lockedUntil.getTime() - clock.now()) / 1000 : 0);
      expect(await waitOf(t, email)).toBe(waits[i - 1]);
      if (outcome.lockedUntil) clock.set(outcome.lockedUntil);
    }
    expect(waits).toEqual([0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900]);
  });

  it('forgets the failures after a quiet quarter of an hour, counted from the end of the wait', async () => {
    const t = throttle();
    const email = `guess.${unique()}@example.com`;
    for (let i = 0; i < 5; i++) await t.recordFailure(email);
    clock.advance(14 * 60_000);
    expect((await t.recordFailure(email)).failures).toBe(6);
    clock.advance(2_000 + 15 * 60_000);
    expect(await t.recordFailure(email)).toMatchObject({ failures: 1, lockedUntil: null });
  });

  it('lets at most five of the attempts that arrive at once go on to a password check, counting each once', async () => {
    const t = throttle();
    const email = `guess.${unique()}@example.com`;
    const tries = await Promise.allSettled(Array.from({ length: 12 }, () => t.reserve(email)));
    const granted = tries.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    expect(granted.map((a) => a.n).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
    expect(tries.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason)).toEqual(
      Array.from({ length: 7 }, () => expect.objectContaining({ status: 429 })),
    );
    const outcomes = await Promise.all(granted.map((a) => t.failed(a)));
    expect(outcomes.filter((o) => o.startedLockout)).toHaveLength(1);
    expect(await waitOf(t, email)).toBe(1);
  });

  it('lifts the hold of an attempt whose check could not finish, without counting it', async () => {
    const t = throttle();
    const email = `guess.${unique()}@example.com`;
    for (let i = 0; i < 4; i++) await t.recordFailure(email);
    const held = await t.reserve(email);
    expect(held).toMatchObject({ n: 5, guarded: true });
    await expect(t.reserve(email)).rejects.toMatchObject({ status: 429 });
    await t.abandoned(held);
    expect(await t.reserve(email)).toMatchObject({ n: 5, guarded: true });
  });
});

describe('e-mail notices outbox', () => {
  it('keeps a notice the broker never confirmed and re-sends it with the same event id', async () => {
    const outbox = emailNoticeModel(db);
    const userId = `user-${unique()}`;
    // A broker that is away: the publish fails, and the notice waits in the outbox.
    const away = new EmailNotices({
      notices: outbox,
      bus: {
        publishWithin: async (_type, _data, _ms, options) => {
          await options?.onSettled?.(false);
          return false;
        },
      },
      logger,
      publicUrl: 'http://localhost:8080',
    });
    await away.send({ userId, email: 'ama@example.com', notice: 'registration_attempted', occurredAt: new Date() });
    const pending = await outbox.findOne({ userId }).lean();
    expect(pending?.requestedEvent).toMatchObject({
      state: 'NotPublished',
      data: { to: 'ama@example.com', notice: 'registration_attempted' },
    });

    const live = new EmailNotices({ notices: outbox, bus, logger, publicUrl: 'http://localhost:8080' });
    expect((await live.events.republish()).published).toBeGreaterThanOrEqual(1);
    const sent = await eventually(() => notices.find((e) => e.data.userId === userId));
    expect(sent.id).toBe(pending!._id);
    await eventually(async () => (await outbox.findById(pending!._id).lean())?.requestedEvent.state === 'Published');
  });
});
