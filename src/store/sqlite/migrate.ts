import type { Database } from 'better-sqlite3';
import { type AppliedMigration, loadMigrations, newerMigrations } from '../migrations.js';

/**
 * Applies the SQLite migrations not yet applied, each in its own write transaction, after refusing
 * a database that a newer version migrated past what this one knows (NewerSchemaError). Returns
 * the versions applied and the newer migrations tolerated.
 */
export function applySqliteMigrations(db: Database): { applied: number[]; newer: AppliedMigration[] } {
  db.transaction(() => {
    db.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL, tolerated INTEGER NOT NULL DEFAULT 0)',
    );
    // Databases of versions before the mark: their migrations are all known to this one.
    const columns = db.prepare('PRAGMA table_info(schema_migrations)').all() as Array<{ name: string }>;
    if (!columns.some((c) => c.name === 'tolerated')) {
      db.exec('ALTER TABLE schema_migrations ADD COLUMN tolerated INTEGER NOT NULL DEFAULT 0');
    }
  }).immediate();
  const rows = db.prepare('SELECT version, name, tolerated FROM schema_migrations').all() as Array<{
    version: number;
    name: string;
    tolerated: number;
  }>;
  const known = loadMigrations('sqlite');
  const newer = newerMigrations(
    rows.map((r) => ({ version: r.version, name: r.name, tolerated: r.tolerated === 1 })),
    known,
  );
  const done = new Set(rows.map((r) => r.version));
  const applied: number[] = [];
  for (const m of known) {
    if (done.has(m.version)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare(
        'INSERT INTO schema_migrations (version, name, applied_at, tolerated) VALUES (?, ?, ?, ?)',
      ).run(m.version, m.name, Date.now(), m.tolerated ? 1 : 0);
    }).immediate();
    applied.push(m.version);
  }
  return { applied, newer };
}
