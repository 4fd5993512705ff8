-- The processes that serve on this database (src/store/instances/): each registers at start and
-- says it is alive every 10 s, so that an instance sees the others and says so (at start, and in
-- GET /health) when several share the database while one of them has no REDIS_URL: their rate
-- limits would be counted apart, and an instance without Redis would keep a destination filter
-- that misses the others' sends. The sweeper deletes rows unseen for a day.
-- A version before this one neither registers nor reads the table:
-- rollback: tolerated
CREATE TABLE instances (
  id TEXT PRIMARY KEY,
  host TEXT NOT NULL,
  pid INTEGER NOT NULL,
  version TEXT NOT NULL,
  redis INTEGER NOT NULL,
  started_at INTEGER NOT NULL,
  seen_at INTEGER NOT NULL
) WITHOUT ROWID;
