import { SubscriptionTier } from './auth';
import { z } from './zod';

/**
 * What an API key may call. Each public API pipeline of the gateway asks for one scope:
 * `chat` (/api/personas, /api/chat/*, /v1/*), `voice` (/api/voice/*, /api/translate, /api/video/*),
 * `analytics` (/api/developer/services/*, /api/developer/analytics, /api/analytics/*, /api/developer/webhooks*).
 */
export const ApiKeyScope = z.enum(['chat', 'voice', 'analytics']).openapi('ApiKeyScope');
export type ApiKeyScope = z.infer<typeof ApiKeyScope>;
export const API_KEY_SCOPES = ApiKeyScope.options;

/** Every API key starts with this, so the gateway tells keys from access tokens (JWTs start with `eyJ`). */
export const API_KEY_PREFIX = 'ksk_';
/** `ksk_` and 43 base64url characters (32 random bytes). */
export const API_KEY_PATTERN = /^ksk_[A-Za-z0-9_-]{43}$/;
/** How many keys that are neither revoked nor expired one person may hold. */
export const MAX_ACTIVE_API_KEYS = 25;

export const CreateApiKeyRequest = z
  .object({
    name: z
      .string({ error: 'name is required' })
      .trim()
      .min(1, 'name is required')
      .max(60, 'name must be at most 60 characters')
      .regex(/^[^\p{Cc}]+$/u, 'name must not contain control characters'),
    /** Days until the key stops working; absent or null: it never expires. */
    expiresInDays: z
      .number({ error: 'expiresInDays must be a whole number of days from 1 to 365' })
      .int('expiresInDays must be a whole number of days from 1 to 365')
      .min(1, 'expiresInDays must be a whole number of days from 1 to 365')
      .max(365, 'expiresInDays must be a whole number of days from 1 to 365')
      .nullish(),
    /** Absent: every scope. */
    scopes: z
      .array(ApiKeyScope, { error: `scopes must be a list of: ${API_KEY_SCOPES.join(', ')}` })
      .min(1, 'scopes must name at least one scope (or be left out for all of them)')
      .max(API_KEY_SCOPES.length)
      .refine((scopes) => new Set(scopes).size === scopes.length, 'scopes must not repeat a scope')
      .optional(),
    /** true: the key belongs to the caller's team (owners and admins only) and calls on it count on the team's quota. */
    team: z.boolean({ error: 'team must be true or false' }).optional(),
  })
  .openapi('CreateApiKeyRequest');
export type CreateApiKeyRequest = z.infer<typeof CreateApiKeyRequest>;

/** An API key as its owner sees it after creation: never the key itself, only its masked form. */
export const ApiKey = z
  .object({
    id: z.string(),
    name: z.string(),
    /** e.g. `ksk_ab12…wxyz`: the first eight and the last four characters of the key. */
    maskedKey: z.string(),
    scopes: z.array(ApiKeyScope),
    createdAt: z.string().datetime(),
    expiresAt: z.string().datetime().nullable(),
    /** Updated at most once a minute. */
    lastUsedAt: z.string().datetime().nullable(),
    revokedAt: z.string().datetime().nullable(),
    /** The team the key belongs to, or null for a personal key. */
    teamId: z.string().nullable(),
  })
  .openapi('ApiKey');
export type ApiKey = z.infer<typeof ApiKey>;

export const CreateApiKeyResponse = z
  .object({
    /** The full key. It is shown in this response only; Kasa keeps just a hash of it. */
    secret: z.string(),
    key: ApiKey,
    message: z.string(),
  })
  .openapi('CreateApiKeyResponse');
export type CreateApiKeyResponse = z.infer<typeof CreateApiKeyResponse>;

export const ApiKeyList = z.object({ keys: z.array(ApiKey) }).openapi('ApiKeyList');
export type ApiKeyList = z.infer<typeof ApiKeyList>;

/** Body of the auth service's internal POST /internal/api-keys/verify (called by the gateway only). */
export const VerifyApiKeyRequest = z.object({
  key: z.string({ error: 'key is required' }).max(100, 'key must be at most 100 characters'),
});
export type VerifyApiKeyRequest = z.infer<typeof VerifyApiKeyRequest>;

/** What a team's own identity starts with: a team key acts as `team:<teamId>`, never as a person. */
export const TEAM_PRINCIPAL_PREFIX = 'team:';

/** The identity (`userId`) a team key acts as: the team itself, owning only what it creates. */
export function teamPrincipalId(teamId: string): string {
  return `${TEAM_PRINCIPAL_PREFIX}${teamId}`;
}

/**
 * Who a valid API key acts for, read at verification. A personal key acts as its owner (their current username and
 * tier). A team key acts as the team (`userId` = `team:<teamId>`, the team's name, the team's plan): it sees only
 * what the team's keys created, never the data of the person who created it, and its plan follows the team's.
 */
export const VerifiedApiKey = z.object({
  userId: z.string(),
  username: z.string(),
  tier: SubscriptionTier,
  keyId: z.string(),
  scopes: z.array(ApiKeyScope),
  expiresAt: z.string().datetime().nullable(),
  /** A team key: the team whose plan (`tier`) and quota the calls use. */
  teamId: z.string().nullable().optional(),
  /**
   * The person whose plan `tier` is: the key's owner, or the team's owner for a team key. A cache of verified keys
   * drops the key when that person's plan changes (`auth.user.plan_changed`).
   */
  planHolderId: z.string().optional(),
});
export type VerifiedApiKey = z.infer<typeof VerifiedApiKey>;

/** Why the verify endpoint refused a key (`details.reason` of its 401). */
export const ApiKeyRejection = z.enum(['unknown', 'revoked', 'expired', 'suspended']);
export type ApiKeyRejection = z.infer<typeof ApiKeyRejection>;
