import { issuerUrl, isPrivateAddress, OidcFailure, oidcFailureReasonOf } from './oidcClient';

/** An error shaped as openid-client throws it: a ClientError with oauth4webapi's code, the failed check in its cause. */
function clientError(code: string, claim?: string): Error {
  const processing = Object.assign(new Error('check failed'), { code, cause: claim ? { claim, claims: {} } : {} });
  return Object.assign(new Error('openid-client'), { name: 'ClientError', code, cause: processing });
}

describe('oidcFailureReasonOf', () => {
  it('calls a refused aud claim the wrong audience', () => {
    expect(oidcFailureReasonOf(clientError('OAUTH_JWT_CLAIM_COMPARISON_FAILED', 'aud'))).toBe('wrong_audience');
  });

  it('calls a past exp, or an iat too old, an expired token', () => {
    expect(oidcFailureReasonOf(clientError('OAUTH_JWT_TIMESTAMP_CHECK_FAILED', 'exp'))).toBe('token_expired');
    expect(oidcFailureReasonOf(clientError('OAUTH_JWT_TIMESTAMP_CHECK_FAILED', 'iat'))).toBe('token_expired');
  });

  it('calls any other failed check of the ID token an invalid token', () => {
    expect(oidcFailureReasonOf(clientError('OAUTH_JWT_CLAIM_COMPARISON_FAILED', 'iss'))).toBe('token_invalid');
    expect(oidcFailureReasonOf(clientError('OAUTH_JWT_CLAIM_COMPARISON_FAILED', 'nonce'))).toBe('token_invalid');
    expect(oidcFailureReasonOf(clientError('OAUTH_INVALID_RESPONSE'))).toBe('token_invalid');
    expect(oidcFailureReasonOf(clientError('OAUTH_KEY_SELECTION_FAILED'))).toBe('token_invalid');
    expect(oidcFailureReasonOf(clientError('OAUTH_JWT_TIMESTAMP_CHECK_FAILED', 'nbf'))).toBe('token_invalid');
  });

  it('calls error answers, network failures and timeouts the provider’s error', () => {
    expect(oidcFailureReasonOf(Object.assign(new Error('access_denied'), { error: 'access_denied' }))).toBe(
      'idp_error',
    );
    expect(oidcFailureReasonOf(new TypeError('fetch failed'))).toBe('idp_error');
    expect(oidcFailureReasonOf(clientError('OAUTH_RESPONSE_IS_NOT_CONFORM'))).toBe('idp_error');
    expect(oidcFailureReasonOf(null)).toBe('idp_error');
  });

  it('keeps a reason already decided', () => {
    expect(oidcFailureReasonOf(new OidcFailure('token_expired'))).toBe('token_expired');
  });
});

describe('issuerUrl', () => {
  it('takes https, and plain http only when allowed outside production', () => {
    const strict = { allowHttpIssuers: false, production: false };
    expect(issuerUrl('https://login.example.com', strict).host).toBe('login.example.com');
    expect(() => issuerUrl('http://127.0.0.1:9000', strict)).toThrow('issuer must be an https URL');
    expect(issuerUrl('http://127.0.0.1:9000', { allowHttpIssuers: true, production: false }).protocol).toBe('http:');
    expect(() => issuerUrl('http://127.0.0.1:9000', { allowHttpIssuers: true, production: true })).toThrow();
  });
});

describe('isPrivateAddress', () => {
  it('refuses loopback, private, link-local, CGNAT, unique-local and mapped private addresses', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:10.0.0.1',
    ])
      expect(isPrivateAddress(address)).toBe(true);
  });

  it('lets public addresses through', () => {
    for (const address of ['8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
      expect(isPrivateAddress(address)).toBe(false);
  });
});
