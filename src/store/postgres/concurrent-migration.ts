import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import type { Migration } from '../migrations.js';
import { isUniqueViolation } from './pg-errors.js';

/**
 * Migrations marked `-- run: concurrently`: index builds and drops on tables that are written at
 * every request. A plain CREATE INDEX holds off every insert and update of its table until the
 * build ends (and inside the migrations' transaction, until that whole transaction ends): on a
 * deployment whose requests table holds millions of rows, sends would wait for the build. These
 * statements run one by one outside any transaction (as CONCURRENTLY requires), while the service
 * instances that are still running go on writing.
 *
 * One instance at a time runs them (src/store/postgres/migrate.ts claims the migration: two
 * concurrent builds on one table wait for each other, which PostgreSQL ends as a deadlock), and
 * they can be run again after a build that was cut off: an index still being built (by an instance
 * whose claim lapsed) is waited for, and one left invalid (its build failed or its process died)
 * is dropped and built again.
 */

export type ConcurrentStatement =
  | { kind: 'create'; index: string; sql: string }
  | { kind: 'drop'; index: string; sql: string };

const CREATE = /^CREATE\s+(?:UNIQUE\s+)?INDEX\s+CONCURRENTLY\s+IF\s+NOT\s+EXISTS\s+(\w+)\s+ON\s/i;
const DROP = /^DROP\s+INDEX\s+CONCURRENTLY\s+IF\s+EXISTS\s+(\w+)$/i;

/** The statements of a concurrent migration; throws for any other kind of statement. */
export function concurrentStatements(migration: Pick<Migration, 'name' | 'sql'>): ConcurrentStatement[] {
  const body = migration.sql
    .split('\n')
    .filter((line) => !/^\s*--/.test(line))
    .join('\n');
  return body
    .split(';')
    .map((sql) => sql.trim().replace(/\s+/g, ' '))
    .filter((sql) => sql !== '')
    .map((sql): ConcurrentStatement => {
      const create = CREATE.exec(sql);
      if (create) return { kind: 'create', index: create[1] as string, sql };
      const drop = DROP.exec(sql);
      if (drop) return { kind: 'drop', index: drop[1] as string, sql };
      throw new Error(
        `${migration.name} runs concurrently, so it may hold only CREATE INDEX CONCURRENTLY IF NOT EXISTS and DROP INDEX CONCURRENTLY IF EXISTS statements, not: ${sql.slice(0, 80)}`,
      );
    });
}

/** Runs a concurrent migration's statements in order; returns once every index it builds is valid. */
export async function runConcurrently(
  pool: pg.Pool,
  migration: Pick<Migration, 'name' | 'sql'>,
  pollMs = 500,
): Promise<void> {
  for (const statement of concurrentStatements(migration)) {
    if (statement.kind === 'drop') await dropIndex(pool, statement.index);
    else await buildIndex(pool, statement, pollMs);
  }
}

type IndexState = 'absent' | 'valid' | 'building' | 'invalid';

/**
 * Where an index stands: `building` while a CREATE INDEX CONCURRENTLY of it, or of an index of its
 * table whose own id is not yet known (its first moments), is under way in any session.
 */
async function indexState(pool: pg.Pool, index: string): Promise<IndexState> {
  const { rows } = await pool.query<{ valid: boolean; building: boolean }>(
    `SELECT i.indisvalid AND i.indisready AS valid,
       EXISTS (SELECT 1 FROM pg_stat_progress_create_index p
                WHERE p.index_relid = i.indexrelid OR (p.relid = i.indrelid AND p.index_relid = 0)) AS building
       FROM pg_index i WHERE i.indexrelid = to_regclass($1)`,
    [index],
  );
  const row = rows[0];
  if (!row) return 'absent';
  if (row.valid) return 'valid';
  return row.building ? 'building' : 'invalid';
}

async function buildIndex(pool: pg.Pool, statement: ConcurrentStatement, pollMs: number): Promise<void> {
  for (;;) {
    const state = await indexState(pool, statement.index);
    if (state === 'valid') return;
    if (state === 'building') {
      await sleep(pollMs);
    } else if (state === 'invalid') {
      // Left by a build that failed or whose session ended: IF NOT EXISTS would keep it as it is.
      await dropIndex(pool, statement.index);
    } else {
      try {
        await pool.query(statement.sql);
      } catch (err) {
        // Another session made it between the look and the build: the next look finds it.
        if (!isDuplicate(err)) throw err;
      }
    }
  }
}

async function dropIndex(pool: pg.Pool, index: string): Promise<void> {
  try {
    // `index` is a bare identifier (\w+, as CREATE and DROP matched it), written as the migration
    // wrote it: unquoted, so it folds to lower case as the migration's own statements and
    // to_regclass do.
    await pool.query(`DROP INDEX CONCURRENTLY IF EXISTS ${index}`);
  } catch (err) {
    // Dropped by another session meanwhile: what this drop was for is done.
    if ((await indexState(pool, index)) !== 'absent') throw err;
  }
}

/** 42P07 duplicate_table (a relation of that name), or a unique violation on its catalog row. */
const isDuplicate = (err: unknown) => (err as { code?: string }).code === '42P07' || isUniqueViolation(err);
