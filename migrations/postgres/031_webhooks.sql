-- Webhook endpoints and their deliveries; the twin of migrations/sqlite/031_webhooks.sql.
CREATE TABLE webhook_endpoints (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  url TEXT NOT NULL,
  events TEXT NOT NULL,
  enabled BOOLEAN NOT NULL DEFAULT TRUE,
  secret TEXT NOT NULL,
  failing_since BIGINT,
  disabled_reason TEXT,
  created_at BIGINT NOT NULL,
  deleted_at BIGINT
);
CREATE INDEX webhook_endpoints_account ON webhook_endpoints (account_id);

CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  endpoint_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  payload TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending',
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at BIGINT,
  lease_until BIGINT,
  response_status INTEGER,
  last_error TEXT,
  created_at BIGINT NOT NULL,
  last_attempt_at BIGINT,
  UNIQUE (endpoint_id, event_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_created ON webhook_deliveries (created_at);
