import type { Pool } from 'pg';
import { loadMigrations } from '../migrations.js';

// (class, key) of the advisory lock that serialises migrations across processes.
const LOCK_CLASS = 0x63760000;
const LOCK_MIGRATE = 1;

/**
 * Applies the PostgreSQL migrations not yet applied, in one transaction that holds an advisory
 * lock: many instances may start at once, and the first one migrates while the others wait and
 * then find nothing left to do. The lock is the transaction's own (`pg_advisory_xact_lock`), so it
 * also holds through PgBouncer in transaction mode, and a failed migration leaves nothing behind.
 */
export async function applyMigrations(pool: Pool): Promise<number[]> {
  const client = await pool.connect();
  // A connection lost while we hold it must not crash the process; the query in flight fails.
  const ignore = () => {};
  client.on('error', ignore);
  let failure: Error | undefined;
  try {
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_CLASS, LOCK_MIGRATE]);
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)',
      );
      const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
      const applied = new Set(rows.map((r) => r.version));
      const done: number[] = [];
      for (const m of loadMigrations('postgres')) {
        if (applied.has(m.version)) continue;
        await client.query(m.sql);
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
          m.version,
          m.name,
          Date.now(),
        ]);
        done.push(m.version);
      }
      await client.query('COMMIT');
      return done;
    } catch (err) {
      await client.query('ROLLBACK').catch(ignore);
      throw err;
    }
  } catch (err) {
    failure = err as Error;
    throw err;
  } finally {
    client.off('error', ignore);
    // A broken connection is destroyed rather than returned to the pool.
    client.release(failure);
  }
}
