-- The blocked contacts alone, for the check a send's statement makes of its destinations
-- (src/store/blocks.ts, supersedeAndInsertCheckingBlocks). Each row of a send looked its contact
-- up in contacts_destination, a descent through an index of every contact with collation-aware
-- comparisons at each level, to find it unblocked in nearly every case. In this index, which holds
-- the few blocked contacts only, the lookup costs the server less. A contact never blocked takes
-- no entry: the fold's inserts and updates of contacts write nothing more to it (a block and an
-- unblock update their row outside HOT).
-- A version before this one never names the index; its send reads contacts_destination as before.
-- rollback: tolerated
-- PostgreSQL only: SQLite's send checks a block through contacts_destination in its write unit.
-- Built concurrently: the fold goes on writing contacts while the index is built
-- (src/store/postgres/concurrent-migration.ts).
-- run: concurrently
CREATE INDEX CONCURRENTLY IF NOT EXISTS contacts_blocked ON contacts (account_id, destination, test)
  WHERE blocked_at IS NOT NULL;
