import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/**
 * Server-side request forgery guard: a webhook URL is an address the service will POST to on an
 * account's behalf, so it may not reach the service's own network. Only http(s), and only public
 * unicast addresses (no loopback, private, link-local, unique-local, CGNAT, multicast, reserved,
 * IPv4-mapped forms of these), unless WEBHOOKS_ALLOW_PRIVATE is set. The check runs on the
 * addresses DNS gives at delivery time, and the connection goes to the address that was checked
 * (see `resolveTarget`), so a name that re-resolves to 127.0.0.1 afterwards (DNS rebinding) does
 * not get through.
 */
export class UrlRefused extends Error {
  override readonly name = 'UrlRefused';
}

/** True for an address a webhook may be sent to. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // process() turns ::ffff:127.0.0.1 into 127.0.0.1, so a mapped address is judged as IPv4.
  return ipaddr.process(address).range() === 'unicast';
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
