import type { PlanId } from '@kasa/contracts';

export interface CheckoutRequestToProvider {
  /** Kasa's transaction reference; the provider keeps it with the payment. */
  reference: string;
  userId: string;
  planId: PlanId;
  /** US dollars. */
  amount: number;
  currency: 'USD';
  description: string;
}

/**
 * What the provider did with a checkout: `completed` when the payment went through at once; `pending` when the
 * person must finish it on the provider's own page (`redirectUrl`), after which the provider reports back.
 */
export type ProviderCheckout =
  | { status: 'completed'; providerReference: string }
  | { status: 'pending'; providerReference: string; redirectUrl: string };

/** The boundary between Kasa's billing and whoever takes the money. */
export interface PaymentProvider {
  /** Stored with each payment, e.g. `builtin`, `stripe`. */
  readonly name: string;
  createCheckout(request: CheckoutRequestToProvider): Promise<ProviderCheckout>;
}

/**
 * The provider Kasa runs with when no payment processor is configured: every checkout completes at once, locally,
 * with no card and no network. It stands in for a real processor on development machines and in tests.
 */
export class BuiltInPaymentProvider implements PaymentProvider {
  readonly name = 'builtin';

  async createCheckout(request: CheckoutRequestToProvider): Promise<ProviderCheckout> {
    return { status: 'completed', providerReference: `builtin_${request.reference}` };
  }
}
