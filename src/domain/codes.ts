import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { CodeGuess } from './ports/verifications.js';

/** A code of `length` decimal digits from the CSPRNG; every value is equally likely. */
export function generateCode(length: number): string {
  // randomInt is uniform over [0, 10^length) for length <= 14; codes are at most 10 digits.
  return String(randomInt(0, 10 ** length)).padStart(length, '0');
}

/**
 * The code of a request no code is delivered for (a SILENT request its provider checks): 128 bits
 * in hex, so that no guess of digits can ever match it.
 */
export const unguessableCode = (): string => randomBytes(16).toString('hex');

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

/**
 * The id of the first row whose stored hash matches `code`, or null. Every row is compared, with
 * no early stop: a dual pair accepts either code, and the time taken does not tell which matched.
 * `secrets` is the current secret, then any previous one still accepted during a rotation (a code
 * hashed before the rotation verifies until it expires); each is tried on every row.
 */
export function matchingCodeId(
  secrets: Buffer | readonly Buffer[],
  rows: ReadonlyArray<{ id: string; codeHash: Buffer }>,
  code: string,
): string | null {
  const keys: readonly Buffer[] = Buffer.isBuffer(secrets) ? [secrets] : (secrets as readonly Buffer[]);
  let winner: string | null = null;
  for (const row of rows) {
    for (const secret of keys) {
      if (codeMatches(secret, row.id, code, row.codeHash) && winner === null) winner = row.id;
    }
  }
  return winner;
}

/** A presented code as a verify attempt compares it (CodeGuess), under the accepted secrets. */
export function codeGuess(secrets: readonly Buffer[], code: string): CodeGuess {
  return {
    pick: (rows) => matchingCodeId(secrets, rows, code),
    hashesFor: (rowId) => secrets.map((secret) => hashCode(secret, rowId, code)),
  };
}
