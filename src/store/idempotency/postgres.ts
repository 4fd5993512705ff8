import type pg from 'pg';
import type { ClaimOutcome, ClaimRequest, IdempotencyStore } from '../../domain/ports/idempotency.js';
import { queryOn } from '../postgres/transaction.js';
import { type IdempotencyRow, judgeExisting } from './rows.js';

const SQL = {
  insert: `INSERT INTO idempotency_keys (scope, key, fingerprint, claim, lease_until, created_at)
           VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (scope, key) DO NOTHING`,
  get: 'SELECT * FROM idempotency_keys WHERE scope = $1 AND key = $2',
  removeExpired: 'DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND created_at < $3',
  takeOver: `UPDATE idempotency_keys SET claim = $1, lease_until = $2
             WHERE scope = $3 AND key = $4 AND claim = $5 AND status IS NULL AND lease_until <= $6`,
  complete: 'UPDATE idempotency_keys SET status = $1, body = $2 WHERE scope = $3 AND key = $4 AND claim = $5',
  release: 'DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND claim = $3 AND status IS NULL',
  sweep: `DELETE FROM idempotency_keys WHERE ctid IN (
            SELECT ctid FROM idempotency_keys WHERE created_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`,
};

/**
 * Idempotency keys on PostgreSQL. Every step is one statement guarded by what it expects to find,
 * so instances racing for one key settle on the primary key and the row's claim column: an
 * INSERT that conflicts waits for the winner's commit and then reads its row.
 */
export class PostgresIdempotencyStore implements IdempotencyStore {
  constructor(private readonly pool: pg.Pool) {}

  private query(text: string, params: unknown[]) {
    return queryOn(this.pool, text, params);
  }

  async claim(r: ClaimRequest): Promise<ClaimOutcome> {
    // Each turn either settles or saw the row change under it (deleted, taken over); a row changes
    // only when another request made progress, so a few turns suffice.
    for (let turn = 0; turn < 5; turn++) {
      const inserted = await this.query(SQL.insert, [
        r.scope,
        r.key,
        r.fingerprint,
        r.claim,
        r.now + r.leaseMs,
        r.now,
      ]);
      if (inserted.rowCount) return { kind: 'claimed' };
      const row = (await this.query(SQL.get, [r.scope, r.key])).rows[0] as IdempotencyRow | undefined;
      if (!row) continue;
      const verdict = judgeExisting(row, r);
      if (verdict.kind === 'expired') {
        await this.query(SQL.removeExpired, [r.scope, r.key, r.expiredBefore]);
        continue;
      }
      if (verdict.kind === 'take_over') {
        const taken = await this.query(SQL.takeOver, [
          r.claim,
          r.now + r.leaseMs,
          r.scope,
          r.key,
          row.claim,
          r.now,
        ]);
        if (taken.rowCount) return { kind: 'claimed' };
        continue;
      }
      return verdict;
    }
    return { kind: 'in_use' };
  }

  async complete(scope: string, key: string, claim: string, status: number, body: string) {
    await this.query(SQL.complete, [status, body, scope, key, claim]);
  }

  async release(scope: string, key: string, claim: string) {
    await this.query(SQL.release, [scope, key, claim]);
  }

  async sweep(before: number, batchSize: number) {
    return (await this.query(SQL.sweep, [before, batchSize])).rowCount ?? 0;
  }
}
