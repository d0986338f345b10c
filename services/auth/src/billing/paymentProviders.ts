import { paymentChoicesOf, type AuthConfig } from '../config';
import { BuiltInPaymentProvider, UnconfiguredPaymentProvider, type PaymentProvider } from './paymentProvider';
import { PaystackProvider } from './paystackProvider';
import { StripeProvider } from './stripeProvider';

/** The settings that choose and configure the payment providers. */
export type PaymentSettings = Pick<AuthConfig, 'NODE_ENV'> &
  Partial<
    Pick<
      AuthConfig,
      | 'KASA_PAYMENTS'
      | 'STRIPE_SECRET_KEY'
      | 'STRIPE_WEBHOOK_SECRET'
      | 'STRIPE_PRICE_PRO'
      | 'STRIPE_API_BASE'
      | 'STRIPE_WEBHOOK_TOLERANCE_SECONDS'
      | 'PAYSTACK_SECRET_KEY'
      | 'PAYSTACK_CURRENCY'
      | 'PAYSTACK_PLAN_PRO'
      | 'PAYSTACK_API_BASE'
    >
  >;

function required(value: string | undefined, name: string): string {
  if (!value) throw new Error(`${name} is required for the payment provider KASA_PAYMENTS chooses`);
  return value;
}

/**
 * The providers that take payments, in the order KASA_PAYMENTS gives (see `paymentChoicesOf`): a checkout goes to
 * the first that sells in the currency asked for, and each processor's webhooks and sync are served.
 */
export function paymentProvidersFor(settings: PaymentSettings): PaymentProvider[] {
  return paymentChoicesOf(settings).map((choice): PaymentProvider => {
    switch (choice) {
      case 'stripe':
        return new StripeProvider({
          secretKey: required(settings.STRIPE_SECRET_KEY, 'STRIPE_SECRET_KEY'),
          webhookSecret: required(settings.STRIPE_WEBHOOK_SECRET, 'STRIPE_WEBHOOK_SECRET'),
          pricePro: required(settings.STRIPE_PRICE_PRO, 'STRIPE_PRICE_PRO'),
          apiBase: settings.STRIPE_API_BASE,
          toleranceSeconds: settings.STRIPE_WEBHOOK_TOLERANCE_SECONDS ?? 300,
        });
      case 'paystack':
        return new PaystackProvider({
          secretKey: required(settings.PAYSTACK_SECRET_KEY, 'PAYSTACK_SECRET_KEY'),
          baseUrl: settings.PAYSTACK_API_BASE ?? 'https://api.paystack.co',
          currency: settings.PAYSTACK_CURRENCY ?? 'GHS',
          planPro: settings.PAYSTACK_PLAN_PRO,
        });
      case 'builtin':
        return new BuiltInPaymentProvider();
      case 'none':
        return new UnconfiguredPaymentProvider();
    }
  });
}
