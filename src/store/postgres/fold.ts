import type pg from 'pg';
import { foldSql } from '../fold.js';
import { isRetryable, toStoreError } from './pg-errors.js';
import { inTransaction, type Runner } from './transaction.js';

const SQL = {
  ...foldSql('postgres', 'e.seq = ANY($1::bigint[]) AND NOT e.folded'),
  // For a read: waits for rows another fold holds (then skips them, folded), so that every row
  // committed before the read is counted when it answers.
  // An unfolded row is unpublished (the fan-out sets both): the partial index of those serves.
  take: 'SELECT seq FROM events WHERE published = false AND NOT folded ORDER BY seq LIMIT $1 FOR UPDATE',
  mark: 'UPDATE events SET folded = true WHERE seq = ANY($1::bigint[])',
};

/**
 * The batch fold of the journal into the analytics buckets on PostgreSQL (migration 060). seq
 * values are taken before commit, so rows are not folded by a cursor but by their flag: the
 * fan-out folds the rows it holds (FOR UPDATE SKIP LOCKED, so instances share the work) and marks
 * them folded in the rewrite that publishes them; an analytics read folds what is left first.
 */
export class PostgresFold {
  constructor(private readonly pool: pg.Pool) {}

  /** Adds rows `seqs` (held by the caller's transaction; those already folded are skipped). */
  static async add(client: Runner, seqs: number[]): Promise<void> {
    try {
      await client.query(SQL.markUnplaced, [seqs]);
      for (const upsert of SQL.upserts) await client.query(upsert, [seqs]);
    } catch (err) {
      throw toStoreError(err);
    }
  }

  /** Folds every row committed so far, in batches of `batchSize` (one transaction each). */
  async all(batchSize = 5_000): Promise<void> {
    for (let attempt = 1; ; ) {
      try {
        const taken = await inTransaction(this.pool, async (client) => {
          const seqs = (await client.query(SQL.take, [batchSize])).rows.map((r) => Number(r.seq));
          if (seqs.length === 0) return 0;
          await PostgresFold.add(client, seqs);
          await client.query(SQL.mark, [seqs]);
          return seqs.length;
        });
        if (taken < batchSize) return;
      } catch (err) {
        // Two folds can meet on a bucket row; PostgreSQL rolls one back, which simply runs again.
        if (!isRetryable(err) || attempt++ >= 3) throw err;
      }
    }
  }
}
