-- Sessions of the operator dashboard and API keys' last use; the twin of
-- migrations/sqlite/050_dashboard_sessions.sql.
CREATE TABLE dashboard_sessions (
  id_hash TEXT PRIMARY KEY,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX dashboard_sessions_expires ON dashboard_sessions (expires_at);

ALTER TABLE api_keys ADD COLUMN last_used_at BIGINT;
