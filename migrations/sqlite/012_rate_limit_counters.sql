-- The rate-limit counters of the embedded default (SQLite without Redis), kept in the same file
-- so that a restart forgives nothing: the resend cooldown, the hourly caps, the daily budget of
-- wrong codes. Decisions are made in memory; each change is appended here in the batch of the
-- request that made it, and the live counters are read back at start, the newest row of each
-- counter winning. A log rather than one row per counter: counter keys are random (digests of
-- destinations), and an update in place at a random place of a B-tree cost ten times an append
-- (measured: 42 against 4 µs per send). Keys are digests, never destinations in clear.
CREATE TABLE rate_limit_log (
  seq INTEGER PRIMARY KEY,
  family TEXT NOT NULL,
  key TEXT NOT NULL,
  used INTEGER NOT NULL,
  ends_at INTEGER NOT NULL
);
