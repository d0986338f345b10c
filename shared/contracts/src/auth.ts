import { z } from './zod';

export const SubscriptionTier = z.enum(['free', 'pro', 'enterprise']).openapi('SubscriptionTier');
export type SubscriptionTier = z.infer<typeof SubscriptionTier>;

/** Usernames: letters, digits, dot, dash and underscore; what people can type and read back. */
export const Username = z
  .string({ error: 'username is required' })
  .trim()
  .min(2, 'username must be at least 2 characters')
  .max(32, 'username must be at most 32 characters')
  .regex(/^[\p{L}\p{N}._-]+$/u, 'username may contain letters, digits, dot, dash and underscore only');

/** Emails are trimmed and lower-cased so that one address is one account. */
export const Email = z
  .string({ error: 'email is required' })
  .trim()
  .max(254, 'email must be at most 254 characters')
  .pipe(z.email({ error: 'email must be a valid email address' }))
  .transform((value) => value.toLowerCase());

/** The spec's client asks for at least 6 characters; 128 bounds the hashing work per request. */
export const Password = z
  .string({ error: 'password is required' })
  .min(6, 'Password must be at least 6 characters long')
  .max(128, 'password must be at most 128 characters');

export const RegisterRequest = z
  // Unknown fields (say, a subscriptionTier a client slips in) are dropped, never applied.
  .object({ username: Username, email: Email, password: Password })
  .openapi('RegisterRequest');
export type RegisterRequest = z.infer<typeof RegisterRequest>;

export const LoginRequest = z
  .object({
    email: Email,
    password: z.string({ error: 'password is required' }).min(1, 'password is required').max(128),
  })
  .openapi('LoginRequest');
export type LoginRequest = z.infer<typeof LoginRequest>;

export const User = z
  .object({
    id: z.string(),
    username: z.string(),
    email: z.string(),
    subscriptionTier: SubscriptionTier,
    createdAt: z.string().datetime(),
  })
  .openapi('User');
export type User = z.infer<typeof User>;

export const AuthResponse = z
  .object({ success: z.literal(true), token: z.string(), user: User, message: z.string() })
  .openapi('AuthResponse');
export type AuthResponse = z.infer<typeof AuthResponse>;

/**
 * The signed-in person as GET /api/auth/me shows them: their account, and whether they run this Kasa (`operator`:
 * the role the operators' API checks, read afresh on every call, so a removed or suspended operator reads false at
 * the next lookup).
 */
export const MeUser = User.extend({
  operator: z.boolean().openapi({ description: 'Whether the person is an operator of this Kasa (may open /admin)' }),
}).openapi('MeUser');
export type MeUser = z.infer<typeof MeUser>;
export const MeResponse = z.object({ success: z.literal(true), user: MeUser }).openapi('MeResponse');
/** POST /api/auth/logout: the token is revoked and the session cookie cleared. */
export const LogoutResponse = z.object({ success: z.literal(true), message: z.string() }).openapi('LogoutResponse');
export type LogoutResponse = z.infer<typeof LogoutResponse>;
export type MeResponse = z.infer<typeof MeResponse>;

/** Claims of the RS256 access token that auth issues and the gateway verifies. */
export const AccessTokenClaims = z.object({
  sub: z.string(),
  jti: z.string(),
  username: z.string(),
  tier: SubscriptionTier,
  iat: z.number(),
  exp: z.number(),
  iss: z.string(),
  aud: z.string(),
});
export type AccessTokenClaims = z.infer<typeof AccessTokenClaims>;

/** Headers the gateway sets after verifying a token or an API key; services trust them only from the gateway. */
export const GatewayIdentityHeaders = {
  userId: 'x-kasa-user-id',
  username: 'x-kasa-username',
  tier: 'x-kasa-tier',
  tokenId: 'x-kasa-token-id',
  /** Set instead of tokenId when the caller used an API key. */
  apiKeyId: 'x-kasa-api-key-id',
} as const;

/** GET /.well-known/jwks.json: the public keys that verify Kasa's access tokens (RS256), by `kid`. */
export const JsonWebKeySet = z
  .object({
    keys: z.array(
      z.object({
        kty: z.literal('RSA'),
        /** The modulus, base64url. */
        n: z.string().min(1),
        /** The public exponent, base64url. */
        e: z.string().min(1),
        kid: z.string().min(1),
        alg: z.literal('RS256'),
        use: z.literal('sig'),
      }),
    ),
  })
  .openapi('JsonWebKeySet');
export type JsonWebKeySet = z.infer<typeof JsonWebKeySet>;
