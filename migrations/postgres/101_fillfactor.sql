-- Room on each page for a row's next version: an update that changes no indexed column (a wrong
-- guess counted on a request, a contact's counters) then stays on its page as a HOT update and
-- writes no index entry. Pages written from now on keep this room; a version before this one
-- reads and writes the tables as before.
-- rollback: tolerated
ALTER TABLE verifications SET (fillfactor = 85);
ALTER TABLE contacts SET (fillfactor = 80);
