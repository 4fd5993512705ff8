-- Initial schema, the PostgreSQL twin of migrations/sqlite/001_init.sql: same tables, columns and
-- meaning. Times are epoch milliseconds (BIGINT); code hashes are HMAC-SHA-256 digests.
CREATE TABLE settings (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  settings JSONB NOT NULL DEFAULT '{}',
  created_at BIGINT NOT NULL
);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  name TEXT NOT NULL,
  prefix TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  channels TEXT NOT NULL,
  test BOOLEAN NOT NULL DEFAULT FALSE,
  created_at BIGINT NOT NULL,
  revoked_at BIGINT
);

CREATE TABLE verifications (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  group_id TEXT NOT NULL,
  channel TEXT NOT NULL,
  destination TEXT NOT NULL,
  delivery_type TEXT,
  country TEXT,
  purpose TEXT,
  code_hash BYTEA NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending',
  attempts INTEGER NOT NULL DEFAULT 0,
  max_attempts INTEGER NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  verified_at BIGINT,
  delivery_status TEXT NOT NULL,
  provider TEXT,
  provider_message_id TEXT,
  delivery_error TEXT,
  -- Set when the built-in outbox took the message: what it takes to render it (JSON), read back
  -- by the admin API. Kept on the row rather than in a table of its own: one row written per send.
  outbox TEXT
);

CREATE INDEX verifications_group ON verifications (group_id);
-- Serves the supersede of a destination's pending code and the outbox listing by destination.
-- Destinations are random keys: this is the one index a send writes to at a random place.
CREATE INDEX verifications_destination ON verifications (destination);
-- At most one live code per account, channel and destination. Two sends racing to one destination
-- cannot both miss each other's row in the supersede: the second one's insert waits for the first
-- and fails on this index, and its retry cancels the first one's code (postgres-store.ts).
CREATE UNIQUE INDEX verifications_one_live ON verifications (destination, account_id, channel)
  WHERE status = 'pending';
CREATE INDEX verifications_pending_expiry ON verifications (expires_at) WHERE status = 'pending';
CREATE INDEX verifications_created ON verifications (created_at);
CREATE INDEX verifications_provider_message ON verifications (provider, provider_message_id)
  WHERE provider_message_id IS NOT NULL;
