-- The cache of carrier lookups (src/lookup) where no Redis is configured: one row per number,
-- known only by its key (an HMAC of the number under a secret derived from CODE_SECRET, never
-- the number), with the line part (line type, carrier, country, network codes) and the SIM part
-- (the last SIM change) as JSON, each fresh until its own time: the line type for days, the SIM
-- change for an hour (LOOKUP_LINE_CACHE_SECONDS, LOOKUP_SIM_CACHE_SECONDS). `expires_at` is the
-- later of the two: the sweeper deletes rows past it.
-- A version before this one never reads the table.
-- rollback: tolerated
-- The twin of migrations/postgres/130_number_lookups.sql.
CREATE TABLE number_lookups (
  key TEXT PRIMARY KEY,
  line TEXT,
  line_expires_at INTEGER NOT NULL DEFAULT 0,
  sim TEXT,
  sim_expires_at INTEGER NOT NULL DEFAULT 0,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX number_lookups_expires ON number_lookups (expires_at);
