-- The rate-limit counters of the embedded default (SQLite without Redis), kept in the same file
-- so that a restart forgives nothing: the resend cooldown, the hourly caps, the daily budget of
-- wrong codes. Decisions are made in memory; each change is written here in the batch of the
-- request that made it, and the live counters are read back at start. Keys are digests, never
-- destinations in clear.
CREATE TABLE rate_limit_counters (
  family TEXT NOT NULL,
  key TEXT NOT NULL,
  used INTEGER NOT NULL,
  ends_at INTEGER NOT NULL,
  PRIMARY KEY (family, key)
) WITHOUT ROWID;
