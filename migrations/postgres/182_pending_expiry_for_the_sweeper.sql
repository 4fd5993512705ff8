-- The pending requests by expiry, for the sweeper (sweepExpire: `status = 'pending' AND
-- expires_at <= $1`), and no longer a candidate for a send's lookup of its pending predecessor.
-- That lookup says `status = 'pending'` (verifications_one_live needs it), which the old predicate
-- matched too: the send's statement, planned once per connection (plannedOnce in
-- src/store/postgres/statements.ts), when planned on a table of a few hundred requests whose
-- statistics were never analysed, chose a walk of this whole index over verifications_one_live
-- and kept it, so that every send read every pending request (bench:versus: PostgreSQL CPU per
-- send 2-4 times, p99 170 ms, in the rounds whose connections planned it so). `expires_at IS NOT
-- NULL` follows from the sweeper's comparison, and from no statement that leaves expires_at out.
-- rollback: tolerated
-- PostgreSQL only: SQLite plans every statement as it runs.
-- Dropped and built again concurrently: sends and verifies go on writing meanwhile (the sweeper
-- reads the table without the index until the build ends; src/store/postgres/concurrent-migration.ts).
-- run: concurrently
DROP INDEX CONCURRENTLY IF EXISTS verifications_pending_expiry;
CREATE INDEX CONCURRENTLY IF NOT EXISTS verifications_pending_expiry ON verifications (expires_at)
  WHERE status = 'pending' AND expires_at IS NOT NULL;
