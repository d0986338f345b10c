import type { EventData, KasaEvent } from '@kasa/contracts';
import { EventBus, createMongoProcessedEventStore, type Logger } from '@kasa/service-kit';
import { eventually, unique } from '@kasa/test-kit';
import { connect as amqpConnect } from 'amqplib';
import type { Express } from 'express';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { AuthComponents } from '../src/authComponents';
import { PaystackProvider } from '../src/billing/paystackProvider';
import { inboxEventModel } from '../src/billing/webhookInbox';
import { mailFromOf, readConfig } from '../src/config';
import { MAIL_CATALOGUES } from '../src/mail/mailCatalogues';
import { MailNotSentError, Mailer, subscribeMailer } from '../src/mail/mailer';
import { createMailSender, mailDeliveryOf, type MailSender } from '../src/mail/mailSender';
import { emailNoticeModel } from '../src/notices/emailNoticeModel';
import { languagePreferenceModel } from '../src/preferences/languagePreferenceModel';
import { userModel } from '../src/users/userModel';
import { BillingHarness, DAY_MS, GRACE_MS, TravelClock, type Person } from './support/billingHarness';
import { readMail } from './support/mailText';
import { PaystackFake, type FakePlan, type SignedWebhook } from './support/paystackFake';
import { SmtpInbox } from './support/smtpInbox';

// Account notices really sent: the notices' outbox publishes auth.email.requested, the mailer consumes it on its
// durable queue (as index.ts wires it) and sends each one with nodemailer to a real SMTP server (smtp-server), in
// the account's language. Billing is driven as billingPaystack.test.ts drives it: signed webhooks of the Paystack
// fake, and the reconciliation on a clock the test moves.

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const SECRET = 'sk_test_kasa_paystack_secret';
const PRO_PLAN: FakePlan = {
  plan_code: 'PLN_kasapro',
  name: 'Kasa Pro',
  amount: 35_000,
  currency: 'GHS',
  interval: 'monthly',
};
const CONSUMER = `auth-mail-test-${unique()}`;
const MAIL_FROM = 'Kasa <notices@kasa.example>';

let h: BillingHarness;
let fake: PaystackFake;
let inbox: SmtpInbox;
let app: Express;
let auth: AuthComponents;
let mailBus: EventBus;
let sender: MailSender;
const clock = new TravelClock();
/** Every auth.email.requested the broker delivered (whoever it was for). */
const requested: Array<KasaEvent<'auth.email.requested'>> = [];

const requestedFor = (userId: string, notice: string) =>
  requested.filter((event) => event.data.userId === userId && event.data.notice === notice);

beforeAll(async () => {
  h = await new BillingHarness('mail').start();
  [fake, inbox] = await Promise.all([new PaystackFake(SECRET, [PRO_PLAN], clock.now).start(), new SmtpInbox().start()]);
  const provider = new PaystackProvider({
    secretKey: SECRET,
    baseUrl: fake.url,
    currency: 'GHS',
    planPro: PRO_PLAN.plan_code,
  });
  ({ app, auth } = h.app(provider, clock.now));
  // The mailer as index.ts makes it, from the service's configuration, on a durable queue of its own.
  const config = readConfig({ NODE_ENV: 'test', SMTP_URL: inbox.url, MAIL_FROM });
  sender = createMailSender(mailDeliveryOf(config))!;
  const mailer = new Mailer({
    sender,
    from: mailFromOf(config),
    users: userModel(h.db),
    languages: languagePreferenceModel(h.db),
    logger: h.logger,
    publicUrl: auth.publicUrl,
    retryDelaysMs: [100, 100],
  });
  mailBus = new EventBus({
    url: AMQP_URL,
    source: 'kasa/auth',
    logger: h.logger,
    consumerName: CONSUMER,
    processedEvents: createMongoProcessedEventStore(h.db),
  });
  subscribeMailer(mailBus, mailer);
  mailBus.subscribeBroadcast('auth.email.requested', async (event) => {
    requested.push(event);
  });
  await mailBus.start();
}, 60_000);

afterAll(async () => {
  await mailBus?.close();
  sender?.close();
  await Promise.all([fake?.stop(), inbox?.stop()]);
  const connection = await amqpConnect(AMQP_URL);
  const channel = await connection.createChannel();
  await channel.deleteQueue(`kasa.${CONSUMER}`);
  await channel.deleteQueue(`kasa.${CONSUMER}.dlq`);
  await connection.close();
  await h?.stop();
});

async function speaks(person: Person, language: string): Promise<void> {
  const res = await request(app).put('/api/auth/preferences/language').set(person.identity).send({ language });
  expect(res.status).toBe(200);
}

const usernameOf = async (person: Person) => (await userModel(h.db).findById(person.userId).lean())!.username;

function deliver(hook: SignedWebhook) {
  return request(app)
    .post('/api/billing/webhooks/paystack')
    .set('content-type', 'application/json')
    .set('x-paystack-signature', hook.signature)
    .send(hook.body);
}

/** A person on Pro through Paystack (as billingPaystack.test.ts subscribes one). */
async function subscribed(): Promise<{ person: Person; code: string }> {
  const person = await h.signUp(app);
  const res = await request(app).post('/api/billing/checkout').set(person.identity).send({ planId: 'pro' });
  expect(res.status).toBe(201);
  const paid = fake.pay(res.body.reference as string);
  expect((await deliver(paid.charge)).status).toBe(200);
  await eventually(async () => h.hasTier(person.userId, 'pro'), { what: 'the payment is applied' });
  expect((await deliver(paid.subscriptionCreated!)).status).toBe(200);
  const code = paid.subscription!.subscription_code;
  await eventually(async () => (await h.subscriptionOf(person.userId))?.subscriptionId === code, {
    what: 'the subscription is known',
  });
  expect(await h.tierOf(person.userId)).toBe('pro');
  return { person, code };
}

const noticesStored = (userId: string, notice: string) => emailNoticeModel(h.db).countDocuments({ userId, notice });

describe('account notices by e-mail', () => {
  it('e-mails the sign-in throttle notice over SMTP in the account’s language, once per event id', async () => {
    const person = await h.signUp(app);
    await speaks(person, 'ha');
    for (let i = 0; i < 5; i++) {
      const res = await request(app)
        .post('/api/auth/login')
        .send({ email: person.email, password: `wrong-${i}` });
      expect(res.status).toBe(401);
    }
    const [mail] = await eventually(() => (inbox.to(person.email).length ? inbox.to(person.email) : undefined), {
      what: 'the notice arrives by SMTP',
    });
    expect(mail!.user).toBe(inbox.user);
    expect(mail!.envelopeFrom).toBe('notices@kasa.example');
    expect(mail!.from).toBe(MAIL_FROM);
    expect(mail!.subject).toBe(MAIL_CATALOGUES.ha['sign_in_throttled.subject']);
    expect(mail!.text).toContain(`Sannu ${await usernameOf(person)},`);
    expect(mail!.text).toContain(`${auth.publicUrl}/auth`);
    expect(mail!.headers['auto-submitted']).toBe('auto-generated');
    expect(mail!.headers['content-language']).toBe('ha');
    expect(mail!.html).toContain('<html lang="ha" dir="ltr">');

    // The same event again (a republish): handled once. A later notice shows the queue has moved past it.
    const stored = (await emailNoticeModel(h.db).findOne({ userId: person.userId }).lean())!;
    await h.bus.publish('auth.email.requested', stored.requestedEvent.data, { id: stored._id });
    const marker: EventData<'auth.email.requested'> = {
      ...stored.requestedEvent.data,
      notice: 'registration_attempted',
    };
    await h.bus.publish('auth.email.requested', marker, { id: `marker-${unique()}` });
    await eventually(() => inbox.to(person.email).length === 2, { what: 'the later notice arrives' });
    expect(inbox.to(person.email).map((m) => m.subject)).toEqual([
      MAIL_CATALOGUES.ha['sign_in_throttled.subject'],
      MAIL_CATALOGUES.ha['registration_attempted.subject'],
    ]);
  });

  it('e-mails one renewal_failed with the grace date, however often the failure is told, then one plan_lapsed', async () => {
    const { person, code } = await subscribed();
    await speaks(person, 'fr');
    const failure = fake.failRenewal(code, clock.now());
    expect((await deliver(failure)).status).toBe(200);
    // Delivered twice, a later retry of the charge failing again, and the sync asking Paystack: one notice.
    expect((await deliver(failure)).body).toMatchObject({ duplicate: true });
    clock.travel(DAY_MS);
    expect((await deliver(fake.failRenewal(code, clock.now()))).status).toBe(200);
    await eventually(async () => (await inboxEventModel(h.db).countDocuments()) === 0, { what: 'webhooks applied' });
    await auth.billing.reconcile({ subscriptionsEveryMs: 0 });
    const sub = (await h.subscriptionOf(person.userId))!;
    expect(sub.status).toBe('past_due');
    const graceUntil = sub.graceUntil!;

    const [mail] = await eventually(() => (inbox.to(person.email).length ? inbox.to(person.email) : undefined), {
      what: 'the renewal_failed e-mail',
    });
    expect(mail!.subject).toBe('Le paiement de renouvellement de votre formule Kasa Pro a échoué');
    const graceDate = new Intl.DateTimeFormat('fr', { dateStyle: 'long', timeZone: 'UTC' }).format(graceUntil);
    expect(mail!.text).toContain(`jusqu’au ${graceDate}`);
    expect(mail!.text).toContain(`Paramètres → Formule et facturation : ${auth.publicUrl}/settings`);
    expect(mail!.html).toContain(`<a href="${auth.publicUrl}/settings">`);
    expect(await noticesStored(person.userId, 'renewal_failed')).toBe(1);

    // Grace over by the clock: Free, and one plan_lapsed, however often the reconciliation runs.
    clock.travel(GRACE_MS);
    await auth.billing.reconcile();
    await auth.billing.reconcile();
    expect(await h.tierOf(person.userId)).toBe('free');
    const lapsed = await eventually(() => inbox.to(person.email).find((m) => m.subject !== mail!.subject), {
      what: 'the plan_lapsed e-mail',
    });
    expect(lapsed.subject).toBe(MAIL_CATALOGUES.fr['plan_lapsed.subject']);
    expect(lapsed.text).toContain('formule Free');
    expect(lapsed.text).toContain(`${auth.publicUrl}/pricing`);
    expect(await noticesStored(person.userId, 'plan_lapsed')).toBe(1);
    expect(requestedFor(person.userId, 'renewal_failed')).toHaveLength(1);
    expect(requestedFor(person.userId, 'plan_lapsed')).toHaveLength(1);
    expect(inbox.to(person.email)).toHaveLength(2);
  });

  it('tries a temporary refusal again, and dead-letters a message the server refuses for good', async () => {
    const [soon, never] = [`soon.${unique()}@example.com`, `never.${unique()}@example.com`];
    let refusals = 0;
    inbox.recipientRule = (address) => {
      if (address === never) return { code: 550, message: `5.1.1 <${never}>: Recipient address rejected` };
      if (address === soon && refusals++ === 0) return { code: 451, message: '4.3.0 Try again later' };
      return undefined;
    };
    const person = await h.signUp(app);
    const data = (to: string): EventData<'auth.email.requested'> => ({
      userId: person.userId,
      to,
      notice: 'registration_attempted',
      occurredAt: new Date().toISOString(),
    });
    await h.bus.publish('auth.email.requested', data(soon));
    await h.bus.publish('auth.email.requested', data(never));
    await eventually(() => inbox.to(soon).length === 1, { what: 'the second attempt is accepted' });
    expect(refusals).toBe(2);
    const connection = await amqpConnect(AMQP_URL);
    try {
      const channel = await connection.createChannel();
      await eventually(async () => (await channel.checkQueue(`kasa.${CONSUMER}.dlq`)).messageCount === 1, {
        what: 'the refused notice is dead-lettered',
      });
    } finally {
      await connection.close();
    }
    expect(inbox.to(never)).toHaveLength(0);
    inbox.recipientRule = () => undefined;
  });
});

/** A logger that keeps what it was given, to check what the mailer writes to logs. */
function capturingLogger(): { logger: Logger; lines: Array<{ level: string; fields: unknown; message: unknown }> } {
  const lines: Array<{ level: string; fields: unknown; message: unknown }> = [];
  const log =
    (level: string) =>
    (fields: unknown, message?: unknown): void => {
      lines.push(typeof fields === 'string' ? { level, fields: {}, message: fields } : { level, fields, message });
    };
  const logger = {
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    debug: log('debug'),
    child: () => logger,
  };
  return { logger: logger as unknown as Logger, lines };
}

describe('without SMTP_URL', () => {
  const event = (person: Person): KasaEvent<'auth.email.requested'> => ({
    id: `folder-${unique()}`,
    type: 'auth.email.requested',
    source: 'kasa/auth',
    time: new Date().toISOString(),
    data: {
      userId: person.userId,
      to: person.email,
      notice: 'registration_attempted',
      occurredAt: new Date().toISOString(),
    },
  });

  it('writes each e-mail as an .eml file into KASA_MAIL_DIR and logs its path, not its content', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'kasa-mail-'));
    try {
      const config = readConfig({ NODE_ENV: 'development', KASA_MAIL_DIR: dir });
      const { logger, lines } = capturingLogger();
      const folder = createMailSender(mailDeliveryOf(config))!;
      expect(folder.mode).toBe('folder');
      const mailer = new Mailer({
        sender: folder,
        from: mailFromOf(config),
        users: userModel(h.db),
        languages: languagePreferenceModel(h.db),
        logger,
        publicUrl: auth.publicUrl,
      });
      const person = await h.signUp(app);
      await speaks(person, 'ar');
      await mailer.handle(event(person));
      const files = await readdir(dir);
      expect(files).toEqual([expect.stringMatching(/registration_attempted-folder-.+\.eml$/)]);
      const mail = readMail(await readFile(path.join(dir, files[0]!), 'utf8'));
      expect(mail.to).toBe(person.email);
      expect(mail.subject).toBe(MAIL_CATALOGUES.ar['registration_attempted.subject']);
      expect(mail.html).toContain('<html lang="ar" dir="rtl">');
      const logged = JSON.stringify(lines);
      expect(logged).toContain(path.join(dir, files[0]!));
      expect(logged).not.toContain(person.email);
      expect(logged).not.toContain(mail.subject);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('in production, sends nothing and says so without the address', async () => {
    const config = readConfig({ NODE_ENV: 'production' });
    expect(mailDeliveryOf(config)).toEqual({ mode: 'off' });
    const { logger, lines } = capturingLogger();
    const mailer = new Mailer({
      sender: createMailSender(mailDeliveryOf(config)),
      from: mailFromOf(config),
      users: userModel(h.db),
      languages: languagePreferenceModel(h.db),
      logger,
      publicUrl: auth.publicUrl,
    });
    mailer.announce();
    const person = await h.signUp(app);
    await mailer.handle(event(person));
    expect(lines.map((line) => [line.level, line.message])).toEqual([
      ['warn', expect.stringMatching(/^e-mail is off: SMTP_URL is not set/)],
      ['warn', 'e-mail is off (SMTP_URL is not set): account notice not sent'],
    ]);
    expect(JSON.stringify(lines)).not.toContain(person.email);
  });

  it('gives up with an error that names no address once the attempts are spent', async () => {
    const person = await h.signUp(app);
    const failing: MailSender = {
      mode: 'smtp',
      describe: () => ({ mode: 'smtp' }),
      send: async () => {
        throw Object.assign(new Error(`Connection refused for <${person.email}>`), { code: 'ECONNECTION' });
      },
      close: () => undefined,
    };
    const { logger } = capturingLogger();
    const mailer = new Mailer({
      sender: failing,
      from: MAIL_FROM,
      users: userModel(h.db),
      languages: languagePreferenceModel(h.db),
      logger,
      publicUrl: auth.publicUrl,
      retryDelaysMs: [10, 10],
    });
    const outcome = mailer.handle(event(person));
    await expect(outcome).rejects.toBeInstanceOf(MailNotSentError);
    await expect(outcome).rejects.toThrow(/after 3 attempt\(s\): ECONNECTION Connection refused for <<address>>/);
  });
});
