import type { AppliedMigration } from './migrations.js';

/** The database itself, under its aggregates: its schema, its health and its installation settings. */
export interface StoreLifecycle {
  readonly dialect: 'sqlite' | 'postgres';
  /**
   * Applies the numbered migrations not yet applied; safe to run from several processes. Rejects
   * with NewerSchemaError when a newer version migrated the database past what this one knows.
   */
  migrate(): Promise<number[]>;
  /** The migrations of a newer version this one runs on because each is marked tolerated. */
  readonly newerMigrations: readonly AppliedMigration[];
  /** Resolves true when the database answers a trivial query. */
  check(): Promise<boolean>;
  /** Writes what the current batches hold, then closes the connections. */
  close(): Promise<void>;
  /** Stores `value` under `name` unless a value is there already; returns the stored one. */
  getOrCreateSetting(name: string, value: string): Promise<{ value: string; created: boolean }>;
}
