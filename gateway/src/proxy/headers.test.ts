import type { Socket } from 'node:net';
import type { GatewayRequest } from '../eg/types';
import { clientResponseHeaders, upstreamRequestHeaders } from './headers';

function request(headers: Record<string, string>, extra: Partial<GatewayRequest> = {}): GatewayRequest {
  return {
    headers,
    socket: { remoteAddress: '192.0.2.10' } as Socket,
    protocol: 'http',
    ...extra,
  } as unknown as GatewayRequest;
}

describe('upstreamRequestHeaders', () => {
  it('drops hop-by-hop headers, those listed in Connection, and every x-kasa-* header', () => {
    const out = upstreamRequestHeaders(
      request({
        host: 'localhost:8080',
        connection: 'keep-alive, x-trace',
        'x-trace': '1',
        'keep-alive': 'timeout=5',
        'transfer-encoding': 'chunked',
        te: 'trailers',
        upgrade: 'websocket',
        expect: '100-continue',
        'x-kasa-user-id': 'admin',
        accept: 'application/json',
      }),
    );
    expect(out).toEqual({
      accept: 'application/json',
      'x-forwarded-for': '192.0.2.10',
      'x-forwarded-proto': 'http',
      'x-forwarded-host': 'localhost:8080',
    });
  });

  it('appends to X-Forwarded-For and adds the verified identity', () => {
    const out = upstreamRequestHeaders(
      request(
        { 'x-forwarded-for': '203.0.113.1' },
        {
          kasaIdentity: {
            sub: 'u1',
            username: 'Ọlá',
            tier: 'pro',
            jti: 't1',
            iat: 0,
            exp: 0,
            iss: 'kasa-auth',
            aud: 'kasa',
          },
        },
      ),
    );
    expect(out['x-forwarded-for']).toBe('203.0.113.1, 192.0.2.10');
    expect(out['x-kasa-user-id']).toBe('u1');
    expect(out['x-kasa-username']).toBe(encodeURIComponent('Ọlá'));
    expect(out['x-kasa-tier']).toBe('pro');
    expect(out['x-kasa-token-id']).toBe('t1');
  });

  it('adds the identity of a verified API key, and keeps the key itself from the service', () => {
    const out = upstreamRequestHeaders(
      request(
        { authorization: `Bearer ksk_${'a'.repeat(43)}`, 'x-kasa-api-key-id': 'spoofed', accept: 'application/json' },
        {
          kasaApiKey: {
            userId: 'u2',
            username: 'Àdùnní',
            tier: 'free',
            keyId: 'k1',
            scopes: ['chat'],
            expiresAt: null,
          },
        },
      ),
    );
    expect(out).toMatchObject({
      accept: 'application/json',
      'x-kasa-user-id': 'u2',
      'x-kasa-username': encodeURIComponent('Àdùnní'),
      'x-kasa-tier': 'free',
      'x-kasa-api-key-id': 'k1',
    });
    expect(out.authorization).toBeUndefined();
    expect(out['x-kasa-token-id']).toBeUndefined();
  });
});

describe('clientResponseHeaders', () => {
  it('keeps end-to-end headers and drops hop-by-hop ones', () => {
    expect(
      clientResponseHeaders({
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
        'keep-alive': 'timeout=5',
        'transfer-encoding': 'chunked',
        'set-cookie': ['a=1', 'b=2'],
      }),
    ).toEqual({ 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'set-cookie': ['a=1', 'b=2'] });
  });
});
