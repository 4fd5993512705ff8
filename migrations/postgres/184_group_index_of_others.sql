-- Less for the database to write per send (issue 43): a group's id is its first request's id, so
-- that request is found by primary key, and the group index needs only the other rows (a dual
-- pair's second request, a SILENT request's fallback). A single-channel send, most sends, then
-- writes no entry in it: 95 bytes of WAL per send, and per settled request (a verify's right code
-- moves the row out of the pending indexes, so it writes an entry in every other one).
-- src/store/postgres/statements.ts (GROUP_ROWS) reads a group by both.
-- PostgreSQL only: SQLite keeps verifications_group whole (its own statements read it).
-- Not marked rollback-tolerated: the version before reads a group by `group_id = $1`, which
-- without verifications_group scans the whole table at every verify.
-- Built and dropped concurrently: sends and verifies go on writing while the index is built
-- (src/store/postgres/concurrent-migration.ts); the old index serves until the new one is valid.
-- run: concurrently
CREATE INDEX CONCURRENTLY IF NOT EXISTS verifications_group_others ON verifications (group_id) WHERE group_id <> id;
DROP INDEX CONCURRENTLY IF EXISTS verifications_group;
