import { InputError, type Logger } from '@kasa/service-kit';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/** How long one request to an identity provider may take (discovery, keys, token, user info), in seconds. */
const IDP_TIMEOUT_SECONDS = 5;
/** Provider configurations kept (per team and settings version); the oldest goes first. */
const CACHE_LIMIT = 500;

/** What auth needs to talk to one team's identity provider. */
export interface OidcProviderSettings {
  teamId: string;
  /** The team's settings version: a new save gets a fresh configuration (a new issuer, client id or secret). */
  version: number;
  issuer: string;
  clientId: string;
  clientSecret: string | null;
}

/** The person as the provider vouched for them (the verified ID token, completed from user info if needed). */
export interface OidcIdentity {
  subject: string;
  email: string | null;
  /** As the provider said it: absent when it did not say. */
  emailVerified: boolean | undefined;
  name: string | null;
  preferredUsername: string | null;
}

export interface AuthorizationRequest {
  redirectUri: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/**
 * The OpenID Connect relying party (openid-client, a certified implementation): the only module that speaks to
 * identity providers. ssoService.ts holds the rules; tests replace this with a fake.
 */
export interface OidcClient {
  /** Runs discovery: throws InputError when the issuer does not answer as an OpenID provider. */
  check(settings: OidcProviderSettings): Promise<void>;
  /** The provider's authorization URL: code flow, PKCE S256, state, nonce, scope `openid email profile`. */
  authorizationUrl(settings: OidcProviderSettings, request: AuthorizationRequest): Promise<URL>;
  /**
   * Exchanges the code of `callbackUrl` (the redirect URI with the provider's query) for tokens and verifies the ID
   * token (issuer, audience, expiry, signature from the provider's keys, nonce); throws OidcFailure.
   */
  exchange(
    settings: OidcProviderSettings,
    callbackUrl: URL,
    expected: { state: string; nonce: string; codeVerifier: string },
  ): Promise<OidcIdentity>;
}

/** Why the provider's answer was refused. */
export type OidcFailureReason = 'wrong_audience' | 'token_expired' | 'token_invalid' | 'idp_error';

export class OidcFailure extends Error {
  constructor(readonly reason: OidcFailureReason) {
    super(`single sign-on refused: ${reason}`);
    this.name = 'OidcFailure';
  }
}

const CLAIM_COMPARISON = 'OAUTH_JWT_CLAIM_COMPARISON_FAILED';
const TIMESTAMP_CHECK = 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED';
/** openid-client's codes of an ID token or token response that does not hold up (signature, claims, shape). */
const TOKEN_CODES = new Set([
  CLAIM_COMPARISON,
  TIMESTAMP_CHECK,
  'OAUTH_INVALID_RESPONSE',
  'OAUTH_KEY_SELECTION_FAILED',
  'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED',
  'OAUTH_PARSE_ERROR',
]);

/**
 * The reason of an error openid-client threw while finishing a sign-in. Its ClientError carries oauth4webapi's code,
 * and the claim at fault in `cause.cause.claim`: a wrong `aud` is the wrong audience, a past `exp` (or an `iat` too
 * old) an expired token, any other failed check an invalid token; an error answer, a network failure or a timeout is
 * the provider's.
 */
export function oidcFailureReasonOf(err: unknown): OidcFailureReason {
  if (err instanceof OidcFailure) return err.reason;
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !TOKEN_CODES.has(code)) return 'idp_error';
  const cause = (err as { cause?: { claim?: unknown; cause?: { claim?: unknown } } }).cause;
  const claim = cause?.cause?.claim ?? cause?.claim;
  if (code === CLAIM_COMPARISON && claim === 'aud') return 'wrong_audience';
  if (code === TIMESTAMP_CHECK && (claim === 'exp' || claim === 'iat')) return 'token_expired';
  return 'token_invalid';
}

type OpenIdClientModule = typeof import('openid-client', { with: { 'resolution-mode': 'import' } });
type Configuration = InstanceType<OpenIdClientModule['Configuration']>;

export interface OidcClientOptions {
  /** Plain-http issuers are accepted (SSO_ALLOW_HTTP_ISSUERS; never in production, config.ts refuses it). */
  allowHttpIssuers: boolean;
  /** In production: https only, and no provider on a loopback, private or link-local address. */
  production: boolean;
  logger: Logger;
}

/** The client over openid-client (loaded with import(): the package is ESM-only). */
export function createOidcClient(options: OidcClientOptions): OidcClient {
  let library: Promise<OpenIdClientModule> | undefined;
  const load = () => (library ??= import('openid-client'));
  const configurations = new Map<string, Promise<Configuration>>();

  const configure = async (settings: OidcProviderSettings): Promise<Configuration> => {
    const key = `${settings.teamId}:${settings.version}`;
    let pending = configurations.get(key);
    if (!pending) {
      pending = discover(settings);
      configurations.set(key, pending);
      if (configurations.size > CACHE_LIMIT) configurations.delete(configurations.keys().next().value!);
      // A provider that was away is asked again next time.
      pending.catch(() => configurations.delete(key));
    }
    return pending;
  };

  const discover = async (settings: OidcProviderSettings): Promise<Configuration> => {
    const client = await load();
    const issuer = issuerUrl(settings.issuer, options);
    const http = issuer.protocol === 'http:';
    return client.discovery(
      issuer,
      settings.clientId,
      settings.clientSecret ?? undefined,
      // client_secret_basic: the method OpenID Connect makes the default, so every provider takes it.
      settings.clientSecret ? client.ClientSecretBasic(settings.clientSecret) : client.None(),
      {
        timeout: IDP_TIMEOUT_SECONDS,
        // openid-client refuses plain http unless told; only a test's or a local provider gets that.
        ...(http ? { execute: [client.allowInsecureRequests] } : {}),
        ...(options.production ? { [client.customFetch]: publicOnlyFetch } : {}),
      },
    );
  };

  return {
    async check(settings) {
      try {
        await configure(settings);
      } catch (err) {
        if (err instanceof InputError) throw err;
        options.logger.info({ teamId: settings.teamId, code: codeOf(err) }, 'identity provider discovery failed');
        throw new InputError(
          'The issuer did not answer as an OpenID Connect provider (its /.well-known/openid-configuration). ' +
            'Check the issuer URL.',
          { field: 'issuer' },
        );
      }
    },

    async authorizationUrl(settings, request) {
      const client = await load();
      const config = await configure(settings).catch(() => {
        throw new OidcFailure('idp_error');
      });
      return client.buildAuthorizationUrl(config, {
        redirect_uri: request.redirectUri,
        scope: 'openid email profile',
        response_type: 'code',
        state: request.state,
        nonce: request.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(request.codeVerifier),
        code_challenge_method: 'S256',
      });
    },

    async exchange(settings, callbackUrl, expected) {
      const client = await load();
      try {
        const config = await configure(settings);
        const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: expected.codeVerifier,
          expectedState: expected.state,
          expectedNonce: expected.nonce,
          idTokenExpected: true,
        });
        const claims = tokens.claims();
        if (!claims) throw new OidcFailure('token_invalid');
        let info: Record<string, unknown> = claims;
        // Providers may keep e-mail claims to user info when an access token is issued (OpenID Connect 5.4).
        if (typeof claims.email !== 'string') {
          info = { ...(await client.fetchUserInfo(config, tokens.access_token, claims.sub)), ...claims };
        }
        return {
          subject: claims.sub,
          email: typeof info.email === 'string' ? info.email.trim().toLowerCase() : null,
          emailVerified: typeof info.email_verified === 'boolean' ? info.email_verified : undefined,
          name: typeof info.name === 'string' ? info.name : null,
          preferredUsername: typeof info.preferred_username === 'string' ? info.preferred_username : null,
        };
      } catch (err) {
        const reason = oidcFailureReasonOf(err);
        options.logger.info({ teamId: settings.teamId, reason, code: codeOf(err) }, 'single sign-on answer refused');
        throw new OidcFailure(reason);
      }
    },
  };
}

/** The issuer as a URL, refusing plain http unless allowed (and always in production). */
export function issuerUrl(issuer: string, options: Pick<OidcClientOptions, 'allowHttpIssuers' | 'production'>): URL {
  const url = new URL(issuer);
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && options.allowHttpIssuers && !options.production) return url;
  throw new InputError('issuer must be an https URL', { field: 'issuer' });
}

function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Production's fetch towards identity providers: https only, and the host must resolve to public addresses only, so a
 * team's settings cannot make auth call into its own network. (The address is checked before the request; a name
 * that resolves differently a moment later is the residual risk of checking by name.)
 */
export async function publicOnlyFetch(url: string, init: object): Promise<Response> {
  const target = new URL(url);
  if (target.protocol !== 'https:') throw new TypeError('identity providers are reached over https only');
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  if (addresses.length === 0 || addresses.some(isPrivateAddress))
    throw new TypeError('identity providers must be on public addresses');
  return fetch(url, init as RequestInit);
}

/** Loopback, private, link-local, unique-local, carrier-grade NAT, unspecified and multicast addresses. */
export function isPrivateAddress(address: string): boolean {
  const mapped = address.toLowerCase().startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(mapped) === 4) {
    const [a = 0, b = 0] = mapped.split('.').map(Number);
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      a >= 224
    );
  }
  const v6 = mapped.toLowerCase();
  return (
    v6 === '::' ||
    v6 === '::1' ||
    v6.startsWith('fc') ||
    v6.startsWith('fd') ||
    /^fe[89ab]/.test(v6) ||
    v6.startsWith('ff')
  );
}
