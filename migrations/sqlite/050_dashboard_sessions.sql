-- Sessions of the operator dashboard (src/http/dashboard/sessions.ts). Only the SHA-256 of the
-- session id is kept: a copy of the database does not sign anyone in. The CSRF token is derived
-- from the session id (an HMAC), so nothing else about a session is stored. The sweeper deletes
-- rows past expires_at.
CREATE TABLE dashboard_sessions (
  id_hash TEXT PRIMARY KEY,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX dashboard_sessions_expires ON dashboard_sessions (expires_at);

-- When a key last authenticated a request, written at most once a minute per key and process
-- (src/http/key-uses.ts): NULL for a key never used since this column exists.
ALTER TABLE api_keys ADD COLUMN last_used_at INTEGER;
