import { createHmac, randomBytes } from 'node:crypto';

/**
 * Magic links (docs/links.md): the token a link carries and the redirect it may end on. The token
 * is 32 bytes of the CSPRNG in base64url; the store keeps only its keyed hash, so a leaked table
 * opens no link, and a token of another deployment (another secret) matches nothing.
 */

/** base64url of 32 bytes, without padding. */
export const LINK_TOKEN_LENGTH = 43;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** A fresh link token. */
export const generateLinkToken = (): string => randomBytes(32).toString('base64url');

/** Whether `value` has the shape of a token (checked before any hash is computed or row read). */
export const isLinkToken = (value: string): boolean =>
  value.length === LINK_TOKEN_LENGTH && TOKEN.test(value);

/** The key link tokens are hashed with, derived from a code secret (so no code hash can equal one). */
const linkKeys = new WeakMap<Buffer, Buffer>();
function linkKeyOf(secret: Buffer): Buffer {
  let key = linkKeys.get(secret);
  if (key === undefined) {
    key = createHmac('sha256', secret).update('contact-verify magic link token key').digest();
    linkKeys.set(secret, key);
  }
  return key;
}

/**
 * The stored form of a token: HMAC-SHA-256 under a key derived from the code secret (a domain of
 * its own: a code's hash is keyed with the secret itself). Unlike a code's, it is not bound to a
 * request id: a link is looked up by its hash alone.
 */
export const hashLinkToken = (secret: Buffer, token: string): Buffer =>
  createHmac('sha256', linkKeyOf(secret)).update(token).digest();

/** The hashes a token may be stored under: the current secret's, then each previous one of a rotation. */
export const linkTokenHashes = (secrets: readonly Buffer[], token: string): Buffer[] =>
  secrets.map((secret) => hashLinkToken(secret, token));

/** The longest redirect URL accepted. */
export const MAX_REDIRECT_URL_LENGTH = 2000;

/** Hosts on which `http:` is accepted: the machine itself, for development. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

const UNSAFE_CHARACTERS =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
  /[\u0000-\u0020\u007f-\u00a0\u1680\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff]/;

/**
 * The origin `value` names when it is one an account may list (`https://host[:port]`, or
 * `http:` on a loopback host), written as browsers write it; else a sentence saying why not.
 */
export function parseRedirectOrigin(value: string): { origin: string } | { problem: string } {
  const url = parseAbsolute(value);
  if ('problem' in url) return url;
  // Whatever follows the authority as written: nothing, or one slash.
  const rest = value.slice(value.indexOf('//') + 2);
  const end = rest.search(/[/?#]/);
  const tail = end < 0 ? '' : rest.slice(end);
  if (tail !== '' && tail !== '/')
    return { problem: 'must be an origin (scheme, host and port only), without a path, query or fragment' };
  return { origin: url.url.origin };
}

/**
 * The redirect URL as the service will send it (normalised by the WHATWG URL parser, so what was
 * checked is exactly what the browser follows), or why it is refused. The string is refused
 * before parsing for what a parser might read otherwise than a reader: control characters and
 * spaces, backslashes (browsers read `\` as `/`), anything but `https://` or `http://` at the
 * start (so `//evil`, `/\evil`, `https:evil`, `javascript:` …), and userinfo (`https://good@evil`).
 * The parsed origin must then be exactly one of `allowed` (already normalised origins).
 */
export function checkRedirectUrl(
  value: string,
  allowed: readonly string[],
): { url: string } | { problem: string } {
  const parsed = parseAbsolute(value);
  if ('problem' in parsed) return parsed;
  if (!allowed.includes(parsed.url.origin))
    return {
      problem:
        allowed.length === 0
          ? "must have an origin listed in the account's linkRedirectOrigins, which is empty"
          : "must have an origin listed in the account's linkRedirectOrigins",
    };
  return { url: parsed.url.href };
}

/** The checks an origin and a redirect URL share. */
function parseAbsolute(value: string): { url: URL } | { problem: string } {
  if (value.length > MAX_REDIRECT_URL_LENGTH)
    return { problem: `must be at most ${MAX_REDIRECT_URL_LENGTH} characters` };
  if (UNSAFE_CHARACTERS.test(value)) return { problem: 'must not contain spaces or control characters' };
  if (value.includes('\\')) return { problem: 'must not contain a backslash' };
  const scheme = /^(https?):\/\/(?!\/)/i.exec(value);
  if (!scheme) return { problem: 'must be an absolute https:// URL (http:// only on localhost)' };
  // The authority as written, before any decoding: userinfo and percent-encoding have no place in it.
  const authority = value.slice(scheme[0].length).split(/[/?#]/, 1)[0] ?? '';
  if (authority.includes('@')) return { problem: 'must not contain a user name or password' };
  if (authority.includes('%')) return { problem: 'must not percent-encode its host' };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: 'must be a valid URL' };
  }
  if (url.username !== '' || url.password !== '')
    return { problem: 'must not contain a user name or password' };
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname))
    return { problem: 'must use https:// (http:// only on localhost, 127.0.0.1 or [::1])' };
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { problem: 'must be an absolute https:// URL (http:// only on localhost)' };
  // A host as DNS names it (IDN in punycode, as the parser writes it), or an IP address.
  if (!/^([a-z0-9-]+\.)*[a-z0-9-]+\.?$|^\[[0-9a-f:.]+\]$/.test(url.hostname))
    return { problem: 'must name its host with letters, digits, hyphens and dots' };
  return { url };
}

/** The redirect a used link answers: the URL with `requestId` and `status=verified` added to its query. */
export function verifiedRedirect(redirectUrl: string, requestId: string): string {
  const url = new URL(redirectUrl);
  url.searchParams.append('requestId', requestId);
  url.searchParams.append('status', 'verified');
  return url.href;
}
