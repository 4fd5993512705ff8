import type { Database } from 'better-sqlite3';
import type { ClaimOutcome, ClaimRequest, IdempotencyStore } from '../../domain/ports/idempotency.js';
import type { GroupCommit } from '../sqlite/group-commit.js';
import { type IdempotencyRow, judgeExisting } from './rows.js';

/** Idempotency keys on the SQLite store's connection: each call is one unit of its group commit. */
export class SqliteIdempotencyStore implements IdempotencyStore {
  private readonly stmts;

  constructor(
    db: Database,
    private readonly tx: GroupCommit,
  ) {
    this.stmts = {
      insert: db.prepare(
        `INSERT INTO idempotency_keys (scope, key, fingerprint, claim, lease_until, created_at)
         VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (scope, key) DO NOTHING`,
      ),
      get: db.prepare('SELECT * FROM idempotency_keys WHERE scope = ? AND key = ?'),
      remove: db.prepare('DELETE FROM idempotency_keys WHERE scope = ? AND key = ?'),
      takeOver: db.prepare(
        `UPDATE idempotency_keys SET claim = ?, lease_until = ?
         WHERE scope = ? AND key = ? AND claim = ? AND status IS NULL`,
      ),
      complete: db.prepare(
        'UPDATE idempotency_keys SET status = ?, body = ? WHERE scope = ? AND key = ? AND claim = ?',
      ),
      release: db.prepare(
        'DELETE FROM idempotency_keys WHERE scope = ? AND key = ? AND claim = ? AND status IS NULL',
      ),
      sweep: db.prepare(
        `DELETE FROM idempotency_keys WHERE (scope, key) IN (
           SELECT scope, key FROM idempotency_keys WHERE created_at < ? LIMIT ?)`,
      ),
    };
  }

  claim(r: ClaimRequest): Promise<ClaimOutcome> {
    // One unit on the one connection (and BEGIN IMMEDIATE across processes): nothing can come
    // between the read and the write.
    return this.tx.write((): ClaimOutcome => {
      const s = this.stmts;
      const insert = () =>
        s.insert.run(r.scope, r.key, r.fingerprint, r.claim, r.now + r.leaseMs, r.now).changes > 0;
      if (insert()) return { kind: 'claimed' };
      const row = s.get.get(r.scope, r.key) as IdempotencyRow;
      const verdict = judgeExisting(row, r);
      if (verdict.kind === 'expired') {
        s.remove.run(r.scope, r.key);
        insert();
        return { kind: 'claimed' };
      }
      if (verdict.kind === 'take_over') {
        s.takeOver.run(r.claim, r.now + r.leaseMs, r.scope, r.key, row.claim);
        return { kind: 'claimed' };
      }
      return verdict;
      // No savepoint: nearly every claim is the one INSERT, atomic by itself; on the rare paths
      // the unit's statements are guarded by what they expect to find.
    }, false);
  }

  async complete(scope: string, key: string, claim: string, status: number, body: string) {
    await this.tx.write(() => this.stmts.complete.run(status, body, scope, key, claim), false);
  }

  async release(scope: string, key: string, claim: string) {
    await this.tx.write(() => this.stmts.release.run(scope, key, claim), false);
  }

  sweep(before: number, batchSize: number) {
    return this.tx.write(() => this.stmts.sweep.run(before, batchSize).changes, false);
  }
}
