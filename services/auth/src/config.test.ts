import { ConfigError } from '@kasa/service-kit';
import { paymentChoicesOf, readConfig } from './config';

const stripe = { STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1', STRIPE_PRICE_PRO: 'price_1' };

function refusal(env: NodeJS.ProcessEnv): string {
  try {
    readConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  throw new Error('the configuration was accepted');
}

describe('who takes payments', () => {
  it('is the built-in provider outside production and nobody in production, when nothing is configured', () => {
    expect(paymentChoicesOf(readConfig({ NODE_ENV: 'development' }))).toEqual(['builtin']);
    expect(paymentChoicesOf(readConfig({ NODE_ENV: 'production' }))).toEqual(['none']);
  });

  it('is the processors whose keys are set, Stripe first', () => {
    expect(paymentChoicesOf(readConfig({ NODE_ENV: 'development', ...stripe }))).toEqual(['stripe']);
    expect(
      paymentChoicesOf(
        readConfig({
          NODE_ENV: 'production',
          ...stripe,
          PAYSTACK_SECRET_KEY: 'sk_p',
          KASA_PUBLIC_URL: 'https://kasa.example',
        }),
      ),
    ).toEqual(['stripe', 'paystack']);
  });

  it('is what KASA_PAYMENTS lists, whatever keys are set', () => {
    expect(paymentChoicesOf(readConfig({ KASA_PAYMENTS: 'builtin', ...stripe }))).toEqual(['builtin']);
    expect(
      paymentChoicesOf(readConfig({ KASA_PAYMENTS: ' Paystack , stripe', ...stripe, PAYSTACK_SECRET_KEY: 'sk_p' })),
    ).toEqual(['paystack', 'stripe']);
  });

  it('refuses to start with a processor whose keys are missing, naming them', () => {
    const message = refusal({ KASA_PAYMENTS: 'stripe', STRIPE_SECRET_KEY: 'sk_test_1' });
    expect(message).toMatch(/STRIPE_WEBHOOK_SECRET: is required when Stripe takes payments/);
    expect(message).toMatch(/STRIPE_PRICE_PRO/);
    expect(refusal({ KASA_PAYMENTS: 'paystack' })).toMatch(/PAYSTACK_SECRET_KEY/);
  });

  it('refuses unknown names, and builtin or none beside a processor', () => {
    expect(refusal({ KASA_PAYMENTS: 'paypal' })).toMatch(/KASA_PAYMENTS/);
    expect(refusal({ KASA_PAYMENTS: 'builtin,stripe', ...stripe })).toMatch(/stand alone/);
  });

  it('needs the public address in production, where the processors send people back to', () => {
    expect(refusal({ NODE_ENV: 'production', ...stripe })).toMatch(/KASA_PUBLIC_URL/);
    expect(
      readConfig({ NODE_ENV: 'production', ...stripe, KASA_PUBLIC_URL: 'https://kasa.example' }).KASA_PUBLIC_URL,
    ).toBe('https://kasa.example');
  });

  it('keeps a plan 7 days after a failed renewal unless told otherwise', () => {
    expect(readConfig({}).BILLING_GRACE_DAYS).toBe(7);
    expect(readConfig({ BILLING_GRACE_DAYS: '3' }).BILLING_GRACE_DAYS).toBe(3);
  });
});
