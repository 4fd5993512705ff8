/**
 * The advisory locks the PostgreSQL store takes, as (class, key) pairs of `pg_advisory_xact_lock`:
 * described once, so that no two uses share a key by accident. Each is a transaction's own lock,
 * released at its commit or rollback, so it also holds through PgBouncer in transaction mode.
 */
const CLASS = 0x63760000;

export const ADVISORY_LOCKS = {
  /** Migrations: the first instance to start migrates while the others wait (migrate.ts). */
  migrate: [CLASS, 1],
  /** The fold of the change log and the webhook deliveries it queues: one instance at a time (fold.ts). */
  fold: [CLASS, 2],
} as const satisfies Record<string, readonly [number, number]>;
