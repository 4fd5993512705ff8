-- The cache of carrier lookups where no Redis is configured; the twin of
-- migrations/sqlite/130_number_lookups.sql, which says what each column holds.
-- A version before this one never reads the table.
-- rollback: tolerated
CREATE TABLE number_lookups (
  key TEXT PRIMARY KEY,
  line JSONB,
  line_expires_at BIGINT NOT NULL DEFAULT 0,
  sim JSONB,
  sim_expires_at BIGINT NOT NULL DEFAULT 0,
  expires_at BIGINT NOT NULL
);
CREATE INDEX number_lookups_expires ON number_lookups (expires_at);
