import { clientAddressKey } from './clientAddress';

describe('clientAddressKey', () => {
  it('keeps an IPv4 address as it is, also when a dual-stack socket reports it IPv4-mapped', () => {
    expect(clientAddressKey('41.66.199.1')).toBe('41.66.199.1');
    expect(clientAddressKey('::ffff:41.66.199.1')).toBe('41.66.199.1');
  });

  it('counts IPv6 addresses of one /64 network as one client, whatever their spelling', () => {
    const key = clientAddressKey('2001:db8:a:b::1');
    expect(key).toBe('2001:db8:a:b::/64');
    for (const same of ['2001:db8:a:b:ffff:1:2:3', '2001:0db8:000a:000b:0:0:0:9', '2001:DB8:A:B::abcd%eth0'])
      expect(clientAddressKey(same)).toBe(key);
    expect(clientAddressKey('2001:db8:a:c::1')).not.toBe(key);
    expect(clientAddressKey('::1')).toBe('0:0:0:0::/64');
    expect(clientAddressKey('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64');
  });

  it('leaves anything that is not an address alone', () => {
    expect(clientAddressKey('unknown')).toBe('unknown');
  });
});
