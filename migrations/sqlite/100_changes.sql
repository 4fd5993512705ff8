-- Bookkeeping leaves the request path. No trigger writes on `verifications` any more: every
-- statement that changes a request (a send with its supersede, an attempt, a settle, a delivery,
-- the sweeper's expiry) or blocks a contact appends one narrow row to `changes` in the same
-- write unit, and the fold (src/store/fold/) derives from those rows, off the request path, the
-- analytics buckets, the contacts and the webhook deliveries, then deletes them. The journal
-- table `events` and its cursors go. See docs/architecture.md. The twin of
-- migrations/postgres/100_changes.sql.

CREATE TABLE changes (
  seq INTEGER PRIMARY KEY,
  -- created, dispatched, delivered, undelivered, verified, failed, expired, canceled (of the
  -- request request_id), contact.blocked, contact.unblocked (of the contact contact_id).
  kind TEXT NOT NULL,
  request_id TEXT,
  contact_id TEXT,
  at INTEGER NOT NULL,
  -- The request's provider when the change was made ('outbox' for a message the outbox took).
  provider TEXT,
  -- contact.blocked: {"reason": …}
  data TEXT
);

-- The code of a message the outbox took, in clear only while its request is pending: the
-- statement that settles the request clears it (the stored content carries the code masked).
ALTER TABLE verifications ADD COLUMN outbox_code TEXT;
UPDATE verifications
SET outbox_code = json_extract(outbox, '$.request.code'),
  outbox = json_set(outbox, '$.request.code',
    substr('**********', 1, length(json_extract(outbox, '$.request.code'))))
WHERE status = 'pending' AND outbox IS NOT NULL;

-- Journal rows the old fold had not counted yet become changes (wrong codes journaled as rows
-- of their own before migration 080 were folded long ago and have no change kind).
INSERT INTO changes (kind, request_id, contact_id, at, provider, data)
SELECT CASE WHEN e.type LIKE 'verification.%' THEN substr(e.type, 14) ELSE e.type END,
  e.request_id, CASE WHEN e.type LIKE 'contact.%' THEN e.contact_id END, e.created_at,
  CASE WHEN e.type = 'verification.created' THEN v.provider ELSE e.provider END,
  CASE WHEN e.type LIKE 'contact.%' THEN e.data END
FROM events e LEFT JOIN verifications v ON v.id = e.request_id
WHERE e.seq > (SELECT last_seq FROM analytics_fold WHERE id = 1)
  AND e.type <> 'verification.attempt_failed'
ORDER BY e.seq;

-- Rows the old fold had counted but the webhook fan-out had not published yet: their deliveries
-- are made here, with the body src/webhooks/events.ts makes (null members left out).
INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, payload, next_attempt_at, created_at)
SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-a'
    || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), w.id, e.id, e.type,
  json_object('type', e.type, 'timestamp', t.iso, 'data', json_patch('{}', json_object(
    'id', e.id, 'type', e.type, 'timestamp', t.iso, 'accountId', e.account_id, 'test', json(CASE WHEN e.test THEN 'true' ELSE 'false' END),
    'requestId', e.request_id, 'groupId', e.group_id, 'contactId', e.contact_id, 'channel', e.channel,
    'to', e.to_masked, 'country', e.country, 'purpose', e.purpose, 'status', e.status, 'provider', e.provider))),
  CAST(unixepoch('subsec') * 1000 AS INTEGER), CAST(unixepoch('subsec') * 1000 AS INTEGER)
FROM events e
JOIN (SELECT seq, strftime('%Y-%m-%dT%H:%M:%fZ', created_at / 1000.0, 'unixepoch') AS iso FROM events) t ON t.seq = e.seq
JOIN webhook_endpoints w ON w.account_id = e.account_id AND w.enabled = 1 AND w.deleted_at IS NULL
  AND (',' || w.events || ',') LIKE ('%,' || e.type || ',%')
WHERE e.seq > (SELECT last_seq FROM webhook_fanout WHERE id = 1)
  AND e.seq <= (SELECT last_seq FROM analytics_fold WHERE id = 1)
  AND e.type <> 'verification.attempt_failed'
ON CONFLICT (endpoint_id, event_id) DO NOTHING;

DROP TRIGGER verifications_supersede;
DROP TRIGGER verifications_erase_settled_code;
DROP TRIGGER journal_created;
DROP TRIGGER journal_status;
DROP TRIGGER journal_delivery;
DROP TRIGGER journal_provider;
DROP TRIGGER country_window_sent;
DROP TRIGGER country_window_verified;

DROP TABLE events;
DROP TABLE analytics_fold;
DROP TABLE webhook_fanout;
DROP TABLE contacts_fold;
-- The breaker's window is counted with the rate limits (src/domain/pumping-breaker.ts).
DROP TABLE country_window;

-- A request no longer names its contact: the contact of a destination is found by destination,
-- and the fold no longer marks requests it counted before their provider was known.
ALTER TABLE verifications DROP COLUMN contact_id;
ALTER TABLE verifications DROP COLUMN sent_unplaced;
