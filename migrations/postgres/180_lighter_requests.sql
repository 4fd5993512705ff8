-- Less for the database to write per request (issue 43). Every index of `verifications` takes an
-- entry per send and per update that cannot stay on its page; each entry is WAL.
-- rollback: tolerated

-- verifications_created served only the retention sweep, which now walks the primary key as on
-- SQLite (migrations/sqlite/002): ids are UUIDv7, ordered by creation time. 64 bytes of WAL per
-- send and per settled request.
DROP INDEX IF EXISTS verifications_created;

ALTER TABLE verifications SET (fillfactor = 70);
