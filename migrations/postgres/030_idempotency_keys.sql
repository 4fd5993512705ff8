-- Idempotency-Key of send-code; the twin of migrations/sqlite/030_idempotency_keys.sql.
CREATE TABLE idempotency_keys (
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  claim TEXT NOT NULL,
  lease_until BIGINT NOT NULL,
  status INTEGER,
  body TEXT,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
