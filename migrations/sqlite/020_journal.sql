-- The event journal (table events) and what is folded from it in the same statement: hourly
-- analytics buckets, a histogram of seconds-to-verify and per-contact counters. Written by
-- triggers on verifications, so every state change of every code path (send, supersede, delivery,
-- consume, settle, sweep) is journaled by the statement that makes it, whichever path it is: a
-- kill -9 cannot leave a change without its event or an event without its count. Only a wrong
-- code, which changes nothing the database could see (codes are compared in the application), is
-- inserted by the store (src/store/*/journal.ts); the trigger journal_wrong_code folds it.
-- See docs/events.md and docs/analytics.md. The twin of migrations/postgres/020_journal.sql.

-- A contact: one normalised destination per account and mode (test keys see a world of their own).
CREATE TABLE contacts (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  test INTEGER NOT NULL DEFAULT 0,
  destination TEXT NOT NULL,
  -- The channel of the last send to it (EMAIL, or SMS / WHATSAPP for a phone number).
  channel TEXT NOT NULL,
  masked TEXT NOT NULL,
  first_seen INTEGER NOT NULL,
  last_seen INTEGER NOT NULL,
  sends INTEGER NOT NULL DEFAULT 0,
  verified INTEGER NOT NULL DEFAULT 0,
  failed INTEGER NOT NULL DEFAULT 0,
  wrong_codes INTEGER NOT NULL DEFAULT 0,
  blocked_at INTEGER,
  blocked_reason TEXT,
  -- The risk assessment of the last send to it (JSON: score, level, signals).
  risk TEXT
);
-- Destination second: an operator's prefix search is a range on it within one account.
CREATE UNIQUE INDEX contacts_destination ON contacts (account_id, destination, test);

ALTER TABLE verifications ADD COLUMN contact_id TEXT;
-- The risk assessment of the send (JSON), returned as data.risk and shown in the contact's history.
ALTER TABLE verifications ADD COLUMN risk TEXT;

CREATE TABLE events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL,
  test INTEGER NOT NULL DEFAULT 0,
  type TEXT NOT NULL,
  request_id TEXT,
  group_id TEXT,
  channel TEXT,
  country TEXT,
  purpose TEXT,
  provider TEXT,
  to_masked TEXT,
  contact_id TEXT,
  status TEXT,
  created_at INTEGER NOT NULL,
  data TEXT,
  published INTEGER NOT NULL DEFAULT 0
);
-- What the webhook fan-out claims: the unpublished rows, oldest first.
CREATE INDEX events_unpublished ON events (seq) WHERE published = 0;

-- Hourly (and, below, daily) buckets that outlive the raw rows (retention). Every count of a request goes to the hour
-- it was sent in (its cohort), so that conversion = verified / sent holds within one bucket.
CREATE TABLE analytics_hourly (
  account_id TEXT NOT NULL,
  test INTEGER NOT NULL,
  hour INTEGER NOT NULL,
  channel TEXT NOT NULL,
  country TEXT NOT NULL,
  purpose TEXT NOT NULL,
  provider TEXT NOT NULL,
  sent INTEGER NOT NULL DEFAULT 0,
  delivered INTEGER NOT NULL DEFAULT 0,
  undelivered INTEGER NOT NULL DEFAULT 0,
  verified INTEGER NOT NULL DEFAULT 0,
  failed INTEGER NOT NULL DEFAULT 0,
  expired INTEGER NOT NULL DEFAULT 0,
  canceled INTEGER NOT NULL DEFAULT 0,
  wrong_codes INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, test, hour, channel, country, purpose, provider)
) WITHOUT ROWID;

-- The same sums by day (UTC), kept beside the hours so that a month by day reads 24 times fewer rows.
CREATE TABLE analytics_daily (
  account_id TEXT NOT NULL,
  test INTEGER NOT NULL,
  day INTEGER NOT NULL,
  channel TEXT NOT NULL,
  country TEXT NOT NULL,
  purpose TEXT NOT NULL,
  provider TEXT NOT NULL,
  sent INTEGER NOT NULL DEFAULT 0,
  delivered INTEGER NOT NULL DEFAULT 0,
  undelivered INTEGER NOT NULL DEFAULT 0,
  verified INTEGER NOT NULL DEFAULT 0,
  failed INTEGER NOT NULL DEFAULT 0,
  expired INTEGER NOT NULL DEFAULT 0,
  canceled INTEGER NOT NULL DEFAULT 0,
  wrong_codes INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, test, day, channel, country, purpose, provider)
) WITHOUT ROWID;

-- Seconds from send to verified, by bucket: bin N counts those up to the Nth bound of
-- 5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 300, 600, 900, 1800 seconds (bin 14: longer). Median and p90 are read from it.
CREATE TABLE analytics_ttv (
  account_id TEXT NOT NULL,
  test INTEGER NOT NULL,
  hour INTEGER NOT NULL,
  channel TEXT NOT NULL,
  country TEXT NOT NULL,
  purpose TEXT NOT NULL,
  provider TEXT NOT NULL,
  bin INTEGER NOT NULL,
  count INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, test, hour, channel, country, purpose, provider, bin)
) WITHOUT ROWID;

CREATE TABLE analytics_ttv_daily (
  account_id TEXT NOT NULL,
  test INTEGER NOT NULL,
  day INTEGER NOT NULL,
  channel TEXT NOT NULL,
  country TEXT NOT NULL,
  purpose TEXT NOT NULL,
  provider TEXT NOT NULL,
  bin INTEGER NOT NULL,
  count INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, test, day, channel, country, purpose, provider, bin)
) WITHOUT ROWID;

-- Sends refused before any request row existed: by a rate limit ('limit:<name>'), the risk
-- threshold ('risk'), a blocked contact ('blocked') or the SMS-pumping breaker ('breaker').
CREATE TABLE analytics_refusals (
  account_id TEXT NOT NULL,
  test INTEGER NOT NULL,
  hour INTEGER NOT NULL,
  channel TEXT NOT NULL,
  country TEXT NOT NULL,
  purpose TEXT NOT NULL,
  reason TEXT NOT NULL,
  count INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, test, hour, channel, country, purpose, reason)
) WITHOUT ROWID;

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
  INSERT INTO analytics_hourly (account_id, test, hour, channel, country, purpose, provider, sent)
    SELECT NEW.account_id, coalesce((SELECT test FROM contacts WHERE id = NEW.contact_id), 0),
      NEW.created_at - NEW.created_at % 3600000, NEW.channel, coalesce(NEW.country, ''), coalesce(NEW.purpose, ''),
      coalesce(NEW.provider, ''), 1 WHERE true
    ON CONFLICT (account_id, test, hour, channel, country, purpose, provider) DO UPDATE SET sent = sent + excluded.sent;
  INSERT INTO analytics_daily (account_id, test, day, channel, country, purpose, provider, sent)
    SELECT NEW.account_id, coalesce((SELECT test FROM contacts WHERE id = NEW.contact_id), 0),
      NEW.created_at - NEW.created_at % 86400000, NEW.channel, coalesce(NEW.country, ''), coalesce(NEW.purpose, ''),
      coalesce(NEW.provider, ''), 1 WHERE true
    ON CONFLICT (account_id, test, day, channel, country, purpose, provider) DO UPDATE SET sent = sent + excluded.sent;
END;

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
  INSERT INTO analytics_hourly (account_id, test, hour, channel, country, purpose, provider, verified, failed, expired, canceled)
    SELECT NEW.account_id, coalesce((SELECT test FROM contacts WHERE id = NEW.contact_id), 0),
      NEW.created_at - NEW.created_at % 3600000, NEW.channel, coalesce(NEW.country, ''), coalesce(NEW.purpose, ''),
      coalesce(NEW.provider, ''), NEW.status = 'verified', NEW.status = 'failed', NEW.status = 'expired', NEW.status = 'canceled' WHERE true
    ON CONFLICT (account_id, test, hour, channel, country, purpose, provider) DO UPDATE SET verified = verified + excluded.verified, failed = failed + excluded.failed, expired = expired + excluded.expired, canceled = canceled + excluded.canceled;
  INSERT INTO analytics_daily (account_id, test, day, channel, country, purpose, provider, verified, failed, expired, canceled)
    SELECT NEW.account_id, coalesce((SELECT test FROM contacts WHERE id = NEW.contact_id), 0),
      NEW.created_at - NEW.created_at % 86400000, NEW.channel, coalesce(NEW.country, ''), coalesce(NEW.purpose, ''),
      coalesce(NEW.provider, ''), NEW.status = 'verified', NEW.status = 'failed', NEW.status = 'expired', NEW.status = 'canceled' WHERE true
    ON CONFLICT (account_id, test, day, channel, country, purpose, provider) DO UPDATE SET verified = verified + excluded.verified, failed = failed + excluded.failed, expired = expired + excluded.expired, canceled = canceled + excluded.canceled;
  INSERT INTO analytics_ttv (account_id, test, hour, channel, country, purpose, provider, bin, count)
    SELECT NEW.account_id, coalesce((SELECT test FROM contacts WHERE id = NEW.contact_id), 0),
      NEW.created_at - NEW.created_at % 3600000, NEW.channel, coalesce(NEW.country, ''), coalesce(NEW.purpose, ''),
      coalesce(NEW.provider, ''),
      CASE WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 5 THEN 0 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 10 THEN 1 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 15 THEN 2 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 20 THEN 3 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 30 THEN 4 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 45 THEN 5 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 60 THEN 6 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 90 THEN 7 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 120 THEN 8 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 180 THEN 9 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 300 THEN 10 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 600 THEN 11 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 900 THEN 12 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 1800 THEN 13 ELSE 14 END, 1
    WHERE NEW.status = 'verified'
    ON CONFLICT (account_id, test, hour, channel, country, purpose, provider, bin) DO UPDATE SET count = count + 1;
  INSERT INTO analytics_ttv_daily (account_id, test, day, channel, country, purpose, provider, bin, count)
    SELECT NEW.account_id, coalesce((SELECT test FROM contacts WHERE id = NEW.contact_id), 0),
      NEW.created_at - NEW.created_at % 86400000, NEW.channel, coalesce(NEW.country, ''), coalesce(NEW.purpose, ''),
      coalesce(NEW.provider, ''),
      CASE WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 5 THEN 0 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 10 THEN 1 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 15 THEN 2 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 20 THEN 3 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 30 THEN 4 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 45 THEN 5 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 60 THEN 6 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 90 THEN 7 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 120 THEN 8 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 180 THEN 9 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 300 THEN 10 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 600 THEN 11 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 900 THEN 12 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 1800 THEN 13 ELSE 14 END, 1
    WHERE NEW.status = 'verified'
    ON CONFLICT (account_id, test, day, channel, country, purpose, provider, bin) DO UPDATE SET count = count + 1;
  UPDATE contacts SET verified = verified + (NEW.status = 'verified'), failed = failed + (NEW.status = 'failed')
  WHERE id = NEW.contact_id AND NEW.status IN ('verified', 'failed');
END;

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
  INSERT INTO analytics_hourly (account_id, test, hour, channel, country, purpose, provider, delivered, undelivered)
    SELECT NEW.account_id, coalesce((SELECT test FROM contacts WHERE id = NEW.contact_id), 0),
      NEW.created_at - NEW.created_at % 3600000, NEW.channel, coalesce(NEW.country, ''), coalesce(NEW.purpose, ''),
      coalesce(NEW.provider, ''), NEW.delivery_status = 'delivered', NEW.delivery_status = 'failed' WHERE true
    ON CONFLICT (account_id, test, hour, channel, country, purpose, provider) DO UPDATE SET delivered = delivered + excluded.delivered, undelivered = undelivered + excluded.undelivered;
  INSERT INTO analytics_daily (account_id, test, day, channel, country, purpose, provider, delivered, undelivered)
    SELECT NEW.account_id, coalesce((SELECT test FROM contacts WHERE id = NEW.contact_id), 0),
      NEW.created_at - NEW.created_at % 86400000, NEW.channel, coalesce(NEW.country, ''), coalesce(NEW.purpose, ''),
      coalesce(NEW.provider, ''), NEW.delivery_status = 'delivered', NEW.delivery_status = 'failed' WHERE true
    ON CONFLICT (account_id, test, day, channel, country, purpose, provider) DO UPDATE SET delivered = delivered + excluded.delivered, undelivered = undelivered + excluded.undelivered;
END;

-- The provider is known only once the message went out: the send moves to its provider's bucket.
CREATE TRIGGER journal_provider AFTER UPDATE OF provider ON verifications
WHEN OLD.provider IS NULL AND NEW.provider IS NOT NULL
BEGIN
  INSERT INTO analytics_hourly (account_id, test, hour, channel, country, purpose, provider, sent)
    SELECT NEW.account_id, coalesce((SELECT test FROM contacts WHERE id = NEW.contact_id), 0),
      NEW.created_at - NEW.created_at % 3600000, NEW.channel, coalesce(NEW.country, ''), coalesce(NEW.purpose, ''),
      '', -1 WHERE true
    ON CONFLICT (account_id, test, hour, channel, country, purpose, provider) DO UPDATE SET sent = sent + excluded.sent;
  INSERT INTO analytics_daily (account_id, test, day, channel, country, purpose, provider, sent)
    SELECT NEW.account_id, coalesce((SELECT test FROM contacts WHERE id = NEW.contact_id), 0),
      NEW.created_at - NEW.created_at % 86400000, NEW.channel, coalesce(NEW.country, ''), coalesce(NEW.purpose, ''),
      '', -1 WHERE true
    ON CONFLICT (account_id, test, day, channel, country, purpose, provider) DO UPDATE SET sent = sent + excluded.sent;
  INSERT INTO analytics_hourly (account_id, test, hour, channel, country, purpose, provider, sent)
    SELECT NEW.account_id, coalesce((SELECT test FROM contacts WHERE id = NEW.contact_id), 0),
      NEW.created_at - NEW.created_at % 3600000, NEW.channel, coalesce(NEW.country, ''), coalesce(NEW.purpose, ''),
      NEW.provider, 1 WHERE true
    ON CONFLICT (account_id, test, hour, channel, country, purpose, provider) DO UPDATE SET sent = sent + excluded.sent;
  INSERT INTO analytics_daily (account_id, test, day, channel, country, purpose, provider, sent)
    SELECT NEW.account_id, coalesce((SELECT test FROM contacts WHERE id = NEW.contact_id), 0),
      NEW.created_at - NEW.created_at % 86400000, NEW.channel, coalesce(NEW.country, ''), coalesce(NEW.purpose, ''),
      NEW.provider, 1 WHERE true
    ON CONFLICT (account_id, test, day, channel, country, purpose, provider) DO UPDATE SET sent = sent + excluded.sent;
END;

CREATE TRIGGER journal_wrong_code AFTER INSERT ON events
WHEN NEW.type = 'verification.attempt_failed'
BEGIN
  INSERT INTO analytics_hourly (account_id, test, hour, channel, country, purpose, provider, wrong_codes)
    SELECT v.account_id, coalesce((SELECT test FROM contacts WHERE id = v.contact_id), 0),
      v.created_at - v.created_at % 3600000, v.channel, coalesce(v.country, ''), coalesce(v.purpose, ''),
      coalesce(v.provider, ''), 1 FROM verifications v WHERE v.id = NEW.request_id
    ON CONFLICT (account_id, test, hour, channel, country, purpose, provider) DO UPDATE SET wrong_codes = wrong_codes + excluded.wrong_codes;
  INSERT INTO analytics_daily (account_id, test, day, channel, country, purpose, provider, wrong_codes)
    SELECT v.account_id, coalesce((SELECT test FROM contacts WHERE id = v.contact_id), 0),
      v.created_at - v.created_at % 86400000, v.channel, coalesce(v.country, ''), coalesce(v.purpose, ''),
      coalesce(v.provider, ''), 1 FROM verifications v WHERE v.id = NEW.request_id
    ON CONFLICT (account_id, test, day, channel, country, purpose, provider) DO UPDATE SET wrong_codes = wrong_codes + excluded.wrong_codes;
  UPDATE contacts SET wrong_codes = wrong_codes + 1 WHERE id = NEW.contact_id;
END;
