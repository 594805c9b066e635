import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook must never reach unless `WEBHOOKS_ALLOW_PRIVATE=true`: loopback, private, link-local (with
 * the cloud metadata address 169.254.169.254), carrier-grade NAT, unspecified, multicast and reserved ranges, in
 * IPv4 and IPv6 (IPv4-mapped IPv6 addresses are checked as IPv4).
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
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
