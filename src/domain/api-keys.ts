import { randomBytes } from 'node:crypto';
import { timeOrderedHex } from './ids.js';
import { sha256 } from './sha256.js';
import type { Mode } from './types.js';

/** Secrets look like `cvk_live_<43 chars>` or `cvk_test_<43 chars>`: recognisable in logs and scanners. */
export const KEY_PATTERN = /^cvk_(live|test)_[A-Za-z0-9_-]{43}$/;

/** A new API key secret: 256 bits from the CSPRNG behind a recognisable prefix. */
export function generateApiKeySecret(mode: Mode): string {
  return `cvk_${mode}_${randomBytes(32).toString('base64url')}`;
}

/** Keys carry 256 bits of entropy, so an unkeyed SHA-256 is enough to make the stored form useless. */
export function hashApiKey(secret: string): string {
  return sha256(secret, 'hex');
}

/** The part of a key shown in lists: enough to recognise it, far too little to use it. */
export function keyPrefix(secret: string): string {
  return secret.slice(0, 13);
}

/** Opaque identifiers for accounts, keys and messages, e.g. `acc_3f9a…`; time-ordered (see ids.ts). */
export function newId(kind: 'acc' | 'key' | 'msg'): string {
  return `${kind}_${timeOrderedHex(Date.now())}`;
}
