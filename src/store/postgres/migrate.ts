import type { Pool, PoolClient } from 'pg';
import { type AppliedMigration, loadMigrations, newerMigrations } from '../migrations.js';
import { ADVISORY_LOCKS } from './advisory-locks.js';

/**
 * Applies the PostgreSQL migrations not yet applied, in one transaction that holds an advisory
 * lock: many instances may start at once, and the first one migrates while the others wait and
 * then find nothing left to do. The lock is the transaction's own (`pg_advisory_xact_lock`), so it
 * also holds through PgBouncer in transaction mode, and a failed migration leaves nothing behind.
 *
 * A schema that is up to date costs no DDL, so a runtime role without CREATE or ownership
 * (deploy/postgres/runtime-role.sql) starts once the owner has migrated; a database a newer version
 * migrated is refused (NewerSchemaError) unless its newer migrations are marked tolerated.
 */
export async function applyMigrations(pool: Pool): Promise<{ applied: number[]; newer: AppliedMigration[] }> {
  const client = await pool.connect();
  // A connection lost while we hold it must not crash the process; the query in flight fails.
  const ignore = () => {};
  client.on('error', ignore);
  let failure: Error | undefined;
  try {
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1, $2)', [...ADVISORY_LOCKS.migrate]);
      const applied = await appliedMigrations(client);
      const known = loadMigrations('postgres');
      const newer = newerMigrations(applied ?? [], known);
      const versions = new Set((applied ?? []).map((m) => m.version));
      const pending = known.filter((m) => !versions.has(m.version));
      const done: number[] = [];
      try {
        if (applied === null) {
          await client.query(
            'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL, tolerated BOOLEAN NOT NULL DEFAULT false)',
          );
        } else if (!(await hasToleratedColumn(client))) {
          // Databases of versions before the mark: their migrations are all known to this one.
          await client.query(
            'ALTER TABLE schema_migrations ADD COLUMN tolerated BOOLEAN NOT NULL DEFAULT false',
          );
        }
        for (const m of pending) {
          await client.query(m.sql);
          await client.query(
            'INSERT INTO schema_migrations (version, name, applied_at, tolerated) VALUES ($1, $2, $3, $4)',
            [m.version, m.name, Date.now(), m.tolerated],
          );
          done.push(m.version);
        }
      } catch (err) {
        // 42501 insufficient_privilege, 42501 also for "must be owner of table".
        if ((err as { code?: string }).code === '42501') throw notOwner(pending, err as Error);
        throw err;
      }
      await client.query('COMMIT');
      return { applied: done, newer };
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

/** The rows of schema_migrations, or null when the table does not exist yet. */
async function appliedMigrations(client: PoolClient): Promise<AppliedMigration[] | null> {
  const { rows } = await client.query<{ present: boolean }>(
    "SELECT to_regclass('schema_migrations') IS NOT NULL AS present",
  );
  if (!rows[0]?.present) return null;
  const tolerated = await hasToleratedColumn(client);
  const result = await client.query<{ version: number; name: string; tolerated: boolean }>(
    `SELECT version, name, ${tolerated ? 'tolerated' : 'false AS tolerated'} FROM schema_migrations`,
  );
  return result.rows;
}

async function hasToleratedColumn(client: PoolClient): Promise<boolean> {
  const { rows } = await client.query(
    `SELECT 1 FROM information_schema.columns
      WHERE table_name = 'schema_migrations' AND column_name = 'tolerated'
        AND table_schema = (SELECT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                             WHERE c.oid = to_regclass('schema_migrations'))`,
  );
  return rows.length > 0;
}

/** A role that may not change the schema met a schema that needs changing: name what to do. */
function notOwner(pending: { name: string }[], cause: Error): Error {
  const what =
    pending.length > 0
      ? `migrations ${pending.map((m) => m.name).join(', ')} are pending`
      : 'the schema needs a change';
  return new Error(
    `${what}, and this database role may not apply them (${cause.message}). Run \`contact-verify migrate\` with the role that owns the schema, then start the service again (docs/operations.md, "Least privileges").`,
    { cause },
  );
}
