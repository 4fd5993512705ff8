-- Bookkeeping leaves the request path. No trigger writes on `verifications` any more: every
-- statement that changes a request (a send with its supersede, an attempt, a settle, a delivery,
-- the sweeper's expiry) or blocks a contact appends one narrow row to `changes` in the same
-- statement, and the fold (src/store/fold/) derives from those rows, off the request path and
-- on every instance (FOR UPDATE SKIP LOCKED), the analytics buckets, the contacts and the webhook
-- deliveries, then deletes them. The journal table `events` goes. See docs/architecture.md. The
-- twin of migrations/sqlite/100_changes.sql.

CREATE TABLE changes (
  seq BIGSERIAL PRIMARY KEY,
  -- created, dispatched, delivered, undelivered, verified, failed, expired, canceled (of the
  -- request request_id), contact.blocked, contact.unblocked (of the contact contact_id).
  kind TEXT NOT NULL,
  request_id TEXT,
  contact_id TEXT,
  at BIGINT NOT NULL,
  -- The request's provider when the change was made ('outbox' for a message the outbox took).
  provider TEXT,
  -- contact.blocked: {"reason": …}
  data JSONB
);

-- The code of a message the outbox took, in clear only while its request is pending: the
-- statement that settles the request clears it (the stored content carries the code masked).
ALTER TABLE verifications ADD COLUMN outbox_code TEXT;
UPDATE verifications
SET outbox_code = outbox::jsonb #>> '{request,code}',
  outbox = jsonb_set(outbox::jsonb, '{request,code}',
    to_jsonb(repeat('*', length(outbox::jsonb #>> '{request,code}'))))::text
WHERE status = 'pending' AND outbox IS NOT NULL;

-- Journal rows the old fold had not counted yet become changes (wrong codes journaled as rows
-- of their own before migration 080 were folded long ago and have no change kind).
INSERT INTO changes (kind, request_id, contact_id, at, provider, data)
SELECT CASE WHEN e.type LIKE 'verification.%' THEN substr(e.type, 14) ELSE e.type END,
  e.request_id, CASE WHEN e.type LIKE 'contact.%' THEN e.contact_id END, e.created_at,
  CASE WHEN e.type = 'verification.created' THEN v.provider ELSE e.provider END,
  CASE WHEN e.type LIKE 'contact.%' THEN e.data END
FROM events e LEFT JOIN verifications v ON v.id = e.request_id
WHERE NOT e.folded AND e.type <> 'verification.attempt_failed'
ORDER BY e.seq;

-- Rows the old fold had counted but the webhook fan-out had not published yet: their deliveries
-- are made here, with the body src/webhooks/events.ts makes (null members left out).
INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, payload, next_attempt_at, created_at)
SELECT gen_random_uuid()::text, w.id, e.id, e.type,
  jsonb_build_object('type', e.type, 'timestamp', t.iso, 'data', jsonb_strip_nulls(jsonb_build_object(
    'id', e.id, 'type', e.type, 'timestamp', t.iso, 'accountId', e.account_id, 'test', e.test,
    'requestId', e.request_id, 'groupId', e.group_id, 'contactId', e.contact_id, 'channel', e.channel,
    'to', e.to_masked, 'country', e.country, 'purpose', e.purpose, 'status', e.status,
    'provider', e.provider)))::text,
  (extract(epoch FROM clock_timestamp()) * 1000)::bigint, (extract(epoch FROM clock_timestamp()) * 1000)::bigint
FROM events e
CROSS JOIN LATERAL (SELECT to_char(to_timestamp(e.created_at / 1000.0) AT TIME ZONE 'UTC',
  'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS iso) t
JOIN webhook_endpoints w ON w.account_id = e.account_id AND w.enabled AND w.deleted_at IS NULL
  AND (',' || w.events || ',') LIKE ('%,' || e.type || ',%')
WHERE e.folded AND NOT e.published AND e.type <> 'verification.attempt_failed'
ON CONFLICT (endpoint_id, event_id) DO NOTHING;

DROP TRIGGER verifications_erase_settled_code ON verifications;
DROP TRIGGER journal_created ON verifications;
DROP TRIGGER journal_status ON verifications;
DROP TRIGGER journal_delivery ON verifications;
DROP TRIGGER journal_provider ON verifications;
DROP FUNCTION verifications_erase_settled_code();
DROP FUNCTION journal_created();
DROP FUNCTION journal_status();
DROP FUNCTION journal_delivery();
DROP FUNCTION journal_provider();
DROP FUNCTION journal_event(verifications, TEXT, BIGINT, JSONB);
DROP FUNCTION analytics_add(verifications, TEXT, INT, INT, INT, INT, INT, INT, INT, INT);
DROP FUNCTION journal_now();

DROP TABLE events;
DROP TABLE contacts_fold;
-- The breaker's window is counted with the rate limits (src/domain/pumping-breaker.ts).
DROP TABLE country_window;

-- A request no longer names its contact: the contact of a destination is found by destination,
-- and the fold no longer marks requests it counted before their provider was known.
ALTER TABLE verifications DROP COLUMN contact_id;
ALTER TABLE verifications DROP COLUMN sent_unplaced;
