import ipaddr from 'ipaddr.js';

/**
 * TRUST_PROXY: which hops in front of the service may speak for the client in X-Forwarded-For
 * (and X-Forwarded-Proto, X-Forwarded-Host). The client's address, which the admin throttle counts
 * wrong tokens by, is the right-most address of the chain that no trusted hop wrote: every entry
 * left of it was written by whoever sent the request, and could be anything.
 *
 * - `false` (the default): no hop; the address is the socket's peer.
 * - a list of proxy addresses or networks (`10.0.0.1`, `10.0.0.0/8`, or the ranges `loopback`,
 *   `linklocal`, `uniquelocal`), comma-separated: a hop is trusted when its address is listed. A
 *   request that reaches the service around the proxies has its headers ignored.
 * - a hop count `N`: the N nearest hops, whatever their address. Safe only where the service can be
 *   reached through its proxies alone (Fastify itself no longer takes a number, for that reason).
 * - `true`: every hop, so the left-most address, which the client writes. Kept for deployments that
 *   set it; the service warns at start.
 */
export type TrustedProxies = boolean | string[] | ((address: string, hop: number) => boolean);

/** Address ranges @fastify/proxy-addr knows by name. */
const RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

const entries = (value: string) =>
  value
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');

/** An address in full: ipaddr.js would also take `1.5` (1.0.0.5), which nobody writes on purpose. */
const isAddress = (text: string) => ipaddr.IPv4.isValidFourPartDecimal(text) || ipaddr.IPv6.isValid(text);

function isAddressOrNetwork(entry: string): boolean {
  if (RANGES.has(entry) || isAddress(entry)) return true;
  const [address = '', prefix] = entry.split('/');
  if (prefix === undefined || !isAddress(address)) return false;
  try {
    ipaddr.parseCIDR(entry);
    return true;
  } catch {
    return false;
  }
}

/** Why TRUST_PROXY cannot be used, or null when it can. */
export function trustProxyProblem(value: string): string | null {
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === 'false' || /^\d{1,2}$/.test(v)) return null;
  const bad = entries(v).filter((e) => !isAddressOrNetwork(e));
  if (bad.length === 0 && entries(v).length > 0) return null;
  return `TRUST_PROXY: must be false, true, a hop count (1, 2, …) or a comma-separated list of proxy addresses or networks (10.0.0.1, 10.0.0.0/8, loopback, linklocal, uniquelocal); ${bad.map((b) => JSON.stringify(b)).join(', ') || 'nothing'} is none of those`;
}

/** TRUST_PROXY as Fastify's `trustProxy` option takes it (the value passed trustProxyProblem). */
export function trustedProxies(value: string): TrustedProxies {
  const v = value.trim().toLowerCase();
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    return hops === 0 ? false : (_address: string, hop: number) => hop < hops;
  }
  return entries(v);
}

/** The warning logged at start for a TRUST_PROXY that lets any client choose its address (none otherwise). */
export function trustProxyWarnings(value: string): string[] {
  if (value.trim().toLowerCase() !== 'true') return [];
  return [
    'TRUST_PROXY=true trusts every hop: a client chooses the address the admin throttle counts by writing X-Forwarded-For, so it can guess without limit and lock an operator out by naming their address. Set TRUST_PROXY to the addresses of your proxies (10.0.0.0/8) or their number (docs/deployment.md).',
  ];
}
