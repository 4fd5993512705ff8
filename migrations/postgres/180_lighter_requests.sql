-- Less for the database to write per request (issue 43): every index of a table takes an entry
-- per insert and per update that cannot stay on its page, and each entry is WAL.
-- rollback: tolerated

-- verifications_created served only the retention sweep, which now walks the primary key as on
-- SQLite (migrations/sqlite/002): ids are UUIDv7, ordered by creation time. 64 bytes of WAL per
-- send and per settled request.
DROP INDEX IF EXISTS verifications_created;

-- More room on each page for a row's next version (pages written from now on; 101 set 85 and 80).
-- A wrong guess counted on a request changes no indexed column: with room on its page it is a HOT
-- update, which writes a few hundred bytes less than a row version elsewhere with an entry in each
-- index (measured: a verify's WAL 1,156 bytes at 85, 849 at 60, with contacts at 50). A contact
-- is updated by the fold at every send and verify of its destination, and never by an indexed
-- column: at 80 half of those updates left the page. The tables take more pages for it.
ALTER TABLE verifications SET (fillfactor = 60);
ALTER TABLE contacts SET (fillfactor = 50);
