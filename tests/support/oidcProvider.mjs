// A real OpenID Connect provider for the tests of single sign-on: oidc-provider (the certified npm implementation) in
// a process of its own, plain Node. It signs with a key of its own, requires PKCE (S256) of every client, and signs
// people in through its built-in login and consent pages (any password; the login is the person's e-mail address, and
// one starting with `unverified.` has `email_verified: false`).
//
// Started as `node oidcProvider.mjs` with OIDC_CLIENTS (a JSON list of {client_id, client_secret, redirect_uris}); it
// prints one line `{"issuer": "http://127.0.0.1:<port>"}` once it listens. `POST /test-control/tamper {"mode"}` makes
// the next token response carry an ID token signed with the provider's real key but with `aud` of another client
// (`wrong_audience`) or an `exp` in the past (`expired`).
import { createPrivateKey, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import http from 'node:http';
import Provider from 'oidc-provider';

const clients = JSON.parse(process.env.OIDC_CLIENTS ?? '[]').map((client) => ({
  response_types: ['code'],
  grant_types: ['authorization_code'],
  token_endpoint_auth_method: 'client_secret_basic',
  ...client,
}));

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const kid = randomUUID();
const signingJwk = { ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
const signingKey = createPrivateKey({ key: signingJwk, format: 'jwk' });

/** The next ID token's tampering, used up by one token response. */
let tamper = null;

const server = http.createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients,
  jwks: { keys: [signingJwk] },
  pkce: { required: () => true },
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  cookies: { keys: [randomUUID()] },
  features: { devInteractions: { enabled: true } },
  async findAccount(_ctx, id) {
    return {
      accountId: id,
      async claims() {
        return { sub: id, email: id, email_verified: !id.startsWith('unverified.'), name: id.split('@')[0] };
      },
    };
  },
});

const base64url = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An ID token with the claims changed, signed with the provider's own key (so only the changed claim is wrong). */
function resign(idToken, change) {
  const [, payload] = idToken.split('.');
  const claims = { ...JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')), ...change };
  const input = `${base64url({ alg: 'RS256', typ: 'JWT', kid })}.${base64url(claims)}`;
  return `${input}.${sign('sha256', Buffer.from(input), signingKey).toString('base64url')}`;
}

provider.use(async (ctx, next) => {
  await next();
  if (ctx.path !== '/token' || !tamper || !ctx.body || typeof ctx.body.id_token !== 'string') return;
  const now = Math.floor(Date.now() / 1000);
  const change = tamper === 'wrong_audience' ? { aud: 'another-client' } : { iat: now - 7200, exp: now - 3600 };
  tamper = null;
  ctx.body = { ...ctx.body, id_token: resign(ctx.body.id_token, change) };
});

const handle = provider.callback();
server.on('request', (req, res) => {
  if (req.url === '/test-control/tamper' && req.method === 'POST') {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      tamper = JSON.parse(raw).mode ?? null;
      res.writeHead(204).end();
    });
    return;
  }
  handle(req, res);
});

process.stdout.write(`${JSON.stringify({ issuer })}\n`);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
