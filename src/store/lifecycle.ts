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
  /**
   * Starts the fold of the change log beside the request path, every `intervalMs`, where the
   * store can (SQLite: on a thread of its own); null (or absent) where the caller folds on its own
   * timer. `onFailed`: the background fold stopped by itself, and the caller's timer takes over.
   */
  foldInBackground?(
    intervalMs: number,
    events: { onError: (message: string) => void; onFailed: (err: Error) => void },
  ): BackgroundFold | null;
}

/** A fold that runs beside the request path, stopped before the store closes. */
export interface BackgroundFold {
  /** Resolves once the fold has finished its unit under way and closed its connection. */
  stop(): Promise<void>;
}
