import { Email } from './auth';
import { z } from './zod';

/**
 * Single sign-on per team (OpenID Connect, Enterprise): the team's owner names its identity provider (issuer, client id
 * and secret) and the e-mail domains it covers; people of those domains sign in through the provider.
 */

/** At most this many e-mail domains per team. */
export const MAX_SSO_DOMAINS = 20;

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Whether `domain` (lower-cased) is a host name an e-mail address can end in: two labels or more, each letters,
 * digits and inner hyphens, and a last label that is not all digits (so never an IP address).
 */
export function isSsoDomain(domain: string): boolean {
  if (domain.length > 253) return false;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return false;
  return !/^\d+$/.test(labels[labels.length - 1]!);
}

/** The domain of an e-mail address, lower-cased ('' when it has none). */
export function emailDomainOf(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0
    ? ''
    : email
        .slice(at + 1)
        .trim()
        .toLowerCase();
}

export const SsoDomain = z.string({ error: 'each domain must be text' }).trim().toLowerCase().refine(isSsoDomain, {
  error: 'each domain must be a name like example.com: letters, digits and hyphens, two parts or more, no IP address',
});

/** PUT /api/developer/team/sso. The secret may be left out on an update: the stored one is kept. */
export const TeamSsoSettingsRequest = z
  .object({
    issuer: z
      .string({ error: 'issuer is required' })
      .trim()
      .max(500, 'issuer must be at most 500 characters')
      .pipe(z.url({ protocol: /^https?$/, error: 'issuer must be an https URL' })),
    clientId: z
      .string({ error: 'clientId is required' })
      .trim()
      .min(1, 'clientId is required')
      .max(255, 'clientId must be at most 255 characters'),
    clientSecret: z
      .string({ error: 'clientSecret must be text' })
      .min(1, 'clientSecret must not be empty')
      .max(1000, 'clientSecret must be at most 1000 characters')
      .optional(),
    domains: z
      .array(SsoDomain, { error: 'domains must be a list of e-mail domains' })
      .min(1, 'domains must name at least one e-mail domain')
      .max(MAX_SSO_DOMAINS, `domains may name at most ${MAX_SSO_DOMAINS} e-mail domains`)
      .refine((list) => new Set(list).size === list.length, { error: 'domains must not repeat a domain' }),
    requireSso: z.boolean({ error: 'requireSso must be true or false' }).default(false),
  })
  .openapi('TeamSsoSettingsRequest');
export type TeamSsoSettingsRequest = z.infer<typeof TeamSsoSettingsRequest>;

/** The team's single sign-on as its owner sees it: never the secret, only whether one is stored. */
export const TeamSsoSettings = z
  .object({
    issuer: z.string(),
    clientId: z.string(),
    clientSecret: z.enum(['set', 'unset']),
    domains: z.array(z.string()),
    requireSso: z.boolean(),
    redirectUri: z.string(),
    updatedAt: z.string().datetime(),
  })
  .openapi('TeamSsoSettings');
export type TeamSsoSettings = z.infer<typeof TeamSsoSettings>;

/** GET /api/developer/team/sso: `sso: null` while the team has none. */
export const TeamSsoResponse = z
  .object({ sso: TeamSsoSettings.nullable(), redirectUri: z.string() })
  .openapi('TeamSsoResponse');
export type TeamSsoResponse = z.infer<typeof TeamSsoResponse>;

/** POST /api/auth/sso/start: the address whose domain names the team. */
export const SsoStartRequest = z.object({ email: Email }).openapi('SsoStartRequest');
export type SsoStartRequest = z.infer<typeof SsoStartRequest>;
export const SsoStartResponse = z.object({ redirectUrl: z.string() }).openapi('SsoStartResponse');
export type SsoStartResponse = z.infer<typeof SsoStartResponse>;

/** POST /api/auth/sso/complete: the one-time code the callback put in the page's address. */
export const SsoCompleteRequest = z
  .object({
    code: z
      .string({ error: 'code is required' })
      .min(20, 'code is not a sign-in code')
      .max(100, 'code is not a sign-in code')
      .regex(/^[A-Za-z0-9_-]+$/, 'code is not a sign-in code'),
  })
  .openapi('SsoCompleteRequest');
export type SsoCompleteRequest = z.infer<typeof SsoCompleteRequest>;

/**
 * Why a single sign-on did not finish, as `/auth/sso/callback?error=<reason>` says it to the sign-in page (and, with
 * `sso_` in front, the `auth.user.sign_in_failed` event).
 */
export const SSO_ERROR_REASONS = [
  'invalid_state',
  'wrong_audience',
  'token_expired',
  'token_invalid',
  'domain_not_in_team',
  'email_not_verified',
  'account_in_other_team',
  'account_suspended',
  'no_seats',
  'idp_error',
] as const;
export type SsoErrorReason = (typeof SSO_ERROR_REASONS)[number];
