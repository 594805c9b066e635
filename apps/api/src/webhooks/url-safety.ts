import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may connect unless `WEBHOOKS_ALLOW_PRIVATE=true`: only global unicast addresses. Refused:
 * every block of the IANA IPv4 and IPv6 special-purpose address registries (loopback, private, link-local with
 * the cloud metadata address 169.254.169.254, carrier-grade NAT, documentation, benchmarking, AS112, AMT, 6to4
 * relays, Teredo, ORCHID…) — the few the registries mark "globally reachable" too, since no webhook receiver
 * lives on an anycast relay — plus multicast, broadcast and, in IPv6, everything outside 2000::/3. An IPv6
 * address that carries an IPv4 address (IPv4-mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`, 6to4
 * `2002:aabb:ccdd::`) is judged by that IPv4 address; the other embeddings (IPv4-compatible `::a.b.c.d`,
 * IPv4-translated `::ffff:0:a.b.c.d`, local-use NAT64 `64:ff9b:1::/48`, Teredo `2001::/32`) lie in refused
 * blocks whatever they carry. Registries as of 2025: https://www.iana.org/assignments/iana-ipv4-special-registry,
 * https://www.iana.org/assignments/iana-ipv6-special-registry.
 */
export const REFUSED_IPV4: ReadonlyArray<readonly [network: string, prefix: number, name: string]> = [
  ['0.0.0.0', 8, '"this network"'],
  ['10.0.0.0', 8, 'private-use'],
  ['100.64.0.0', 10, 'shared address space (carrier-grade NAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'private-use'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation (TEST-NET-1)'],
  ['192.31.196.0', 24, 'AS112-v4'],
  ['192.52.193.0', 24, 'AMT'],
  ['192.88.99.0', 24, 'deprecated 6to4 relay anycast'],
  ['192.168.0.0', 16, 'private-use'],
  ['192.175.48.0', 24, 'direct delegation AS112 service'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation (TEST-NET-2)'],
  ['203.0.113.0', 24, 'documentation (TEST-NET-3)'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved, and limited broadcast 255.255.255.255'],
];

/** Blocks inside global unicast (2000::/3) that are refused; everything outside 2000::/3 is refused too. */
export const REFUSED_IPV6_GLOBAL: ReadonlyArray<readonly [network: string, prefix: number, name: string]> = [
  ['2001::', 23, 'IETF protocol assignments (Teredo, benchmarking, AMT, AS112, ORCHID, anycast services)'],
  ['2001:db8::', 32, 'documentation'],
  ['2620:4f:8000::', 48, 'direct delegation AS112 service'],
  ['3fff::', 20, 'documentation'],
];

const refusedIpv4 = new BlockList();
for (const [network, prefix] of REFUSED_IPV4) refusedIpv4.addSubnet(network, prefix, 'ipv4');
const refusedIpv6 = new BlockList();
for (const [network, prefix] of REFUSED_IPV6_GLOBAL) refusedIpv6.addSubnet(network, prefix, 'ipv6');

/** The eight 16-bit groups of a valid IPv6 address (`isIP` said 6), with `::` expanded and a dotted tail read. */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const groups = (part: string): number[] => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const [head, tail] = text.split('::');
  if (tail === undefined) return groups(head);
  const before = groups(head);
  const after = groups(tail);
  return [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
}

/** The IPv4 address an IPv6 address stands for, in the forms a connection reaches that IPv4 host through. */
function embeddedIpv4(groups: number[]): string | undefined {
  const ipv4 = (high: number, low: number): string => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  const zeros = (from: number, to: number): boolean => groups.slice(from, to).every((group) => group === 0);
  // ::ffff:a.b.c.d, IPv4-mapped: the socket connects over IPv4.
  if (zeros(0, 5) && groups[5] === 0xffff) return ipv4(groups[6], groups[7]);
  // 64:ff9b::a.b.c.d, the NAT64 well-known prefix (RFC 6052): a translator forwards to the IPv4 host.
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return ipv4(groups[6], groups[7]);
  // 2002:aabb:ccdd::/48, 6to4 (RFC 3056): the IPv4 host is the tunnel end.
  if (groups[0] === 0x2002) return ipv4(groups[1], groups[2]);
  return undefined;
}

/** True for every address a webhook may not reach; anything that is not a plain IP address counts as one. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return refusedIpv4.check(address, 'ipv4');
  // A zone (`fe80::1%eth0`) names a link: never global.
  if (family !== 6 || address.includes('%')) return true;
  const groups = ipv6Groups(address);
  const carried = embeddedIpv4(groups);
  if (carried !== undefined) return isPrivateAddress(carried);
  const globalUnicast = (groups[0] & 0xe000) === 0x2000;
  return !globalUnicast || refusedIpv6.check(address, 'ipv6');
}

export class UnsafeUrlError extends Error {}

export interface UrlRules {
  allowHttp: boolean;
  allowPrivate: boolean;
}

/** Checks a webhook URL's form: https (or http when allowed), a host, no credentials, at most 2048 characters. */
export function checkUrlForm(value: string, rules: UrlRules): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UnsafeUrlError('url must be an absolute URL such as https://example.com/webhooks');
  }
  const schemes = rules.allowHttp ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) {
    throw new UnsafeUrlError(rules.allowHttp ? 'url must be http or https' : 'url must use https');
  }
  if (url.username || url.password) throw new UnsafeUrlError('url must not contain credentials');
  return url;
}

/**
 * The addresses a host resolves to, all of them checked: one private address is enough to refuse (a name that
 * resolves to both a public and a private address could be made to connect to either). A name that does not
 * resolve (yet) gives no addresses when `unresolvable` is 'accept' (at creation: every delivery checks again).
 */
export async function resolveSafely(
  hostname: string,
  rules: UrlRules,
  unresolvable: 'refuse' | 'accept' = 'refuse',
): Promise<Array<{ address: string; family: number }>> {
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: Array<{ address: string; family: number }>;
  try {
    addresses = isIP(host)
      ? [{ address: host, family: isIP(host) }]
      : await lookup(host, { all: true, verbatim: true });
  } catch {
    if (unresolvable === 'accept') return [];
    throw new UnsafeUrlError(`url's host ${hostname} does not resolve`);
  }
  if (!rules.allowPrivate && addresses.some(({ address }) => isPrivateAddress(address))) {
    throw new UnsafeUrlError(
      `url's host ${hostname} resolves to a loopback, private, link-local or metadata address, which webhooks may not reach`,
    );
  }
  return addresses;
}
