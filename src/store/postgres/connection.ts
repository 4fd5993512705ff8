import type pg from 'pg';
import { isRetryable, toStoreError } from './pg-errors.js';
import type { Named } from './statements.js';
import { inTransaction, type Runner } from './transaction.js';

export type Params = unknown[];

/**
 * The pools the PostgreSQL store's aggregates share, and how each runs its statements on them: a
 * statement `plannedOnce` on the pool whose connections keep one plan per statement, every other
 * one on the main pool.
 */
export class PostgresConnection {
  constructor(
    readonly pool: pg.Pool,
    private readonly plannedOncePool: pg.Pool = pool,
  ) {}

  /**
   * One statement through its pool, retried when PostgreSQL rolled it back for a deadlock. A
   * named statement is prepared once per connection.
   */
  async query<R extends pg.QueryResultRow>(statement: string | Named, params: Params = [], runner?: Runner) {
    const config = typeof statement === 'string' ? { text: statement } : statement;
    const on =
      runner ?? (typeof statement !== 'string' && statement.plannedOnce ? this.plannedOncePool : this.pool);
    for (let attempt = 1; ; attempt++) {
      try {
        return await on.query<R>({ ...config, values: params });
      } catch (err) {
        if (!runner && isRetryable(err) && attempt < 3) continue;
        throw toStoreError(err);
      }
    }
  }

  /** Runs `work` in one transaction on one pooled connection. */
  transaction<T>(work: (client: Runner) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, work);
  }
}
