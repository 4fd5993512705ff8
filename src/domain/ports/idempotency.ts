/**
 * Idempotency keys of send-code, kept in the database so that every instance sees one claim.
 * The first request with a key inserts the row (the claim); a concurrent one conflicts on the
 * primary key. A claim holds a lease, so a claim of a process that died (kill -9) frees its key
 * once the lease ends instead of blocking it for 24 hours.
 */
export interface IdempotencyStore {
  /** Claims `key` in `scope`, or says why not (see ClaimOutcome). */
  claim(request: ClaimRequest): Promise<ClaimOutcome>;
  /** Stores the answer of the claim `claim`; a no-op when the claim was lost meanwhile. */
  complete(scope: string, key: string, claim: string, status: number, body: string): Promise<void>;
  /** Frees the key held by `claim`, so that a retry runs (an answer that must not be replayed). */
  release(scope: string, key: string, claim: string): Promise<void>;
  /** Deletes up to `batchSize` keys created before `before`; returns how many. */
  sweep(before: number, batchSize: number): Promise<number>;
}

export interface ClaimRequest {
  /** Who owns the key space: the API key that sent it (`key:<id>`). */
  scope: string;
  key: string;
  /** Hash of the canonical request body. */
  fingerprint: string;
  /** A random token naming this claim. */
  claim: string;
  now: number;
  leaseMs: number;
  /** Keys created before this are treated as absent (24 h before `now`). */
  expiredBefore: number;
}

export type ClaimOutcome =
  | { kind: 'claimed' }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'mismatch' }
  | { kind: 'in_use' };
