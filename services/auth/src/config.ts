import { baseServiceEnv, envBoolean, envPort, loadConfig } from '@kasa/service-kit';
import path from 'node:path';
import { z } from 'zod';

/** What KASA_PAYMENTS may name. */
export const PAYMENT_CHOICES = ['builtin', 'none', 'stripe', 'paystack'] as const;
export type PaymentChoice = (typeof PAYMENT_CHOICES)[number];

const schema = baseServiceEnv.extend({
  AUTH_PORT: envPort(4001),
  AUTH_HOST: z.string().default('127.0.0.1'),
  AUTH_DB_NAME: z.string().default('kasa_auth'),
  /** The durable queue `kasa.<name>` the audit consumer reads; every replica shares it (one per deployment). */
  AUTH_CONSUMER_NAME: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/, "must be letters, digits, '.', '_' or '-'")
    .default('auth'),
  /** PEM of the RS256 signing key. When absent, a key is generated once and kept in AUTH_KEYS_DIR. */
  JWT_PRIVATE_KEY: z.string().optional(),
  AUTH_KEYS_DIR: z.string().default(path.resolve(__dirname, '../../../.data/auth')),
  JWT_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 24 * 3600)
    .default(7 * 24 * 3600),
  /**
   * Who takes payments (docs/adr/0014-payments-webhooks-and-reconciliation.md): `stripe`, `paystack`, or both
   * (`stripe,paystack`: each sells in its own currencies); `builtin` completes every checkout locally with no money
   * (development, tests, the local platform of `npm start`, with a test-mode banner); `none` sells nothing. Default:
   * the processors whose secret key is set; else builtin outside production and none in production.
   */
  KASA_PAYMENTS: z
    .string()
    .optional()
    .transform((value) =>
      value === undefined || value.trim() === ''
        ? undefined
        : [...new Set(value.split(',').map((name) => name.trim().toLowerCase()))],
    )
    .pipe(z.array(z.enum(PAYMENT_CHOICES, { error: `must list ${PAYMENT_CHOICES.join(', ')}` })).optional())
    .refine((choices) => !choices || choices.length === 1 || choices.every((c) => c === 'stripe' || c === 'paystack'), {
      error: 'builtin and none stand alone; only stripe and paystack combine (stripe,paystack)',
    }),
  /** Where people reach Kasa (the gateway's public origin): the processors send them back to its pages. */
  KASA_PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  /** Stripe: the secret key (`sk_live_…`, `sk_test_…`), the webhook endpoint's signing secret and Pro's Price. */
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  STRIPE_PRICE_PRO: z.string().min(1).optional(),
  /** Another address for Stripe's API (stripe-mock in tests), e.g. http://127.0.0.1:12111. */
  STRIPE_API_BASE: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  /** How old a signed Stripe event may be, in seconds (replays of older ones are refused). */
  STRIPE_WEBHOOK_TOLERANCE_SECONDS: z.coerce.number().int().min(10).max(3600).default(300),
  /** Paystack: the secret key (it also signs Paystack's webhooks) and the currency the account charges in. */
  PAYSTACK_SECRET_KEY: z.string().min(1).optional(),
  PAYSTACK_CURRENCY: z.enum(['GHS', 'NGN', 'KES']).default('GHS'),
  /**
   * Pro's Paystack plan code (`PLN_…`, monthly, in PAYSTACK_CURRENCY): Paystack then renews by card every month. Without
   * it, a Paystack payment buys one month (cards and mobile money) that does not renew.
   */
  PAYSTACK_PLAN_PRO: z.string().min(1).optional(),
  /** Another address for Paystack's API (a fake in tests). */
  PAYSTACK_API_BASE: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .default('https://api.paystack.co'),
  /** Days a plan is kept after a renewal fails, while the processor retries; then the account is on Free. */
  BILLING_GRACE_DAYS: z.coerce.number().min(0).max(60).default(7),
  /** How often subscriptions and pending payments are reconciled with the processors. */
  BILLING_SYNC_INTERVAL_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(300_000),
  /**
   * E-mail addresses whose accounts are operators while they are listed here (comma-separated): the way to name the
   * operators of an installation in its configuration (k8s secret, compose file) instead of with the setup link.
   */
  KASA_OPERATOR_EMAILS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((email) => email.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.email({ error: 'KASA_OPERATOR_EMAILS must list e-mail addresses' }))),
  /**
   * The key that encrypts secrets kept in the database (teams' single sign-on client secrets): base64 of 32 bytes.
   * Needed in production for single sign-on (without it SSO answers 503); elsewhere a key is generated once into
   * AUTH_KEYS_DIR/secrets-key.
   */
  AUTH_SECRETS_KEY: z
    .string()
    .optional()
    .refine((value) => value === undefined || Buffer.from(value, 'base64').length === 32, {
      error: 'must be base64 of 32 random bytes (openssl rand -base64 32)',
    }),
  /**
   * The SMTP server account notices are e-mailed through: `smtp://user:pass@host:587` (STARTTLS when the server
   * offers it) or `smtps://user:pass@host:465` (TLS from the start); user and password URL-encoded. Never logged.
   * Unset: outside production each e-mail is written as an `.eml` file into KASA_MAIL_DIR; in production e-mail is off.
   */
  SMTP_URL: z
    .string()
    .optional()
    .transform((value) => (value?.trim() ? value.trim() : undefined))
    .refine((value) => value === undefined || isSmtpUrl(value), {
      error: 'must be an smtp:// or smtps:// URL with a host, e.g. smtp://user:pass@smtp.example.com:587',
    }),
  /** Who the notices come from: `Kasa <no-reply@kasa.example>` or a bare address. Required in production with SMTP_URL. */
  MAIL_FROM: z
    .string()
    .optional()
    .transform((value) => (value?.trim() ? value.trim() : undefined))
    .refine((value) => value === undefined || isSenderAddress(value), {
      error: 'must be an e-mail address, alone or as Name <address>',
    }),
  /** Where e-mails are written as `.eml` files when SMTP_URL is not set (outside production). */
  KASA_MAIL_DIR: z.string().default(path.resolve(__dirname, '../../../.data/mail')),
  /** Let teams name an identity provider on plain http (a test's or a local one); never in production. */
  SSO_ALLOW_HTTP_ISSUERS: envBoolean(false),
  /** Mark the session cookie Secure (set true behind HTTPS). */
  COOKIE_SECURE: envBoolean(false),
  /** API keys' "last used" times are written in one batch this often (never while the gateway waits). */
  API_KEY_USAGE_FLUSH_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  /** Keys whose last use waits to be written at most (while the database is away); further uses are not recorded. */
  API_KEY_USAGE_MAX_PENDING: z.coerce.number().int().min(100).max(1_000_000).default(10_000),
  /**
   * Origins of Kasa's web app besides the one a request addresses (comma-separated, like the gateway's WEB_ORIGIN):
   * a browser navigation from them may sign out; one from any other site is refused.
   */
  WEB_ORIGIN: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.url({ protocol: /^https?$/, error: 'WEB_ORIGIN must list origins like http://localhost:8080' })))
    .transform((urls) => urls.map((url) => new URL(url).origin)),
});

/** A processor named by KASA_PAYMENTS must have its keys; in production the processors need the public URL. */
const withPaymentChecks = schema.superRefine((env, ctx) => {
  const chosen = paymentChoicesOf(env);
  const need = (name: keyof typeof env, why: string) => {
    if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: `is required ${why}` });
  };
  if (chosen.includes('stripe')) {
    for (const name of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_PRO'] as const)
      need(name, 'when Stripe takes payments');
  }
  if (chosen.includes('paystack')) need('PAYSTACK_SECRET_KEY', 'when Paystack takes payments');
  // Without AUTH_SECRETS_KEY a production service still starts (existing deployments), but refuses single sign-on.
  if (env.NODE_ENV === 'production' && env.SSO_ALLOW_HTTP_ISSUERS)
    ctx.addIssue({ code: 'custom', path: ['SSO_ALLOW_HTTP_ISSUERS'], message: 'must not be true in production' });
  if (env.NODE_ENV === 'production' && chosen.some((c) => c === 'stripe' || c === 'paystack'))
    need('KASA_PUBLIC_URL', 'in production with a payment processor (where the processors send people back)');
  // A sender the mail server's domain does not vouch for is refused or filtered as spam: name it in production.
  if (env.NODE_ENV === 'production' && env.SMTP_URL)
    need('MAIL_FROM', 'in production with SMTP_URL (the address the notices come from)');
});

/** An smtp:// or smtps:// URL naming a host (its credentials are not checked here, nor ever shown). */
function isSmtpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** `address@domain` or `Display Name <address@domain>`. */
function isSenderAddress(value: string): boolean {
  const match = /^(?:[^<>]*<([^<>\s]+)>|([^<>\s]+))$/.exec(value);
  const address = match?.[1] ?? match?.[2];
  return !!address && z.email().safeParse(address).success;
}

/** The sender of the notices: MAIL_FROM, else Kasa at no-reply of the public address's host. */
export function mailFromOf(env: Pick<AuthConfig, 'MAIL_FROM' | 'KASA_PUBLIC_URL'>): string {
  if (env.MAIL_FROM) return env.MAIL_FROM;
  const host = env.KASA_PUBLIC_URL ? new URL(env.KASA_PUBLIC_URL).hostname : 'localhost';
  return `Kasa <no-reply@${host.includes('.') ? host : `${host}.localdomain`}>`;
}

/**
 * Who takes payments: KASA_PAYMENTS when set; else the processors whose secret key is set; else the built-in provider
 * outside production and none in production.
 */
export function paymentChoicesOf(
  env: Pick<AuthConfig, 'NODE_ENV' | 'KASA_PAYMENTS' | 'STRIPE_SECRET_KEY' | 'PAYSTACK_SECRET_KEY'>,
): PaymentChoice[] {
  if (env.KASA_PAYMENTS) return env.KASA_PAYMENTS;
  const configured: PaymentChoice[] = [];
  if (env.STRIPE_SECRET_KEY) configured.push('stripe');
  if (env.PAYSTACK_SECRET_KEY) configured.push('paystack');
  if (configured.length > 0) return configured;
  return [env.NODE_ENV === 'production' ? 'none' : 'builtin'];
}

export type AuthConfig = z.output<typeof schema>;

export function readConfig(env: NodeJS.ProcessEnv = process.env): AuthConfig {
  return loadConfig(withPaymentChecks, env);
}
