-- The processes that serve on this database; the twin of migrations/sqlite/121_instances.sql.
-- A version before this one neither registers nor reads the table:
-- rollback: tolerated
CREATE TABLE instances (
  id TEXT PRIMARY KEY,
  host TEXT NOT NULL,
  pid INTEGER NOT NULL,
  version TEXT NOT NULL,
  redis BOOLEAN NOT NULL,
  started_at BIGINT NOT NULL,
  seen_at BIGINT NOT NULL
);
