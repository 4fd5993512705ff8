import { createHmac, hkdfSync } from 'node:crypto';

/**
 * The key of the lookups' cache digests, derived (HKDF) from CODE_SECRET for this use only, so the
 * cache keys of two instances sharing a database (and its CODE_SECRET) agree, and whoever reads
 * the cache without the secret cannot test a number against it. Rotating CODE_SECRET starts the
 * cache afresh.
 */
export const lookupKeySecret = (codeSecret: Buffer): Buffer =>
  Buffer.from(hkdfSync('sha256', codeSecret, 'contact-verify', 'number-lookup-cache-keys', 32));

/** A number's cache key: an HMAC of its E.164 form, 22 base64url characters (132 bits). */
export const lookupKey = (secret: Buffer, e164: string): string =>
  createHmac('sha256', secret).update(e164).digest('base64url').slice(0, 22);
