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
  /** Takes no real money (the built-in provider): the web app shows a test-mode banner. */
  readonly testMode?: boolean;
  /** Set when no checkout can be taken at all: the checkout answers 503 with this and grants nothing. */
  readonly unavailable?: string;
  createCheckout(request: CheckoutRequestToProvider): Promise<ProviderCheckout>;
}

/**
 * The provider Kasa runs with when no payment processor is configured: every checkout completes at once, locally,
 * with no card and no network. It stands in for a real processor on development machines and in tests.
 */
export class BuiltInPaymentProvider implements PaymentProvider {
  readonly name = 'builtin';
  readonly testMode = true;

  async createCheckout(request: CheckoutRequestToProvider): Promise<ProviderCheckout> {
    return { status: 'completed', providerReference: `builtin_${request.reference}` };
  }
}

/** Production with no processor configured: nothing is sold, rather than plans given away. */
export class UnconfiguredPaymentProvider implements PaymentProvider {
  readonly name = 'none';
  readonly unavailable =
    'Payments are not configured on this server, so plans cannot be bought yet. Please try again later.';

  createCheckout(): Promise<ProviderCheckout> {
    return Promise.reject(new Error(this.unavailable));
  }
}

/**
 * The provider configuration chooses: `KASA_PAYMENTS=builtin` (development, tests and the local platform of
 * `npm start`), or by default the built-in one outside production and none in production.
 */
export function paymentProviderFor(settings: {
  NODE_ENV: 'development' | 'production' | 'test';
  KASA_PAYMENTS?: 'builtin' | 'none';
}): PaymentProvider {
  const choice = settings.KASA_PAYMENTS ?? (settings.NODE_ENV === 'production' ? 'none' : 'builtin');
  return choice === 'builtin' ? new BuiltInPaymentProvider() : new UnconfiguredPaymentProvider();
}
