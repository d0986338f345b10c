import { SubscriptionTier, User } from './auth';
import { ADD_ON_IDS, PLAN_CURRENCIES, PLANS } from './plans';
import { z } from './zod';

/** A plan's id is the subscription tier it gives. */
export const PlanId = SubscriptionTier;
export type PlanId = SubscriptionTier;

/** An extra that can be bought on top of a plan (the pricing page's premium add-ons row). */
export const AddOn = z
  .object({
    id: z.string(),
    name: z.string(),
    /** US dollars per `period`. */
    price: z.number().nonnegative(),
    period: z.string(),
    description: z.string(),
  })
  .openapi('AddOn');
export type AddOn = z.infer<typeof AddOn>;

/**
 * Monthly API calls each plan includes by default (spec section 9; null: unlimited), from the plans table. The gateway
 * enforces them (its PLAN_*_MONTHLY_CALLS variables override them) and the status service reports usage against them.
 */
export const DEFAULT_MONTHLY_API_CALLS: Readonly<Record<SubscriptionTier, number | null>> = {
  free: PLANS.free.monthlyCalls,
  pro: PLANS.pro.monthlyCalls,
  enterprise: PLANS.enterprise.monthlyCalls,
};

/** Spec section 3's plan, with its monthly API call allowance (null: unlimited). */
export const Plan = z
  .object({
    id: PlanId,
    name: z.string(),
    /** US dollars per `period`. */
    price: z.number().nonnegative(),
    currency: z.literal('USD'),
    period: z.string(),
    description: z.string(),
    monthlyApiCalls: z.number().int().positive().nullable(),
    features: z.array(z.string()),
    limitations: z.array(z.string()),
    /** Names of the add-ons this plan can buy (see PlansResponse.addOns). */
    addOns: z.array(z.string()),
    /** What Enterprise adds on top of Pro; empty for the other plans. */
    enterpriseExtras: z.array(z.string()),
    buttonText: z.string(),
    popular: z.boolean(),
  })
  .openapi('Plan');
export type Plan = z.infer<typeof Plan>;

export const FaqEntry = z.object({ question: z.string(), answer: z.string() }).openapi('FaqEntry');
export type FaqEntry = z.infer<typeof FaqEntry>;

/** GET /api/billing/plans: the three plans, the premium add-ons, the pricing FAQ, and whether payments are real. */
export const PlansResponse = z
  .object({
    plans: z.array(Plan),
    addOns: z.array(AddOn),
    faq: z.array(FaqEntry),
    /**
     * Checkouts take no money on this server (the built-in provider): the web app shows a test-mode banner on every
     * page, to signed-out visitors too (this answer is public). The same as `SubscriptionResponse.testMode`.
     */
    testMode: z.boolean(),
  })
  .openapi('PlansResponse');
export type PlansResponse = z.infer<typeof PlansResponse>;

/** A currency Kasa charges in: US dollars (Stripe), and the cedi, naira and shilling (Paystack). */
export const PaymentCurrency = z
  .enum(PLAN_CURRENCIES, { error: `currency must be one of: ${PLAN_CURRENCIES.join(', ')}` })
  .openapi('PaymentCurrency');

/** What the Enterprise inquiry form asks: who the customer is and how many people would use Kasa. */
export const EnterpriseInquiryDetails = z
  .strictObject({
    company: z.string().trim().min(1, 'company is required').max(120),
    seats: z.number().int().min(1).max(100_000),
    /** A telephone number to call back on (the account's e-mail is always kept). */
    phone: z.string().trim().max(40).optional(),
    message: z.string().trim().max(1_000).optional(),
  })
  .openapi('EnterpriseInquiryDetails');
export type EnterpriseInquiryDetails = z.infer<typeof EnterpriseInquiryDetails>;

export const CheckoutRequest = z
  .object({
    planId: z.enum(PlanId.options, { error: `planId must be one of: ${PlanId.options.join(', ')}` }),
    /** For a plan sold by the sales team (Enterprise): the inquiry form's answers. */
    inquiry: EnterpriseInquiryDetails.optional(),
    /**
     * What to pay in; the server's first currency when absent (USD where Stripe or the built-in provider sells,
     * else the Paystack account's currency). The price is the plan's in that currency (`PLANS[plan].prices`); a
     * currency no configured processor takes is a 400.
     */
    currency: PaymentCurrency.optional(),
  })
  .openapi('CheckoutRequest');
export type CheckoutRequest = z.infer<typeof CheckoutRequest>;

/** A one-off add-on's id (ADD_ONS in the plans table). */
export const AddOnIdSchema = z
  .enum(ADD_ON_IDS, { error: `addOnId must be one of: ${ADD_ON_IDS.join(', ')}` })
  .openapi('AddOnId');

/**
 * POST /api/billing/add-ons/checkout: buy one pack of an add-on through the same checkout and processors as a plan
 * (a one-off payment). Only a plan that the plans table lets buy it may (403 naming the plan otherwise).
 */
export const AddOnCheckoutRequest = z
  .object({
    addOnId: AddOnIdSchema,
    /** As in CheckoutRequest; the price is `ADD_ONS[addOnId].prices[currency]`. */
    currency: PaymentCurrency.optional(),
  })
  .openapi('AddOnCheckoutRequest');
export type AddOnCheckoutRequest = z.infer<typeof AddOnCheckoutRequest>;

/** Transaction references: `KASA-` and ten characters of an unambiguous upper-case alphabet. */
export const PAYMENT_REFERENCE_PATTERN = /^KASA-[0-9A-HJKMNP-TV-Z]{10}$/;
export const PaymentReference = z
  .string()
  .regex(PAYMENT_REFERENCE_PATTERN, 'reference must look like KASA-XXXXXXXXXX')
  .openapi('PaymentReference');

export const PaymentStatus = z.enum(['pending', 'completed', 'failed']).openapi('PaymentStatus');
export type PaymentStatus = z.infer<typeof PaymentStatus>;

/** A checkout as its owner sees it (GET /api/billing/checkout/{reference}). */
export const Payment = z
  .object({
    reference: PaymentReference,
    /** The plan bought; for an add-on, the plan the person had when buying it. */
    planId: PlanId,
    planName: z.string(),
    /** The add-on bought (a one-off pack), or null for a plan. */
    addOnId: AddOnIdSchema.nullable(),
    /** For an extra-calls pack: the API calls it adds to its month. */
    calls: z.number().int().positive().nullable(),
    /** What was bought, in words: `Kasa Pro plan, 1 month`, `Extra API calls: 10,000 calls`. */
    description: z.string(),
    status: PaymentStatus,
    /** In `currency`'s major unit (dollars, cedis, naira, shillings). */
    amount: z.number().nonnegative(),
    currency: PaymentCurrency,
    /** Who takes the money: `stripe`, `paystack`, or `builtin` (test mode: no money). */
    provider: z.string(),
    createdAt: z.string().datetime(),
    completedAt: z.string().datetime().nullable(),
  })
  .openapi('Payment');
export type Payment = z.infer<typeof Payment>;

/** GET /api/billing/history: a page of at most `limit` (1–50, 20 by default) payments, before a cursor. */
export const BillingHistoryQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(50).default(20),
    /** `nextCursor` of the page before. */
    cursor: z
      .string()
      .regex(/^[0-9a-f]{24}$/, 'cursor must be the nextCursor of an earlier page')
      .optional(),
  })
  .openapi('BillingHistoryQuery');
export type BillingHistoryQuery = z.infer<typeof BillingHistoryQuery>;

/** A completed payment in the history, with where its receipt is. */
export const BillingHistoryEntry = Payment.extend({
  /** The receipt as a page (HTML) and as a PDF; both need the owner's credentials. */
  receiptUrl: z.string(),
  receiptPdfUrl: z.string(),
}).openapi('BillingHistoryEntry');
export type BillingHistoryEntry = z.infer<typeof BillingHistoryEntry>;

/** GET /api/billing/history: the caller's completed payments, newest first. */
export const BillingHistoryResponse = z
  .object({
    payments: z.array(BillingHistoryEntry),
    /** Pass as `cursor` for the next (older) page; null on the last page. */
    nextCursor: z.string().nullable(),
  })
  .openapi('BillingHistoryResponse');
export type BillingHistoryResponse = z.infer<typeof BillingHistoryResponse>;

/**
 * POST /api/billing/checkout answers with one of three outcomes:
 * - `already_on_plan` (200): nothing to buy (Free, or the plan the person already has);
 * - `inquiry_received` (202): Enterprise is sold by the sales team, who will get in touch;
 * - `checkout` (201): a payment was created; when it completed at once, `token` is a fresh access token that
 *   carries the new tier and `user` the updated account.
 */
export const CheckoutResponse = z
  .discriminatedUnion('outcome', [
    z.object({ outcome: z.literal('already_on_plan'), planId: PlanId, message: z.string() }),
    z.object({
      outcome: z.literal('inquiry_received'),
      planId: z.literal('enterprise'),
      inquiryId: z.string(),
      message: z.string(),
    }),
    z.object({
      outcome: z.literal('checkout'),
      planId: PlanId,
      reference: PaymentReference,
      status: PaymentStatus,
      /** Where the browser goes next: `/billing/success?reference=…` once paid, else the provider's page. */
      redirectUrl: z.string(),
      payment: Payment,
      token: z.string().optional(),
      user: User.optional(),
      message: z.string(),
    }),
  ])
  .openapi('CheckoutResponse');
export type CheckoutResponse = z.infer<typeof CheckoutResponse>;

/**
 * Who bills a subscription: Stripe, Paystack, the built-in provider (test mode, no money), or `contract`: an
 * Enterprise contract agreed with sales and recorded by an operator (invoiced outside Kasa; it ends on its end date).
 */
export const BillingProcessor = z.enum(['stripe', 'paystack', 'builtin', 'contract']).openapi('BillingProcessor');
export type BillingProcessor = z.infer<typeof BillingProcessor>;

/**
 * - `active`: paid for the current period (it renews unless `cancelAtPeriodEnd`);
 * - `past_due`: a renewal failed; the plan is kept until `graceUntil` while the processor retries, then Free;
 * - `canceled`: ended; the plan is kept until `endedAt` (the end of the period paid for), then Free.
 * Moving to Free keeps every conversation, key and setting: only what the plan allows changes.
 */
export const SubscriptionStatus = z.enum(['active', 'past_due', 'canceled']).openapi('SubscriptionStatus');
export type SubscriptionStatus = z.infer<typeof SubscriptionStatus>;

/** The caller's subscription as Kasa's billing knows it (GET /api/billing/subscription). */
export const Subscription = z
  .object({
    processor: BillingProcessor,
    planId: PlanId,
    planName: z.string(),
    status: SubscriptionStatus,
    /** The plan the account has because of this subscription right now (`free` once it has lapsed). */
    effectiveTier: SubscriptionTier,
    /** In `currency`'s major unit, per month. */
    amount: z.number().nonnegative(),
    currency: PaymentCurrency,
    /** The end of the period paid for; null until the processor has said. */
    currentPeriodEnd: z.string().datetime().nullable(),
    /** The subscription ends at `currentPeriodEnd` instead of renewing (it can be resumed until then). */
    cancelAtPeriodEnd: z.boolean(),
    /** While `past_due`: when the plan goes back to Free unless a payment goes through. */
    graceUntil: z.string().datetime().nullable(),
    /** While `canceled`: when the plan ended or ends. */
    endedAt: z.string().datetime().nullable(),
    /** The payment that started it. */
    reference: PaymentReference,
    /** POST /api/billing/portal answers a page to change the card or cancel (false for a prepaid month). */
    canManage: z.boolean(),
    /** POST /api/billing/subscription/cancel applies. */
    canCancel: z.boolean(),
    /** POST /api/billing/subscription/resume applies. */
    canResume: z.boolean(),
    /** An Enterprise contract's seats (`processor: 'contract'`); null otherwise. */
    seats: z.number().int().positive().nullable(),
  })
  .openapi('Subscription');
export type Subscription = z.infer<typeof Subscription>;

/** GET /api/billing/subscription and the answer of cancel and resume. */
export const SubscriptionResponse = z
  .object({
    /** null when the person has never bought a plan. */
    subscription: Subscription.nullable(),
    /** Checkouts take no money on this server (the built-in provider): the web app shows a test-mode banner. */
    testMode: z.boolean(),
  })
  .openapi('SubscriptionResponse');
export type SubscriptionResponse = z.infer<typeof SubscriptionResponse>;

/** POST /api/billing/portal: where the person changes their card or cancels, for a few minutes. */
export const BillingPortalResponse = z
  .object({
    /** Stripe's Customer Portal, Paystack's subscription page, or Kasa's own settings page in test mode. */
    url: z.string(),
    processor: BillingProcessor,
  })
  .openapi('BillingPortalResponse');
export type BillingPortalResponse = z.infer<typeof BillingPortalResponse>;
