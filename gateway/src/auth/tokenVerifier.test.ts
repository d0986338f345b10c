import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@kasa/service-kit';
import jwt from 'jsonwebtoken';
import { TokenVerifier } from './tokenVerifier';

const logger = createLogger({ service: 'gateway-test', version: 'test', level: 'silent' });
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwks = { keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256', use: 'sig' }] };

let server: Server;
let jwksUri: string;
let fetches = 0;
let nowMs = Date.now();

beforeAll(async () => {
  server = createServer((_req, res) => {
    fetches++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(jwks));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  jwksUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const sign = (expiresIn = 60) =>
  jwt.sign({ sub: 'u1', username: 'ama', tier: 'free' }, privateKey, {
    algorithm: 'RS256',
    keyid: 'k1',
    issuer: 'kasa-auth',
    audience: 'kasa',
    jwtid: 'j1',
    expiresIn,
  });

describe('TokenVerifier', () => {
  const verifier = () =>
    new TokenVerifier({ jwksUri, issuer: 'kasa-auth', audience: 'kasa', logger, now: () => nowMs });

  it('verifies once, then answers from its cache until the token expires', async () => {
    const v = verifier();
    const token = sign(60);
    expect(v.verifyCached(token)).toBeUndefined();
    expect(await v.verify(token)).toMatchObject({ ok: true, claims: { sub: 'u1', jti: 'j1' } });
    expect(v.verifyCached(token)).toMatchObject({ ok: true });
    nowMs += 61_000;
    expect(v.verifyCached(token)).toEqual({ ok: false, reason: 'expired' });
    expect(v.verifyCached(token)).toBeUndefined();
    nowMs = Date.now();
  });

  it('fetches the JWKS once for many tokens', async () => {
    const v = verifier();
    const before = fetches;
    for (let i = 0; i < 5; i++) expect((await v.verify(sign(60 + i))).ok).toBe(true);
    expect(fetches - before).toBeLessThanOrEqual(1);
  });

  it('says unknown_key for a kid the JWKS does not have', async () => {
    const token = jwt.sign({ sub: 'u1', username: 'ama', tier: 'free' }, privateKey, {
      algorithm: 'RS256',
      keyid: 'rotated-away',
      issuer: 'kasa-auth',
      audience: 'kasa',
      jwtid: 'j2',
      expiresIn: 60,
    });
    expect(await verifier().verify(token)).toEqual({ ok: false, reason: 'unknown_key' });
  });

  it('rejects other algorithms before looking for a key', async () => {
    const v = verifier();
    const before = fetches;
    const hs = jwt.sign({ sub: 'u1' }, 'secret', { algorithm: 'HS256', keyid: 'k1' });
    expect(await v.verify(hs)).toEqual({ ok: false, reason: 'algorithm' });
    expect(fetches).toBe(before);
  });

  it('says keys_unavailable, not invalid, when the JWKS cannot be fetched, however often it is asked', async () => {
    const v = new TokenVerifier({
      jwksUri: 'http://127.0.0.1:1/.well-known/jwks.json',
      issuer: 'kasa-auth',
      audience: 'kasa',
      logger,
    });
    // More than jwks-rsa's 10 fetches a minute: its rate limit must not turn "auth is down" into "bad token".
    for (let i = 0; i < 12; i++)
      expect(await v.verify(sign(60 + i))).toEqual({ ok: false, reason: 'keys_unavailable' });
    expect(await v.isReady()).toBe(false);
  });
});
