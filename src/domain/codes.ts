import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';

/** A code of `length` decimal digits from the CSPRNG; every value is equally likely. */
export function generateCode(length: number): string {
  // randomInt is uniform over [0, 10^length) for length <= 14; codes are at most 10 digits.
  return String(randomInt(0, 10 ** length)).padStart(length, '0');
}

/**
 * The stored form of a code: HMAC-SHA-256 keyed with the server secret and bound to the request
 * id, so a leaked table is useless without the secret and a hash cannot be moved to another row.
 */
export function hashCode(secret: Buffer, requestId: string, code: string): Buffer {
  return createHmac('sha256', secret).update(requestId).update('\0').update(code).digest();
}

/** Compares a presented code with a stored hash in constant time. */
export function codeMatches(secret: Buffer, requestId: string, code: string, stored: Buffer): boolean {
  const candidate = hashCode(secret, requestId, code);
  return stored.length === candidate.length && timingSafeEqual(candidate, stored);
}
