-- Initial schema. Times are epoch milliseconds; code hashes are HMAC-SHA-256 digests.
CREATE TABLE settings (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  settings TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL
);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  name TEXT NOT NULL,
  prefix TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  channels TEXT NOT NULL,
  test INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
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
  code_hash BLOB NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending',
  attempts INTEGER NOT NULL DEFAULT 0,
  max_attempts INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  verified_at INTEGER,
  delivery_status TEXT NOT NULL,
  provider TEXT,
  provider_message_id TEXT,
  delivery_error TEXT
) WITHOUT ROWID;

CREATE INDEX verifications_group ON verifications (group_id);
-- One live code per destination and channel: the supersede lookup only scans pending rows.
CREATE INDEX verifications_live_destination ON verifications (account_id, channel, destination)
  WHERE status = 'pending';
CREATE INDEX verifications_pending_expiry ON verifications (expires_at) WHERE status = 'pending';
CREATE INDEX verifications_created ON verifications (created_at);
CREATE INDEX verifications_provider_message ON verifications (provider, provider_message_id)
  WHERE provider_message_id IS NOT NULL;

CREATE TABLE outbox (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL,
  verification_id TEXT,
  channel TEXT NOT NULL,
  destination TEXT NOT NULL,
  subject TEXT,
  text TEXT NOT NULL,
  html TEXT,
  created_at INTEGER NOT NULL
);

CREATE INDEX outbox_destination ON outbox (destination, seq);
CREATE INDEX outbox_created ON outbox (created_at);
