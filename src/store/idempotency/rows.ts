import type { ClaimOutcome, ClaimRequest } from '../../domain/ports/idempotency.js';

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
