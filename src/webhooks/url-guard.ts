import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/**
 * Server-side request forgery guard: a webhook URL is an address the service will POST to on an
 * account's behalf, so it may not reach the service's own network. Only http(s), and only public
 * unicast addresses (no loopback, private, link-local, unique-local, CGNAT, multicast, reserved,
 * nor an IPv6 form that carries one of these IPv4 addresses), unless WEBHOOKS_ALLOW_PRIVATE is
 * set. The check runs on the addresses DNS gives at delivery time, and the connection goes to the
 * address that was checked (see `resolveTarget`), so a name that re-resolves to 127.0.0.1
 * afterwards (DNS rebinding) does not get through.
 */
export class UrlRefused extends Error {
  override readonly name = 'UrlRefused';
}

/** IPv6 global unicast: the only block addresses of the internet are allocated from. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
/** NAT64's well-known prefix: the IPv4 address in the last 32 bits is the one reached. */
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96');

/**
 * The address parsed, or null. IPv6 goes through the WHATWG serialisation first (as a URL's host
 * does): ipaddr.js reads `::127.0.0.1` as `::ffff:127.0.0.1`, while it is `::7f00:1`.
 */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) return ipaddr.IPv4.parse(address);
  if (!ipaddr.IPv6.isValid(address)) return null;
  try {
    return ipaddr.IPv6.parse(new URL(`http://[${address}]`).hostname.slice(1, -1));
  } catch {
    return null;
  }
}

const publicIPv4 = (address: ipaddr.IPv4) => address.range() === 'unicast';

/**
 * True for an address a webhook may be sent to. An IPv6 address that carries an IPv4 one is judged
 * by the IPv4 address it reaches: IPv4-mapped (`::ffff:0:0/96`) and NAT64 (`64:ff9b::/96`, what
 * DNS64 gives for an IPv4-only receiver). The other forms are refused whatever they carry:
 * IPv4-compatible `::/96` (deprecated, `[::127.0.0.1]`), IPv4-translated `::ffff:0:0:0/96`,
 * local-use NAT64 `64:ff9b:1::/48` (a network's own prefix), 6to4 `2002::/16` and Teredo
 * `2001::/32`; so is everything outside 2000::/3.
 */
export function isPublicAddress(address: string): boolean {
  const parsed = parseAddress(address);
  if (parsed === null) return false;
  if (parsed.kind() === 'ipv4') return publicIPv4(parsed as ipaddr.IPv4);
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return publicIPv4(v6.toIPv4Address());
  if (v6.match(NAT64)) {
    const [high = 0, low = 0] = v6.parts.slice(-2);
    return publicIPv4(new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]));
  }
  // 6to4 and Teredo lie inside 2000::/3; ipaddr.js names them (and documentation, ORCHID…).
  return v6.match(GLOBAL_UNICAST) && v6.range() === 'unicast';
}

/** The URL parsed, when its form is acceptable (http or https, no credentials). */
export function parseWebhookUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlRefused('url must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UrlRefused('url must use http or https');
  if (url.username || url.password) throw new UrlRefused('url must not carry credentials');
  return url;
}

/** The address to connect to for `url`: resolved once, checked, and used for the connection. */
export async function resolveTarget(url: URL, allowPrivate: boolean): Promise<LookupAddress> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: LookupAddress[];
  if (ipaddr.isValid(host)) {
    addresses = [{ address: host, family: host.includes(':') ? 6 : 4 }];
  } else {
    try {
      addresses = await lookup(host, { all: true });
    } catch {
      throw new UrlRefused(`${host} does not resolve`);
    }
  }
  const first = addresses[0];
  if (!first) throw new UrlRefused(`${host} does not resolve`);
  if (!allowPrivate) {
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    // Every address must be public: a name with one private address could be steered to it.
    if (refused) {
      throw new UrlRefused(
        `${host} resolves to ${refused.address}, a loopback, private or link-local address (set WEBHOOKS_ALLOW_PRIVATE=true to allow)`,
      );
    }
  }
  return first;
}
