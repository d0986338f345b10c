import net from 'node:net';

/**
 * Which addresses a webhook may be sent to when private networks are not allowed: public unicast only. Refused are
 * the IPv4 special-purpose blocks (this network, private, CGNAT, loopback, link-local with the cloud metadata
 * address, IETF and documentation blocks, benchmarking, multicast, reserved and broadcast) and in IPv6 everything
 * outside global unicast (2000::/3: loopback, unspecified, unique-local, link-local, site-local, multicast) plus the
 * special blocks inside it (documentation, Teredo and other IETF assignments, local NAT64). IPv6 forms that carry an
 * IPv4 address (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are judged by
 * that IPv4 address.
 */

/** [first address as a 32-bit number, prefix length] */
const REFUSED_V4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // this network
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (CGNAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata at 169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
];

const v4Number = (address: string): number => address.split('.').reduce((value, part) => value * 256 + Number(part), 0);

const REFUSED_V4_RANGES = REFUSED_V4.map(([first, bits]) => {
  const size = 2 ** (32 - bits);
  const start = v4Number(first);
  return { start, end: start + size - 1 };
});

function isPublicV4(value: number): boolean {
  return !REFUSED_V4_RANGES.some((range) => value >= range.start && value <= range.end);
}

/** The 16 bytes of an IPv6 address (net.isIPv6 has accepted it), with an embedded dotted IPv4 tail. */
export function ipv6Bytes(address: string): Uint8Array {
  let text = address.split('%')[0]!.toLowerCase();
  const bytes = new Uint8Array(16);
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const value = v4Number(dotted[1]!);
    text = `${text.slice(0, -dotted[1]!.length)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const [head, rest] = text.includes('::') ? (text.split('::') as [string, string]) : [text, undefined];
  const headGroups = head ? head.split(':') : [];
  const restGroups = rest !== undefined && rest !== '' ? rest.split(':') : [];
  const missing = 8 - headGroups.length - restGroups.length;
  const groups = [...headGroups, ...Array.from({ length: rest === undefined ? 0 : missing }, () => '0'), ...restGroups];
  groups.forEach((group, i) => {
    const value = parseInt(group, 16);
    bytes[i * 2] = value >> 8;
    bytes[i * 2 + 1] = value & 0xff;
  });
  return bytes;
}

const startsWith = (bytes: Uint8Array, prefix: number[]): boolean => prefix.every((b, i) => bytes[i] === b);
const allZero = (bytes: Uint8Array, from: number, to: number): boolean => bytes.slice(from, to).every((b) => b === 0);
const v4At = (bytes: Uint8Array, offset: number): number =>
  ((bytes[offset]! << 24) >>> 0) + (bytes[offset + 1]! << 16) + (bytes[offset + 2]! << 8) + bytes[offset + 3]!;

function isPublicV6(bytes: Uint8Array): boolean {
  // IPv4-mapped (::ffff:0:0/96) and IPv4-compatible (::/96, which holds :: and ::1 too).
  if (allZero(bytes, 0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return isPublicV4(v4At(bytes, 12));
  if (allZero(bytes, 0, 12)) return isPublicV4(v4At(bytes, 12));
  // NAT64, well-known prefix (64:ff9b::/96): the IPv4 address it reaches.
  if (startsWith(bytes, [0x00, 0x64, 0xff, 0x9b]) && allZero(bytes, 4, 12)) return isPublicV4(v4At(bytes, 12));
  // 6to4 (2002::/16): the IPv4 address in bits 16–48.
  if (startsWith(bytes, [0x20, 0x02])) return isPublicV4(v4At(bytes, 2));
  // Only global unicast (2000::/3) is public at all.
  if ((bytes[0]! & 0xe0) !== 0x20) return false;
  // IETF protocol assignments (2001::/23, Teredo 2001::/32 among them).
  if (bytes[0] === 0x20 && bytes[1] === 0x01 && bytes[2]! < 0x02) return false;
  // Documentation (2001:db8::/32, 3fff::/20).
  if (startsWith(bytes, [0x20, 0x01, 0x0d, 0xb8])) return false;
  if (bytes[0] === 0x3f && bytes[1] === 0xff && bytes[2]! < 0x10) return false;
  return true;
}

/** Whether an IP address (v4 or v6, as dns.lookup gives it) is public unicast: the only kind a webhook may reach. */
export function isPublicAddress(address: string): boolean {
  const version = net.isIP(address);
  if (version === 4) return isPublicV4(v4Number(address));
  if (version === 6) return isPublicV6(ipv6Bytes(address));
  return false;
}

/** A URL's host as the resolver takes it: lower case, without IPv6 brackets or a trailing dot. */
export function normalHost(hostname: string): string {
  return hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.+$/, '');
}

/** `localhost` and names under it, which resolve to this machine whatever DNS says. */
export function isLocalHostname(hostname: string): boolean {
  const host = normalHost(hostname);
  return host === 'localhost' || host.endsWith('.localhost');
}
