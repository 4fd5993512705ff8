import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { Config } from '../config/schema.js';
import type { Store } from '../store/factory.js';
import { loadMigrations, newerMigrations } from '../store/migrations.js';

export const OPERATION_USAGE = `  contact-verify backup <file>                     # SQLite, online (PostgreSQL: pg_dump)
  contact-verify restore <file>                    # SQLite, with the service stopped
  contact-verify sessions close-all                # signs every dashboard session out`;

type Outcome = { out: unknown; text: string; code?: number };

const fail = (text: string): Outcome => ({ out: { error: text }, text, code: 2 });

/** The SQLite file DATABASE_URL names, or null for another database. */
function sqlitePath(config: Config): string | null {
  if (!config.databaseUrl.startsWith('sqlite:')) return null;
  const path = config.databaseUrl.slice('sqlite:'.length) || './data/verify.db';
  return path === ':memory:' ? null : path;
}

const POSTGRES_HINT =
  'DATABASE_URL is PostgreSQL: back up with pg_dump and restore with pg_restore (docs/operations.md, "Backup and restore").';

/**
 * `backup <file>`: SQLite's online backup of the database the service uses, while it runs (each
 * step copies pages under a read lock; writes in between make the backup start over the pages
 * they changed), then checked: the copy passes integrity_check and holds the migration record.
 *
 * The copy is one file readable by its owner only (0600: it holds the code secret and the admin
 * token's hash when those were generated), out of WAL mode so that no -wal or -shm file is ever
 * made beside it; the folder is created (0700) when missing. It is written under a temporary name
 * in that folder and renamed once checked, so a backup of the same name is replaced whole or not
 * at all.
 */
export async function backup(config: Config, file: string | undefined): Promise<Outcome> {
  if (!file) return fail('backup needs a destination file');
  const path = sqlitePath(config);
  if (path === null) return fail(POSTGRES_HINT);
  if (!existsSync(path)) return fail(`no database at ${path}`);
  if (resolve(file) === resolve(path)) return fail('backup needs a file other than the database');
  const partial = join(dirname(resolve(file)), `.${basename(file)}.${process.pid}.partial`);
  try {
    mkdirSync(dirname(partial), { recursive: true, mode: 0o700 });
    // Made here first, so SQLite writes into a file that was never readable by others.
    closeSync(openSync(partial, 'wx', 0o600));
  } catch (err) {
    return fail(`cannot write the backup at ${file}: ${(err as Error).message}`);
  }
  try {
    const db = new BetterSqlite3(path, { fileMustExist: true });
    try {
      await db.backup(partial);
    } finally {
      db.close();
    }
    const copy = new BetterSqlite3(partial, { fileMustExist: true });
    try {
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
    const checked = inspect(partial);
    if ('error' in checked) return fail(`the backup of ${path} is not usable: ${checked.error}`);
    renameSync(partial, file);
    return {
      out: { file, ...checked },
      text: `backed up ${path} to ${file} (schema ${checked.schema}, ${checked.verifications} verification requests)`,
    };
  } finally {
    for (const leftover of [partial, `${partial}-journal`, `${partial}-wal`, `${partial}-shm`])
      rmSync(leftover, { force: true });
  }
}

/**
 * `restore <file>`: replaces the database DATABASE_URL names with a backup, through SQLite's
 * backup API (so a write-ahead log the old file left behind is recovered into it first rather
 * than replayed over the restored pages). The backup must pass integrity_check and be a schema
 * this version runs on. Stop the service first: it keeps caches of what it read.
 */
export async function restore(config: Config, file: string | undefined): Promise<Outcome> {
  if (!file) return fail('restore needs a backup file');
  const path = sqlitePath(config);
  if (path === null) return fail(POSTGRES_HINT);
  if (!existsSync(file)) return fail(`no backup at ${file}`);
  if (resolve(file) === resolve(path)) return fail('restore needs a file other than the database');
  const checked = inspect(file);
  if ('error' in checked) return fail(`${file} cannot be restored: ${checked.error}`);
  const source = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  try {
    await source.backup(path);
  } finally {
    source.close();
  }
  return {
    out: { file, database: path, ...checked },
    text: `restored ${path} from ${file} (schema ${checked.schema}, ${checked.verifications} verification requests)`,
  };
}

/** A backup's integrity, its latest migration, and whether this version may run on it. */
function inspect(file: string): { schema: string; verifications: number } | { error: string } {
  let db: BetterSqlite3.Database;
  try {
    db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  } catch (err) {
    return { error: (err as Error).message };
  }
  try {
    const integrity = db.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') return { error: `integrity_check: ${String(integrity)}` };
    const hasTable = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
      .get();
    if (!hasTable) return { error: 'not a contact-verify database (no schema_migrations)' };
    const columns = (db.prepare('PRAGMA table_info(schema_migrations)').all() as Array<{ name: string }>).map(
      (c) => c.name,
    );
    const rows = db
      .prepare(
        `SELECT version, name, ${columns.includes('tolerated') ? 'tolerated' : '0 AS tolerated'} AS tolerated FROM schema_migrations ORDER BY version`,
      )
      .all() as Array<{ version: number; name: string; tolerated: number }>;
    newerMigrations(
      rows.map((r) => ({ ...r, tolerated: r.tolerated === 1 })),
      loadMigrations('sqlite'),
    );
    const { n } = db.prepare('SELECT count(*) AS n FROM verifications').get() as { n: number };
    return { schema: rows.at(-1)?.name ?? 'empty', verifications: n };
  } catch (err) {
    return { error: (err as Error).message };
  } finally {
    db.close();
  }
}

/** `sessions close-all`: every dashboard session ends (after an admin token rotation). */
export async function closeAllSessions(store: Store): Promise<Outcome> {
  let closed = 0;
  // Every session has expired by the end of time: the retention sweep, in batches.
  for (let n = -1; n !== 0; closed += n) n = await store.sessions.sweep(Number.MAX_SAFE_INTEGER, 1000);
  return { out: { closed }, text: `closed ${closed} dashboard session(s)` };
}
