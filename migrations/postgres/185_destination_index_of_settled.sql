-- Less for the database to write per send (issue 43): a pending request is already in
-- verifications_one_live, whose first column is its destination, so the destination index needs
-- only the requests that have left pending. A send then writes no entry in it (86 bytes of WAL);
-- its request gets one when it settles, by the update that takes it out of the pending indexes,
-- which wrote an entry in this index before too. src/store/postgres/request-reads.ts
-- (TO_DESTINATION) reads a destination's requests by both.
-- PostgreSQL only: SQLite keeps verifications_destination whole (its own statements read it).
-- Not marked rollback-tolerated: the version before reads a destination's requests by
-- `destination = $1`, which without verifications_destination scans the whole table at every send.
-- Built and dropped concurrently, as migration 184.
-- run: concurrently
CREATE INDEX CONCURRENTLY IF NOT EXISTS verifications_settled_destination ON verifications (destination)
  WHERE status <> 'pending';
DROP INDEX CONCURRENTLY IF EXISTS verifications_destination;
