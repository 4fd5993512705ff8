-- Webhook endpoints and their deliveries (src/webhooks). `secret` is the signing secret sealed with
-- AES-256-GCM under a key derived from CODE_SECRET (src/webhooks/secrets.ts), never in clear.
CREATE TABLE webhook_endpoints (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  url TEXT NOT NULL,
  -- Comma-separated event types.
  events TEXT NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1,
  secret TEXT NOT NULL,
  -- Set at the first failed attempt after a success; past WEBHOOK_DISABLE_AFTER_SECONDS of failing
  -- the endpoint is disabled.
  failing_since INTEGER,
  disabled_reason TEXT,
  created_at INTEGER NOT NULL,
  deleted_at INTEGER
);
CREATE INDEX webhook_endpoints_account ON webhook_endpoints (account_id);

-- One row per endpoint and event: the fan-out inserts it in the transaction that marks the journal
-- row published, the worker sends it (lease_until keeps two workers off one row).
CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  endpoint_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  -- The signed body, built once at fan-out so every attempt sends the same bytes.
  payload TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending',
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  lease_until INTEGER,
  response_status INTEGER,
  last_error TEXT,
  created_at INTEGER NOT NULL,
  last_attempt_at INTEGER,
  UNIQUE (endpoint_id, event_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_created ON webhook_deliveries (created_at);
