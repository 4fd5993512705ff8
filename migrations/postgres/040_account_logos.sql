-- An account's uploaded logo; the twin of migrations/sqlite/040_account_logos.sql.
CREATE TABLE account_logos (
  account_id TEXT PRIMARY KEY,
  content_type TEXT NOT NULL,
  data BYTEA NOT NULL,
  updated_at BIGINT NOT NULL
);
