-- Idempotency-Key of send-code (src/http/idempotency.ts). The primary key is the claim: the first
-- request inserts the row, a concurrent one conflicts. `lease_until` bounds how long a claim of a
-- crashed process blocks its key; `status` is 200 etc. once the answer is stored, NULL meanwhile.
-- The sweeper deletes rows older than 24 h.
CREATE TABLE idempotency_keys (
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  claim TEXT NOT NULL,
  lease_until INTEGER NOT NULL,
  status INTEGER,
  body TEXT,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (scope, key)
) WITHOUT ROWID;
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
