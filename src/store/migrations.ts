import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** Marked `-- rollback: tolerated`: the version before it runs correctly on the schema after it. */
  tolerated: boolean;
  /**
   * Marked `-- run: concurrently` (PostgreSQL): its statements build and drop indexes without
   * blocking the table's writes, so they run one by one outside the migrations' transaction
   * (src/store/postgres/concurrent-migration.ts).
   */
  concurrent: boolean;
}

/** A row of `schema_migrations`: what was applied to this database, by this version or another. */
export interface AppliedMigration {
  version: number;
  name: string;
  tolerated: boolean;
}

/**
 * Whether a migration's SQL carries the line `-- rollback: tolerated` (a line of its own, usually
 * in its leading comment): its author says the version before it runs on the schema after it.
 */
export const markedTolerated = (sql: string): boolean => /^--\s*rollback:\s*tolerated\s*$/m.test(sql);

/** Whether a migration's SQL carries the line `-- run: concurrently` (see Migration.concurrent). */
export const markedConcurrent = (sql: string): boolean => /^--\s*run:\s*concurrently\s*$/m.test(sql);

/** The numbered migrations of one dialect, from `migrations/<dialect>/NNN_name.sql`, in order. */
export function loadMigrations(dialect: 'sqlite' | 'postgres'): Migration[] {
  // src/store and dist/store sit at the same depth below the package root.
  const dir = fileURLToPath(new URL(`../../migrations/${dialect}/`, import.meta.url));
  return readdirSync(dir)
    .filter((file) => /^\d+_.+\.sql$/.test(file))
    .map((file) => {
      const sql = readFileSync(dir + file, 'utf8');
      return {
        version: Number.parseInt(file, 10),
        name: file.replace(/\.sql$/, ''),
        sql,
        tolerated: markedTolerated(sql),
        concurrent: markedConcurrent(sql),
      };
    })
    .sort((a, b) => a.version - b.version);
}

/** The database was migrated by a newer version, past what this version can run on. */
export class NewerSchemaError extends Error {
  override readonly name = 'NewerSchemaError';
}

/**
 * The migrations a newer version applied that this one does not know (a rollback after an
 * upgrade). Returns them when every one is marked tolerated (the service runs, and says so);
 * throws NewerSchemaError when one is not, before this version reads or writes anything.
 */
export function newerMigrations(applied: AppliedMigration[], known: Migration[]): AppliedMigration[] {
  const versions = new Set(known.map((m) => m.version));
  const unknown = applied.filter((m) => !versions.has(m.version)).sort((a, b) => a.version - b.version);
  const refused = unknown.filter((m) => !m.tolerated);
  if (refused.length > 0) {
    throw new NewerSchemaError(
      `The database has migrations this version of contact-verify does not know: ${refused.map((m) => m.name).join(', ')}. ` +
        'A newer version migrated it, and this one may not run on its schema. Run the newer version, or restore the ' +
        'backup taken before the upgrade (docs/operations.md, "Upgrade and roll back").',
    );
  }
  return unknown;
}

/** The note a start logs when it runs on a schema with newer, tolerated migrations. */
export const toleratedNote = (unknown: AppliedMigration[]): string =>
  `running on a database a newer version migrated (${unknown.map((m) => m.name).join(', ')}, each marked tolerated by older versions)`;
