import { setTimeout as sleep } from 'node:timers/promises';
import type { Pool, PoolClient } from 'pg';
import { type AppliedMigration, loadMigrations, type Migration, newerMigrations } from '../migrations.js';
import { ADVISORY_LOCKS } from './advisory-locks.js';
import { runConcurrently } from './concurrent-migration.js';

/**
 * Applies the PostgreSQL migrations not yet applied, in one transaction that holds an advisory
 * lock: many instances may start at once, and the first one migrates while the others wait and
 * then find nothing left to do. The lock is the transaction's own (`pg_advisory_xact_lock`), so it
 * also holds through PgBouncer in transaction mode, and a failed migration leaves nothing behind.
 *
 * A migration marked `-- run: concurrently` (index builds on tables written at every request) ends
 * that transaction: the migrations before it commit, one instance claims it (a row with a heartbeat
 * in schema_migration_claims, which also holds through PgBouncer) and runs its statements outside
 * any transaction without blocking the tables' writes (src/store/postgres/concurrent-migration.ts),
 * and records it; the others wait, each in short transactions of its own that no build waits on
 * for long, and take it over if the claim's heartbeat stops. The next ones go on in a new
 * transaction.
 *
 * A schema that is up to date costs no DDL, so a runtime role without CREATE or ownership
 * (deploy/postgres/runtime-role.sql) starts once the owner has migrated; a database a newer version
 * migrated is refused (NewerSchemaError) unless its newer migrations are marked tolerated.
 */
export async function applyMigrations(
  pool: Pool,
  pollMs = 500,
): Promise<{ applied: number[]; newer: AppliedMigration[] }> {
  const applied: number[] = [];
  for (;;) {
    const step = await migrateInTransaction(pool);
    applied.push(...step.applied);
    if (!step.concurrent) return { applied, newer: step.newer };
    if (!step.claimed) {
      // Another instance runs it: wait without holding anything its builds would wait for.
      await sleep(pollMs);
      continue;
    }
    if (await runClaimed(pool, step.concurrent, pollMs)) applied.push(step.concurrent.version);
  }
}

/** The record of an applied migration in schema_migrations. */
const RECORD = {
  sql: 'INSERT INTO schema_migrations (version, name, applied_at, tolerated) VALUES ($1, $2, $3, $4)',
  values: (m: Migration) => [m.version, m.name, Date.now(), m.tolerated],
};

/** How long a claim on a concurrent migration lasts without its holder's heartbeat. */
const CLAIM_STALE_MS = 30_000;
const HEARTBEAT_MS = 5_000;
/** The database's clock, in ms: the instances' own clocks may disagree. */
const DB_NOW = '(extract(epoch FROM clock_timestamp()) * 1000)::bigint';

/**
 * Runs a concurrent migration this instance claimed, heartbeating the claim meanwhile, and records
 * it. Returns whether this instance recorded it. Its statements never run on two instances at once:
 * two concurrent builds or drops on one table wait for each other's transactions, which PostgreSQL
 * ends as a deadlock.
 */
async function runClaimed(pool: Pool, m: Migration, pollMs: number): Promise<boolean> {
  const beat = setInterval(() => {
    pool
      .query(`UPDATE schema_migration_claims SET heartbeat_at = ${DB_NOW} WHERE version = $1`, [m.version])
      .catch(() => {});
  }, HEARTBEAT_MS);
  beat.unref();
  try {
    await runConcurrently(pool, m, pollMs);
    const { rowCount } = await pool.query(`${RECORD.sql} ON CONFLICT (version) DO NOTHING`, RECORD.values(m));
    return rowCount === 1;
  } catch (err) {
    throw explainedPrivilege([m], err);
  } finally {
    clearInterval(beat);
    // Given up at once, done or failed: an instance waiting for it goes on (or tries) now.
    await pool.query('DELETE FROM schema_migration_claims WHERE version = $1', [m.version]).catch(() => {});
  }
}

/**
 * One transaction under the migrations' lock: the pending migrations up to the first one marked
 * concurrent, which it returns for the caller to run outside the transaction.
 */
async function migrateInTransaction(
  pool: Pool,
): Promise<{ applied: number[]; newer: AppliedMigration[]; concurrent: Migration | null; claimed: boolean }> {
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
      let concurrent: Migration | null = null;
      let claimed = false;
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
          if (m.concurrent) {
            concurrent = m;
            claimed = await claim(client, m);
            break;
          }
          await client.query(m.sql);
          await client.query(RECORD.sql, RECORD.values(m));
          done.push(m.version);
        }
      } catch (err) {
        throw explainedPrivilege(pending, err);
      }
      await client.query('COMMIT');
      return { applied: done, newer, concurrent, claimed };
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

/**
 * Claims a concurrent migration for this instance, unless another instance holds a live claim on
 * it (one whose heartbeat is recent). Runs under the migrations' lock, so two claims never cross.
 */
async function claim(client: PoolClient, m: Migration): Promise<boolean> {
  await client.query(
    'CREATE TABLE IF NOT EXISTS schema_migration_claims (version INTEGER PRIMARY KEY, heartbeat_at BIGINT NOT NULL)',
  );
  const { rows } = await client.query(
    `INSERT INTO schema_migration_claims AS c (version, heartbeat_at) VALUES ($1, ${DB_NOW})
       ON CONFLICT (version) DO UPDATE SET heartbeat_at = excluded.heartbeat_at
       WHERE c.heartbeat_at < ${DB_NOW} - $2
     RETURNING version`,
    [m.version, CLAIM_STALE_MS],
  );
  return rows.length === 1;
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

/**
 * A role that may not change the schema met a schema that needs changing (42501
 * insufficient_privilege, also for "must be owner of table"): an error that names what to do.
 * Any other error is returned as it is.
 */
function explainedPrivilege(pending: { name: string }[], err: unknown): unknown {
  if ((err as { code?: string } | null)?.code !== '42501') return err;
  const cause = err as Error;
  const what =
    pending.length > 0
      ? `migrations ${pending.map((m) => m.name).join(', ')} are pending`
      : 'the schema needs a change';
  return new Error(
    `${what}, and this database role may not apply them (${cause.message}). Run \`contact-verify migrate\` with the role that owns the schema, then start the service again (docs/operations.md, "Least privileges").`,
    { cause },
  );
}
