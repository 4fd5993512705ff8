import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** The numbered migrations of one dialect, from `migrations/<dialect>/NNN_name.sql`, in order. */
export function loadMigrations(dialect: 'sqlite' | 'postgres'): Migration[] {
  // src/store and dist/store sit at the same depth below the package root.
  const dir = fileURLToPath(new URL(`../../migrations/${dialect}/`, import.meta.url));
  return readdirSync(dir)
    .filter((file) => /^\d+_.+\.sql$/.test(file))
    .map((file) => ({
      version: Number.parseInt(file, 10),
      name: file.replace(/\.sql$/, ''),
      sql: readFileSync(dir + file, 'utf8'),
    }))
    .sort((a, b) => a.version - b.version);
}
