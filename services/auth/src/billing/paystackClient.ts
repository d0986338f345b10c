import { z } from 'zod';

// A small typed client over Paystack's documented REST API (https://paystack.com/docs/api/): the few calls Kasa
// makes, each answer validated before it is read. Amounts are in the currency's subunit (pesewas, kobo, cents).

export interface PaystackClientOptions {
  secretKey: string;
  /** https://api.paystack.co, or a fake in tests. */
  baseUrl: string;
  /** Per request; Paystack answers in well under a second. */
  timeoutMs?: number;
}

/** A plan's code from the many shapes Paystack gives it in (an object, a code, an empty object, null). */
const PlanCode = z.unknown().transform((plan): string | null => {
  if (typeof plan === 'string') return plan.startsWith('PLN_') ? plan : null;
  if (plan && typeof plan === 'object' && 'plan_code' in plan && typeof plan.plan_code === 'string')
    return plan.plan_code;
  return null;
});

/** A customer's code from a customer object (or null when Paystack gives only its numeric id). */
const CustomerCode = z
  .unknown()
  .transform((customer): string | null =>
    customer &&
    typeof customer === 'object' &&
    'customer_code' in customer &&
    typeof customer.customer_code === 'string'
      ? customer.customer_code
      : null,
  );

export const PaystackTransaction = z.object({
  id: z.number(),
  /** success, failed, abandoned, ongoing, pending, processing, queued, reversed. */
  status: z.string(),
  reference: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  paid_at: z.string().nullish(),
  channel: z.string().nullish(),
  customer: z.object({ customer_code: z.string(), email: z.string() }),
  plan: PlanCode.optional(),
});
export type PaystackTransaction = z.infer<typeof PaystackTransaction>;

export const PaystackSubscription = z.object({
  subscription_code: z.string(),
  email_token: z.string().nullish(),
  /** active, non-renewing, attention (a renewal failed), completed, cancelled. */
  status: z.string(),
  next_payment_date: z.string().nullish(),
  plan: PlanCode.optional(),
  customer: CustomerCode.optional(),
  createdAt: z.string().nullish(),
  updatedAt: z.string().nullish(),
});
export type PaystackSubscription = z.infer<typeof PaystackSubscription>;

const PaystackCustomer = z.object({
  customer_code: z.string(),
  email: z.string(),
  subscriptions: z.array(PaystackSubscription).default([]),
});
export type PaystackCustomer = z.infer<typeof PaystackCustomer>;

const Initialized = z.object({ authorization_url: z.string(), access_code: z.string(), reference: z.string() });
const ManageLink = z.object({ link: z.string() });

/** Paystack refused a call or answered something unexpected. `status` is the HTTP status (0: no answer). */
export class PaystackError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'PaystackError';
  }
}

export interface InitializeTransaction {
  email: string;
  /** In the subunit of `currency`. */
  amount: number;
  currency: string;
  reference: string;
  callback_url: string;
  /** A plan's code: Paystack then subscribes the customer to it (by card) and charges the plan's amount. */
  plan?: string;
  channels?: string[];
  metadata?: Record<string, unknown>;
}

export class PaystackClient {
  private readonly baseUrl: string;

  constructor(private readonly options: PaystackClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  /** POST /transaction/initialize: the page the person pays on. */
  async initializeTransaction(body: InitializeTransaction): Promise<z.infer<typeof Initialized>> {
    const { metadata, ...rest } = body;
    return this.call('POST', '/transaction/initialize', Initialized, {
      ...rest,
      ...(metadata ? { metadata: JSON.stringify(metadata) } : {}),
    });
  }

  /** GET /transaction/verify/:reference; null when Paystack knows no such reference. */
  async verifyTransaction(reference: string): Promise<PaystackTransaction | null> {
    try {
      return await this.call('GET', `/transaction/verify/${encodeURIComponent(reference)}`, PaystackTransaction);
    } catch (err) {
      if (err instanceof PaystackError && (err.status === 400 || err.status === 404)) return null;
      throw err;
    }
  }

  /** GET /subscription/:code. */
  fetchSubscription(code: string): Promise<PaystackSubscription> {
    return this.call('GET', `/subscription/${encodeURIComponent(code)}`, PaystackSubscription);
  }

  /** GET /customer/:code, with the customer's subscriptions. */
  fetchCustomer(code: string): Promise<PaystackCustomer> {
    return this.call('GET', `/customer/${encodeURIComponent(code)}`, PaystackCustomer);
  }

  /** POST /subscription/disable: it will not renew (the customer keeps what was paid for). */
  async disableSubscription(code: string, token: string): Promise<void> {
    await this.call('POST', '/subscription/disable', z.unknown(), { code, token });
  }

  /** POST /subscription/enable: it renews again. */
  async enableSubscription(code: string, token: string): Promise<void> {
    await this.call('POST', '/subscription/enable', z.unknown(), { code, token });
  }

  /** GET /subscription/:code/manage/link: Paystack's page to change the card of (or cancel) a subscription. */
  async manageLink(code: string): Promise<string> {
    return (await this.call('GET', `/subscription/${encodeURIComponent(code)}/manage/link`, ManageLink)).link;
  }

  private async call<S extends z.ZodType>(
    method: 'GET' | 'POST',
    path: string,
    data: S,
    body?: Record<string, unknown>,
  ): Promise<z.output<S>> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.options.secretKey}`,
          accept: 'application/json',
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 20_000),
      });
    } catch (err) {
      throw new PaystackError(`Paystack ${method} ${path}: ${err instanceof Error ? err.message : String(err)}`, 0);
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new PaystackError(`Paystack ${method} ${path}: ${res.status} with a body that is not JSON`, res.status);
    }
    const envelope = z
      .object({ status: z.boolean(), message: z.string().default(''), data: z.unknown().optional() })
      .safeParse(json);
    if (!res.ok || !envelope.success || !envelope.data.status) {
      const message = envelope.success ? envelope.data.message : 'an unexpected answer';
      throw new PaystackError(`Paystack ${method} ${path}: ${res.status} ${message}`, res.status);
    }
    const parsed = data.safeParse(envelope.data.data);
    if (!parsed.success)
      throw new PaystackError(
        `Paystack ${method} ${path}: unexpected data (${parsed.error.issues[0]?.message})`,
        res.status,
      );
    return parsed.data;
  }
}
