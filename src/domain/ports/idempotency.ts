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

/** A stored key as both stores read it. */
export interface IdempotencyRow {
  fingerprint: string;
  claim: string;
  lease_until: number | string;
  status: number | null;
  body: string | null;
  created_at: number | string;
}

/**
 * What a request that found `row` in its way may do: the one rule both stores apply. `expired`:
 * the row is past 24 h and may be deleted; `take_over`: its claimer's lease ended without an answer.
 */
export function judgeExisting(
  row: IdempotencyRow,
  request: ClaimRequest,
): ClaimOutcome | { kind: 'expired' } | { kind: 'take_over' } {
  if (Number(row.created_at) < request.expiredBefore) return { kind: 'expired' };
  if (row.fingerprint !== request.fingerprint) return { kind: 'mismatch' };
  if (row.status !== null) return { kind: 'replay', status: Number(row.status), body: row.body ?? '' };
  if (Number(row.lease_until) > request.now) return { kind: 'in_use' };
  return { kind: 'take_over' };
}
