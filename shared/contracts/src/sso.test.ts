import { emailDomainOf, isSsoDomain, TeamSsoSettingsRequest } from './sso';

const valid = { issuer: 'https://login.example.com', clientId: 'kasa', clientSecret: 's', domains: ['acme.com'] };

describe('single sign-on domains', () => {
  it('accepts host names of two labels or more, letters, digits and inner hyphens', () => {
    for (const domain of ['acme.com', 'mail.acme.co.gh', 'a-b.example', 'x1.io', 'xn--bcher-kva.example'])
      expect(isSsoDomain(domain)).toBe(true);
  });

  it('refuses one label, IP addresses, edge hyphens, empty labels and other characters', () => {
    for (const domain of [
      'localhost',
      '10.0.0.1',
      '192.168.1.10',
      '-acme.com',
      'acme-.com',
      'acme..com',
      'ac_me.com',
      'acme.com.',
      '*.acme.com',
      'acme com',
    ])
      expect(isSsoDomain(domain)).toBe(false);
    expect(isSsoDomain(`${'a'.repeat(64)}.com`)).toBe(false);
  });

  it('lower-cases and trims domains, and refuses repeats, none and more than 20', () => {
    expect(TeamSsoSettingsRequest.parse({ ...valid, domains: [' ACME.com '] }).domains).toEqual(['acme.com']);
    expect(TeamSsoSettingsRequest.safeParse({ ...valid, domains: ['acme.com', 'ACME.COM'] }).success).toBe(false);
    expect(TeamSsoSettingsRequest.safeParse({ ...valid, domains: [] }).success).toBe(false);
    const many = Array.from({ length: 21 }, (_, i) => `d${i}.example`);
    expect(TeamSsoSettingsRequest.safeParse({ ...valid, domains: many }).success).toBe(false);
  });

  it('takes the secret as optional, the client id up to 255 characters and requireSso false by default', () => {
    const { clientSecret: _secret, ...withoutSecret } = valid;
    expect(TeamSsoSettingsRequest.parse(withoutSecret)).toMatchObject({ requireSso: false });
    expect(TeamSsoSettingsRequest.safeParse({ ...valid, clientId: 'x'.repeat(256) }).success).toBe(false);
    expect(TeamSsoSettingsRequest.safeParse({ ...valid, issuer: 'ftp://login.example.com' }).success).toBe(false);
  });

  it('reads the domain of an address', () => {
    expect(emailDomainOf('Ama@Acme.COM')).toBe('acme.com');
    expect(emailDomainOf('nobody')).toBe('');
  });
});
