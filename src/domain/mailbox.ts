import { domainToASCII } from 'node:url';

/**
 * Email addresses as mailboxes. One person reaches one mailbox through many strings: case,
 * `+tag` subaddresses, dots in a Gmail local part, a domain written in Unicode or in punycode.
 * Blocks, limits and risk must hold for the mailbox, or a block of `jane@…` is undone by
 * `jane+1@…`; the message itself still goes to the address as given.
 */

/** An ASCII address as ajv-formats' `email` accepts it (what the schema accepted before IDN). */
const ASCII_ADDRESS =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

/** A domain name domainToASCII would return as it is (lower case, no punycode label to check). */
const PLAIN_DOMAIN = /^[a-z0-9.-]+$/;

/** Domains whose mailboxes ignore dots in the local part, and the name each stands for. */
const DOTLESS: ReadonlyMap<string, string> = new Map([
  ['gmail.com', 'gmail.com'],
  ['googlemail.com', 'gmail.com'],
]);

/**
 * Fastmail's subdomain addressing: `anything@user.fastmail.com` is delivered to `user@fastmail.com`
 * (as `user+anything@`), for Fastmail's own domains; a user whose name has an underscore writes it
 * as a hyphen there (Fastmail allows no hyphen in names on its domains). Fastmail documents it for
 * the domains below by name; the custom domains it hosts cannot be told apart from others.
 */
const SUBDOMAIN_ADDRESSED: ReadonlySet<string> = new Set(['fastmail.com', 'fastmail.fm']);

/**
 * Yahoo's disposable addresses: `base-keyword@yahoo.com` reaches the account that chose the base
 * name. Yahoo names have no hyphen, so the hyphen marks one; the mailbox keeps it (`base-@yahoo.com`)
 * and so can never be taken for an account named `base`.
 */
const HYPHEN_TAGGED: ReadonlySet<string> = new Set(['yahoo.com']);

/** The address with its domain in ASCII (punycode), or null when the domain cannot be converted. */
function asciiAddress(address: string): { local: string; domain: string } | null {
  const at = address.lastIndexOf('@');
  if (at < 1 || at === address.length - 1) return null;
  const local = address.slice(0, at);
  const given = address.slice(at + 1);
  // An ASCII name of letters, digits, dots and hyphens is only lower-cased: domainToASCII costs
  // microseconds per send. Anything else goes through it: it lower-cases, maps full-width and other
  // compatibility forms and checks punycode labels (`xn--zz` is refused); '' means refused.
  const lower = given.toLowerCase();
  const domain = PLAIN_DOMAIN.test(lower) && !lower.includes('xn--') ? lower : domainToASCII(given);
  return domain ? { local, domain } : null;
}

/**
 * Whether `address` is an email address the service accepts: an ASCII local part and a domain
 * in ASCII or Unicode (IDN). The schema's `idn-email` format. Never throws.
 */
export function isMailAddress(address: unknown): boolean {
  // The length is the schema's maxLength to refuse, with its own message.
  if (typeof address !== 'string') return false;
  const parts = asciiAddress(address);
  return parts !== null && ASCII_ADDRESS.test(`${parts.local}@${parts.domain}`);
}

/**
 * The mailbox an address reaches, as contacts, blocks, risk and destination limits key it: the
 * whole address lower-cased, its domain in ASCII (punycode), any `+tag` removed, for gmail.com and
 * googlemail.com (one service) the dots of the local part removed and the domain gmail.com, and
 * where the provider documents another form of tag, that one too: Fastmail's subdomain addressing
 * (`shop@jane.fastmail.com` → `jane@fastmail.com`) and Yahoo's disposable addresses
 * (`jane-shop@yahoo.com` → `jane-@yahoo.com`). `J.A.N.E+1@GoogleMail.com` → `jane@gmail.com`. Null
 * when it is no address (no `@`, an empty side, a domain that cannot be converted); never throws.
 */
export function canonicalMailbox(address: string): string | null {
  const parts = asciiAddress(address.trim());
  if (!parts) return null;
  let local = parts.local.toLowerCase();
  let domain = parts.domain.endsWith('.') ? parts.domain.slice(0, -1) : parts.domain;
  if (!domain) return null;
  const plus = local.indexOf('+');
  // `+tag@…` alone names no mailbox before its tag: kept whole.
  if (plus > 0) local = local.slice(0, plus);
  const dotless = DOTLESS.get(domain);
  if (dotless) {
    const undotted = local.replaceAll('.', '');
    if (undotted) local = undotted;
    domain = dotless;
  }
  const dot = domain.indexOf('.');
  if (dot > 0 && SUBDOMAIN_ADDRESSED.has(domain.slice(dot + 1))) {
    // One label before Fastmail's domain names the user; the local part is only the tag.
    local = domain.slice(0, dot).replaceAll('-', '_');
    domain = domain.slice(dot + 1);
  }
  const hyphen = local.indexOf('-');
  if (hyphen > 0 && HYPHEN_TAGGED.has(domain)) local = local.slice(0, hyphen + 1);
  return `${local}@${domain}`;
}
