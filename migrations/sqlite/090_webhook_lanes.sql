-- The webhook worker's steady pool (src/webhooks/worker.ts) claims due deliveries endpoint by
-- endpoint, each up to its in-flight cap, counting the live leases every instance holds on it.
-- `consecutive_timeouts` counts the endpoint's attempts in a row that got no answer in time (a
-- success resets it, other failures leave it): past WEBHOOK_SLOW_AFTER_TIMEOUTS the endpoint is in
-- the slow lane, one attempt in flight at a time. The twin of migrations/postgres/090_webhook_lanes.sql.
ALTER TABLE webhook_endpoints ADD COLUMN consecutive_timeouts INTEGER NOT NULL DEFAULT 0;
-- An endpoint's due deliveries, oldest first (ties by id, so that claims at once offer the same
-- rows): a backlog of another endpoint is never walked.
CREATE INDEX webhook_deliveries_endpoint_due ON webhook_deliveries (endpoint_id, next_attempt_at, id)
  WHERE status = 'pending';
-- An endpoint's live leases (lease_until ahead of now): what it has in flight, on every instance.
CREATE INDEX webhook_deliveries_endpoint_lease ON webhook_deliveries (endpoint_id, lease_until)
  WHERE status = 'pending';
-- The claim across every endpoint in due order is gone; nothing else reads this index.
DROP INDEX webhook_deliveries_due;
