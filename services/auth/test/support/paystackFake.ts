/** A Paystack fake for the billing tests (not a test file itself). */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakePlan {
  plan_code: string;
  name: string;
  /** In the currency's subunit. */
  amount: number;
  currency: string;
  interval: 'monthly';
}

interface FakeCustomer {
  id: number;
  customer_code: string;
  email: string;
}

interface FakeTransaction {
  id: number;
  status: string;
  reference: string;
  amount: number;
  currency: string;
  channel: string | null;
  paid_at: string | null;
  created_at: string;
  metadata: string | null;
  customer: FakeCustomer;
  plan: FakePlan | null;
  access_code: string;
}

interface FakeSubscription {
  id: number;
  subscription_code: string;
  email_token: string;
  status: string;
  amount: number;
  next_payment_date: string | null;
  createdAt: string;
  updatedAt: string;
  plan: FakePlan;
  customer: FakeCustomer;
}

/** A webhook as Paystack sends it: the JSON body and its x-paystack-signature. */
export interface SignedWebhook {
  body: string;
  signature: string;
}

const code = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;

function addMonth(from: Date): Date {
  const next = new Date(from);
  next.setUTCMonth(next.getUTCMonth() + 1);
  return next;
}

/**
 * Paystack's REST API as its documentation describes it (https://paystack.com/docs/api/), for what Kasa calls:
 * `POST /transaction/initialize`, `GET /transaction/verify/:reference`, `GET /subscription/:code`,
 * `GET /customer/:code`, `POST /subscription/disable` and `/enable`, `GET /subscription/:code/manage/link`; every
 * answer in Paystack's envelope `{status, message, data}`, a wrong secret key a 401. The test plays the person and
 * Paystack's schedule (`pay`, `renew`, `failRenewal`, `end`), each returning the webhooks Paystack would send, signed
 * as Paystack signs them (HMAC-SHA512 of the body with the secret key). The test decides which of them arrive.
 */
export class PaystackFake {
  readonly transactions = new Map<string, FakeTransaction>();
  readonly subscriptions = new Map<string, FakeSubscription>();
  private readonly customers = new Map<string, FakeCustomer>();
  private readonly plans = new Map<string, FakePlan>();
  private server?: Server;
  private nextId = 1000;
  url = '';

  constructor(
    readonly secretKey: string,
    plans: FakePlan[] = [],
    /** Paystack's clock: when payments, renewals and changes happen. */
    private readonly now: () => Date = () => new Date(),
  ) {
    for (const plan of plans) this.plans.set(plan.plan_code, plan);
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => this.handle(req, res, Buffer.concat(chunks).toString('utf8')));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Signs a webhook body as Paystack does. */
  sign(event: string, data: unknown): SignedWebhook {
    const body = JSON.stringify({ event, data });
    return { body, signature: createHmac('sha512', this.secretKey).update(body).digest('hex') };
  }

  /**
   * The person pays on Paystack's page (`amount`/`currency` to pay something else than was asked). Answers
   * charge.success, and subscription.create when the transaction was for a plan and paid by card.
   */
  pay(
    reference: string,
    options: { amount?: number; currency?: string; channel?: string; at?: Date } = {},
  ): { charge: SignedWebhook; subscriptionCreated?: SignedWebhook; subscription?: FakeSubscription } {
    const tx = this.transactions.get(reference);
    if (!tx) throw new Error(`no transaction ${reference}`);
    const at = options.at ?? this.now();
    Object.assign(tx, {
      status: 'success',
      paid_at: at.toISOString(),
      channel: options.channel ?? 'card',
      ...(options.amount !== undefined ? { amount: options.amount } : {}),
      ...(options.currency ? { currency: options.currency } : {}),
    });
    const charge = this.sign('charge.success', this.transactionData(tx));
    if (!tx.plan || tx.channel !== 'card') return { charge };
    const subscription: FakeSubscription = {
      id: this.nextId++,
      subscription_code: code('SUB'),
      email_token: randomBytes(8).toString('hex'),
      status: 'active',
      amount: tx.plan.amount,
      next_payment_date: addMonth(at).toISOString(),
      createdAt: at.toISOString(),
      updatedAt: at.toISOString(),
      plan: tx.plan,
      customer: tx.customer,
    };
    this.subscriptions.set(subscription.subscription_code, subscription);
    return {
      charge,
      subscription,
      subscriptionCreated: this.sign('subscription.create', this.subscriptionData(subscription)),
    };
  }

  /** The month's renewal is charged: the next payment date moves a month on (invoice.update, paid). */
  renew(subscriptionCode: string, at = this.now()): SignedWebhook {
    const sub = this.subscription(subscriptionCode);
    sub.status = 'active';
    sub.next_payment_date = addMonth(new Date(sub.next_payment_date ?? at)).toISOString();
    sub.updatedAt = at.toISOString();
    return this.sign('invoice.update', this.invoiceData(sub, true, at));
  }

  /** The renewal's charge fails: the subscription needs attention (invoice.payment_failed). */
  failRenewal(subscriptionCode: string, at = this.now()): SignedWebhook {
    const sub = this.subscription(subscriptionCode);
    sub.status = 'attention';
    sub.updatedAt = at.toISOString();
    return this.sign('invoice.payment_failed', this.invoiceData(sub, false, at));
  }

  /** A non-renewing subscription reaches its end, or Paystack gives up on it (subscription.disable). */
  end(subscriptionCode: string, at = this.now()): SignedWebhook {
    const sub = this.subscription(subscriptionCode);
    sub.status = sub.status === 'non-renewing' ? 'completed' : 'cancelled';
    sub.updatedAt = at.toISOString();
    return this.sign('subscription.disable', this.subscriptionData(sub));
  }

  /** What Paystack sends when a subscription is set not to renew (by Kasa's call, or on Paystack's own page). */
  notRenewing(subscriptionCode: string): SignedWebhook {
    return this.sign('subscription.not_renew', this.subscriptionData(this.subscription(subscriptionCode)));
  }

  subscription(subscriptionCode: string): FakeSubscription {
    const sub = this.subscriptions.get(subscriptionCode);
    if (!sub) throw new Error(`no subscription ${subscriptionCode}`);
    return sub;
  }

  private handle(req: IncomingMessage, res: ServerResponse, body: string): void {
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    if (req.headers.authorization !== `Bearer ${this.secretKey}`)
      return send(401, { status: false, message: 'Invalid key' });
    const url = new URL(req.url ?? '/', this.url);
    const parts = url.pathname.split('/').filter(Boolean);
    let json: Record<string, unknown> = {};
    if (body) {
      try {
        json = JSON.parse(body) as Record<string, unknown>;
      } catch {
        return send(400, { status: false, message: 'Invalid JSON' });
      }
    }
    if (req.method === 'POST' && url.pathname === '/transaction/initialize') return this.initialize(json, send);
    if (req.method === 'GET' && parts[0] === 'transaction' && parts[1] === 'verify' && parts[2]) {
      const tx = this.transactions.get(decodeURIComponent(parts[2]));
      return tx
        ? send(200, { status: true, message: 'Verification successful', data: this.transactionData(tx) })
        : send(400, { status: false, message: 'Transaction reference not found' });
    }
    if (req.method === 'GET' && parts[0] === 'subscription' && parts[1] && parts[2] === 'manage') {
      const sub = this.subscriptions.get(parts[1]);
      return sub
        ? send(200, {
            status: true,
            message: 'Link generated',
            data: {
              link: `https://paystack.example/manage/subscriptions/${sub.subscription_code}?t=${sub.email_token}`,
            },
          })
        : send(404, { status: false, message: 'Subscription not found' });
    }
    if (req.method === 'GET' && parts[0] === 'subscription' && parts[1] && parts.length === 2) {
      const sub = this.subscriptions.get(parts[1]);
      return sub
        ? send(200, { status: true, message: 'Subscription retrieved successfully', data: this.subscriptionData(sub) })
        : send(404, { status: false, message: 'Subscription not found' });
    }
    if (
      req.method === 'POST' &&
      (url.pathname === '/subscription/disable' || url.pathname === '/subscription/enable')
    ) {
      const sub = this.subscriptions.get(String(json.code));
      if (!sub || sub.email_token !== json.token)
        return send(400, { status: false, message: 'Subscription with code not found or already inactive' });
      const disable = url.pathname.endsWith('disable');
      sub.status = disable ? 'non-renewing' : 'active';
      sub.updatedAt = this.now().toISOString();
      return send(200, {
        status: true,
        message: disable ? 'Subscription disabled successfully' : 'Subscription enabled successfully',
      });
    }
    if (req.method === 'GET' && parts[0] === 'customer' && parts[1]) {
      const customer = [...this.customers.values()].find((c) => c.customer_code === parts[1] || c.email === parts[1]);
      if (!customer) return send(404, { status: false, message: 'Customer not found' });
      const subscriptions = [...this.subscriptions.values()]
        .filter((sub) => sub.customer.customer_code === customer.customer_code)
        .map((sub) => this.subscriptionData(sub));
      return send(200, { status: true, message: 'Customer retrieved', data: { ...customer, subscriptions } });
    }
    return send(404, { status: false, message: `No route ${req.method} ${url.pathname}` });
  }

  private initialize(json: Record<string, unknown>, send: (status: number, payload: unknown) => void): void {
    const email = json.email;
    const reference = typeof json.reference === 'string' ? json.reference : code('T');
    const plan = typeof json.plan === 'string' ? this.plans.get(json.plan) : undefined;
    if (typeof json.plan === 'string' && !plan) return send(400, { status: false, message: 'Plan not found' });
    const amount = plan ? plan.amount : Number(json.amount);
    if (typeof email !== 'string' || !email.includes('@'))
      return send(400, { status: false, message: 'Invalid Email Address Passed' });
    if (!Number.isInteger(amount) || amount <= 0) return send(400, { status: false, message: 'Invalid Amount Sent' });
    if (!/^[A-Za-z0-9.=-]+$/.test(reference)) return send(400, { status: false, message: 'Invalid reference' });
    if (this.transactions.has(reference))
      return send(400, { status: false, message: 'Duplicate Transaction Reference' });
    let customer = this.customers.get(email);
    if (!customer) {
      customer = { id: this.nextId++, customer_code: code('CUS'), email };
      this.customers.set(email, customer);
    }
    const tx: FakeTransaction = {
      id: this.nextId++,
      status: 'abandoned',
      reference,
      amount,
      currency: plan?.currency ?? (typeof json.currency === 'string' ? json.currency : 'NGN'),
      channel: null,
      paid_at: null,
      created_at: this.now().toISOString(),
      metadata: typeof json.metadata === 'string' ? json.metadata : null,
      customer,
      plan: plan ?? null,
      access_code: randomBytes(8).toString('hex'),
    };
    this.transactions.set(reference, tx);
    send(200, {
      status: true,
      message: 'Authorization URL created',
      data: {
        authorization_url: `https://checkout.paystack.example/${tx.access_code}`,
        access_code: tx.access_code,
        reference,
      },
    });
  }

  private transactionData(tx: FakeTransaction) {
    return {
      id: tx.id,
      domain: 'test',
      status: tx.status,
      reference: tx.reference,
      amount: tx.amount,
      message: null,
      gateway_response: tx.status === 'success' ? 'Successful' : 'The transaction was not completed',
      paid_at: tx.paid_at,
      created_at: tx.created_at,
      channel: tx.channel,
      currency: tx.currency,
      metadata: tx.metadata,
      customer: {
        ...tx.customer,
        first_name: null,
        last_name: null,
        phone: null,
        metadata: null,
        risk_action: 'default',
      },
      plan: tx.plan ? { ...tx.plan, id: 1 } : {},
      requested_amount: tx.amount,
    };
  }

  private subscriptionData(sub: FakeSubscription) {
    return {
      id: sub.id,
      domain: 'test',
      status: sub.status,
      subscription_code: sub.subscription_code,
      email_token: sub.email_token,
      amount: sub.amount,
      cron_expression: '0 0 1 * *',
      next_payment_date: sub.next_payment_date,
      open_invoice: null,
      createdAt: sub.createdAt,
      updatedAt: sub.updatedAt,
      plan: sub.plan,
      customer: sub.customer,
    };
  }

  private invoiceData(sub: FakeSubscription, paid: boolean, at: Date) {
    return {
      domain: 'test',
      invoice_code: code('INV'),
      amount: sub.amount,
      period_start: at.toISOString(),
      period_end: sub.next_payment_date,
      status: paid ? 'success' : 'failed',
      paid,
      paid_at: paid ? at.toISOString() : null,
      description: null,
      subscription: {
        status: sub.status,
        subscription_code: sub.subscription_code,
        email_token: sub.email_token,
        amount: sub.amount,
        next_payment_date: sub.next_payment_date,
      },
      customer: sub.customer,
      transaction: paid
        ? { reference: code('T'), status: 'success', amount: sub.amount, currency: sub.plan.currency }
        : {},
      created_at: at.toISOString(),
      updated_at: at.toISOString(),
    };
  }
}
