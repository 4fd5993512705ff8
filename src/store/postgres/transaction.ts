import type pg from 'pg';
import { isConnectionError, toStoreError } from './pg-errors.js';
import type { Named } from './statements.js';

/** What a transaction's work may run its statements on. */
export type Runner = Pick<pg.PoolClient, 'query'>;

/**
 * One statement on the pool (or a transaction's client), a dropped connection as StoreUnavailable;
 * a named one is prepared once per connection.
 */
export async function queryOn(runner: Runner, statement: string | Named, params: unknown[] = []) {
  try {
    const config = typeof statement === 'string' ? { text: statement } : statement;
    return await runner.query({ ...config, values: params });
  } catch (err) {
    throw toStoreError(err);
  }
}

/**
 * Runs `work` in one transaction on one pooled connection. A connection that dropped (or whose
 * ROLLBACK failed) is released as broken, so the pool never hands it out again.
 */
export async function inTransaction<T>(pool: pg.Pool, work: (client: Runner) => Promise<T>): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (err) {
    throw toStoreError(err);
  }
  // While checked out, a dropped connection is reported here and by the query in flight.
  const ignore = () => {};
  client.on('error', ignore);
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    if (isConnectionError(err)) broken = err as Error;
    else await client.query('ROLLBACK').catch((e: Error) => (broken = e));
    throw toStoreError(err);
  } finally {
    client.off('error', ignore);
    client.release(broken);
  }
}
