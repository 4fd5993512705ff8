import type { Mode } from '../domain/types.js';

/**
 * The stores keep a mode in column `test`: a boolean in PostgreSQL, 1 or 0 in SQLite. These are
 * the only places that convert between the column and the domain's Mode.
 */

export const sqliteMode = (mode: Mode): 0 | 1 => (mode === 'test' ? 1 : 0);

export const postgresMode = (mode: Mode): boolean => mode === 'test';

/** The column as the dialect binds it. */
export const modeColumn = (mode: Mode, dialect: 'sqlite' | 'postgres'): boolean | 0 | 1 =>
  dialect === 'sqlite' ? sqliteMode(mode) : postgresMode(mode);

/** A row's `test` column (true/false from PostgreSQL, 1/0 from SQLite) as a Mode. */
export const rowMode = (test: unknown): Mode => (test ? 'test' : 'live');
