-- The analytics buckets leave the hot path: the triggers of 020 keep journaling every change in
-- the statement that makes it (and keep the contacts' counters, which the risk score reads at
-- send time), but the hourly/daily buckets and the seconds-to-verify histograms are now added by
-- a batch fold of the journal (src/store/sqlite/fold.ts): one grouped upsert per table per batch
-- instead of two to six upserts per change. See docs/analytics.md. The twin of
-- migrations/postgres/060_fold_journal.sql.

-- How far the fold got. SQLite has one writer and rows commit in seq order, so a cursor on seq
-- cannot skip a row. Everything journaled before this migration was folded by the old triggers.
CREATE TABLE analytics_fold (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  last_seq INTEGER NOT NULL
);
INSERT INTO analytics_fold (id, last_seq) VALUES (1, coalesce((SELECT max(seq) FROM events), 0));

-- The webhook fan-out's cursor, for the same reason: it publishes the rows past it and moves it,
-- instead of rewriting each row (published = 1) and keeping a partial index of the unpublished
-- ones, which every journal row paid for on the hot path. The fan-out took rows in seq order and
-- published all it took, so the published rows are the ones before the first unpublished one.
CREATE TABLE webhook_fanout (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  last_seq INTEGER NOT NULL
);
INSERT INTO webhook_fanout (id, last_seq) VALUES (1, coalesce(
  (SELECT min(seq) - 1 FROM events WHERE published = 0), (SELECT max(seq) FROM events), 0));
DROP INDEX events_unpublished;

-- Set by the fold on a request whose send it counted before a provider took the message (under
-- provider ''): when the provider comes, trigger journal_provider moves that send to its bucket.
-- The old triggers counted every send without a provider under '', so those are marked here
-- (but those the outbox kept, which no provider will take).
ALTER TABLE verifications ADD COLUMN sent_unplaced INTEGER NOT NULL DEFAULT 0;
UPDATE verifications SET sent_unplaced = 1 WHERE provider IS NULL AND delivery_status <> 'outbox';

-- The SMS-pumping breaker and the risk signal country_conversion read the last two hours of sends
-- to a country at send time, and must see the send just made: a narrow counter kept in the same
-- statement, for phone sends with a country only (an email send pays nothing).
CREATE TABLE country_window (
  account_id TEXT NOT NULL,
  test INTEGER NOT NULL,
  country TEXT NOT NULL,
  hour INTEGER NOT NULL,
  sent INTEGER NOT NULL DEFAULT 0,
  verified INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, test, country, hour)
) WITHOUT ROWID;
INSERT INTO country_window (account_id, test, country, hour, sent, verified)
  SELECT account_id, test, country, hour, sum(sent), sum(verified) FROM analytics_hourly
  WHERE channel IN ('SMS', 'WHATSAPP') AND country <> ''
    AND hour >= CAST(unixepoch() * 1000 AS INTEGER) - 3 * 3600000
  GROUP BY account_id, test, country, hour;

CREATE TRIGGER country_window_sent AFTER INSERT ON verifications
WHEN NEW.country IS NOT NULL AND NEW.channel IN ('SMS', 'WHATSAPP')
BEGIN
  INSERT INTO country_window (account_id, test, country, hour, sent)
    VALUES (NEW.account_id, NEW.test, NEW.country, NEW.created_at - NEW.created_at % 3600000, 1)
    ON CONFLICT (account_id, test, country, hour) DO UPDATE SET sent = sent + 1;
END;

CREATE TRIGGER country_window_verified AFTER UPDATE OF status ON verifications
WHEN OLD.status = 'pending' AND NEW.status = 'verified' AND NEW.country IS NOT NULL
  AND NEW.channel IN ('SMS', 'WHATSAPP')
BEGIN
  UPDATE country_window SET verified = verified + 1
  WHERE account_id = NEW.account_id AND test = NEW.test AND country = NEW.country
    AND hour = NEW.created_at - NEW.created_at % 3600000;
END;

DROP TRIGGER journal_created;
CREATE TRIGGER journal_created AFTER INSERT ON verifications
BEGIN
  INSERT INTO events (id, account_id, test, type, request_id, group_id, channel, country,
      purpose, provider, to_masked, contact_id, status, created_at, data)
    SELECT lower(substr(printf('%012x', NEW.created_at), 1, 8) || '-' || substr(printf('%012x', NEW.created_at), 9, 4)
      || '-7' || substr(hex(randomblob(2)), 1, 3) || '-' || substr('89ab', 1 + (random() & 3), 1)
      || substr(hex(randomblob(2)), 1, 3) || '-' || hex(randomblob(6))),
      NEW.account_id, coalesce(c.test, 0), 'verification.created', NEW.id, NEW.group_id, NEW.channel, NEW.country,
      NEW.purpose, NEW.provider, c.masked, NEW.contact_id, NEW.status, NEW.created_at, json_object('expiresAt', NEW.expires_at, 'deliveryType', NEW.delivery_type, 'risk', json(NEW.risk))
    FROM (SELECT 1) LEFT JOIN contacts c ON c.id = NEW.contact_id;
END;

DROP TRIGGER journal_status;
CREATE TRIGGER journal_status AFTER UPDATE OF status ON verifications
WHEN OLD.status = 'pending' AND NEW.status <> 'pending'
BEGIN
  INSERT INTO events (id, account_id, test, type, request_id, group_id, channel, country,
      purpose, provider, to_masked, contact_id, status, created_at, data)
    SELECT lower(substr(printf('%012x', coalesce(NEW.verified_at, CAST(unixepoch('subsec') * 1000 AS INTEGER))), 1, 8) || '-' || substr(printf('%012x', coalesce(NEW.verified_at, CAST(unixepoch('subsec') * 1000 AS INTEGER))), 9, 4)
      || '-7' || substr(hex(randomblob(2)), 1, 3) || '-' || substr('89ab', 1 + (random() & 3), 1)
      || substr(hex(randomblob(2)), 1, 3) || '-' || hex(randomblob(6))),
      NEW.account_id, coalesce(c.test, 0), 'verification.' || NEW.status, NEW.id, NEW.group_id, NEW.channel, NEW.country,
      NEW.purpose, NEW.provider, c.masked, NEW.contact_id, NEW.status, coalesce(NEW.verified_at, CAST(unixepoch('subsec') * 1000 AS INTEGER)), CASE WHEN NEW.status = 'verified' THEN json_object('secondsToVerify', (NEW.verified_at - NEW.created_at) / 1000.0) END
    FROM (SELECT 1) LEFT JOIN contacts c ON c.id = NEW.contact_id;
  UPDATE contacts SET verified = verified + (NEW.status = 'verified'), failed = failed + (NEW.status = 'failed')
  WHERE id = NEW.contact_id AND NEW.status IN ('verified', 'failed');
END;

DROP TRIGGER journal_delivery;
CREATE TRIGGER journal_delivery AFTER UPDATE OF delivery_status ON verifications
WHEN NEW.delivery_status IN ('delivered', 'failed') AND OLD.delivery_status IS NOT NEW.delivery_status
BEGIN
  INSERT INTO events (id, account_id, test, type, request_id, group_id, channel, country,
      purpose, provider, to_masked, contact_id, status, created_at, data)
    SELECT lower(substr(printf('%012x', CAST(unixepoch('subsec') * 1000 AS INTEGER)), 1, 8) || '-' || substr(printf('%012x', CAST(unixepoch('subsec') * 1000 AS INTEGER)), 9, 4)
      || '-7' || substr(hex(randomblob(2)), 1, 3) || '-' || substr('89ab', 1 + (random() & 3), 1)
      || substr(hex(randomblob(2)), 1, 3) || '-' || hex(randomblob(6))),
      NEW.account_id, coalesce(c.test, 0), CASE NEW.delivery_status WHEN 'delivered' THEN 'verification.delivered' ELSE 'verification.undelivered' END, NEW.id, NEW.group_id, NEW.channel, NEW.country,
      NEW.purpose, NEW.provider, c.masked, NEW.contact_id, NEW.status, CAST(unixepoch('subsec') * 1000 AS INTEGER), json_object('deliveryStatus', NEW.delivery_status)
    FROM (SELECT 1) LEFT JOIN contacts c ON c.id = NEW.contact_id;
END;

-- Only a send the fold already counted under no provider moves; one not yet folded is counted
-- under its provider by the fold itself.
DROP TRIGGER journal_provider;
CREATE TRIGGER journal_provider AFTER UPDATE OF provider ON verifications
WHEN OLD.provider IS NULL AND NEW.provider IS NOT NULL AND NEW.sent_unplaced = 1
BEGIN
  INSERT INTO analytics_hourly (account_id, test, hour, channel, country, purpose, provider, sent)
    SELECT NEW.account_id, coalesce((SELECT test FROM contacts WHERE id = NEW.contact_id), 0),
      NEW.created_at - NEW.created_at % 3600000, NEW.channel,
      coalesce(NEW.country, ''), coalesce(NEW.purpose, ''), p.provider, p.d
    FROM (SELECT '' AS provider, -1 AS d UNION ALL SELECT NEW.provider, 1) p WHERE true
    ON CONFLICT (account_id, test, hour, channel, country, purpose, provider) DO UPDATE SET sent = sent + excluded.sent;
  INSERT INTO analytics_daily (account_id, test, day, channel, country, purpose, provider, sent)
    SELECT NEW.account_id, coalesce((SELECT test FROM contacts WHERE id = NEW.contact_id), 0),
      NEW.created_at - NEW.created_at % 86400000, NEW.channel,
      coalesce(NEW.country, ''), coalesce(NEW.purpose, ''), p.provider, p.d
    FROM (SELECT '' AS provider, -1 AS d UNION ALL SELECT NEW.provider, 1) p WHERE true
    ON CONFLICT (account_id, test, day, channel, country, purpose, provider) DO UPDATE SET sent = sent + excluded.sent;
  UPDATE verifications SET sent_unplaced = 0 WHERE id = NEW.id;
END;

DROP TRIGGER journal_wrong_code;
CREATE TRIGGER journal_wrong_code AFTER INSERT ON events
WHEN NEW.type = 'verification.attempt_failed'
BEGIN
  UPDATE contacts SET wrong_codes = wrong_codes + 1 WHERE id = NEW.contact_id;
END;
