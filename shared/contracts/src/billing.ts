import { SubscriptionTier, User } from './auth';
import { PLANS } from './plans';
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

/** GET /api/billing/plans: the three plans, the premium add-ons and the pricing FAQ. */
export const PlansResponse = z
  .object({ plans: z.array(Plan), addOns: z.array(AddOn), faq: z.array(FaqEntry) })
  .openapi('PlansResponse');
export type PlansResponse = z.infer<typeof PlansResponse>;

export const CheckoutRequest = z
  .object({
    planId: z.enum(PlanId.options, { error: `planId must be one of: ${PlanId.options.join(', ')}` }),
  })
  .openapi('CheckoutRequest');
export type CheckoutRequest = z.infer<typeof CheckoutRequest>;

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
    planId: PlanId,
    planName: z.string(),
    status: PaymentStatus,
    /** US dollars. */
    amount: z.number().nonnegative(),
    currency: z.literal('USD'),
    provider: z.string(),
    createdAt: z.string().datetime(),
    completedAt: z.string().datetime().nullable(),
  })
  .openapi('Payment');
export type Payment = z.infer<typeof Payment>;

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
