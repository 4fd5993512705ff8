-- The event journal (table events) and what is folded from it in the same statement: hourly
-- analytics buckets, a histogram of seconds-to-verify and per-contact counters. Written by
-- triggers on verifications, so every state change of every code path (send, supersede, delivery,
-- consume, settle, sweep) is journaled by the statement that makes it, whichever path it is: a
-- kill -9 cannot leave a change without its event or an event without its count. Only a wrong
-- code, which changes nothing the database could see (codes are compared in the application), is
-- inserted by the store (src/store/*/journal.ts); the trigger journal_wrong_code folds it.
-- See docs/events.md and docs/analytics.md. The twin of migrations/sqlite/020_journal.sql.

-- A contact: one normalised destination per account and mode (test keys see a world of their own).
CREATE TABLE contacts (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  test BOOLEAN NOT NULL DEFAULT false,
  destination TEXT NOT NULL,
  -- The channel of the last send to it (EMAIL, or SMS / WHATSAPP for a phone number).
  channel TEXT NOT NULL,
  masked TEXT NOT NULL,
  first_seen BIGINT NOT NULL,
  last_seen BIGINT NOT NULL,
  sends INTEGER NOT NULL DEFAULT 0,
  verified INTEGER NOT NULL DEFAULT 0,
  failed INTEGER NOT NULL DEFAULT 0,
  wrong_codes INTEGER NOT NULL DEFAULT 0,
  blocked_at BIGINT,
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
  seq BIGSERIAL PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL,
  test BOOLEAN NOT NULL DEFAULT false,
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
  created_at BIGINT NOT NULL,
  data JSONB,
  published BOOLEAN NOT NULL DEFAULT false
);
-- What the webhook fan-out claims: the unpublished rows, oldest first.
CREATE INDEX events_unpublished ON events (seq) WHERE published = false;

-- Hourly (and, below, daily) buckets that outlive the raw rows (retention). Every count of a request goes to the hour
-- it was sent in (its cohort), so that conversion = verified / sent holds within one bucket.
CREATE TABLE analytics_hourly (
  account_id TEXT NOT NULL,
  test BOOLEAN NOT NULL,
  hour BIGINT NOT NULL,
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
);

-- The same sums by day (UTC), kept beside the hours so that a month by day reads 24 times fewer rows.
CREATE TABLE analytics_daily (
  account_id TEXT NOT NULL,
  test BOOLEAN NOT NULL,
  day BIGINT NOT NULL,
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
);

-- Seconds from send to verified, by bucket: bin N counts those up to the Nth bound of
-- 5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 300, 600, 900, 1800 seconds (bin 14: longer). Median and p90 are read from it.
CREATE TABLE analytics_ttv (
  account_id TEXT NOT NULL,
  test BOOLEAN NOT NULL,
  hour BIGINT NOT NULL,
  channel TEXT NOT NULL,
  country TEXT NOT NULL,
  purpose TEXT NOT NULL,
  provider TEXT NOT NULL,
  bin INTEGER NOT NULL,
  count INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, test, hour, channel, country, purpose, provider, bin)
);

CREATE TABLE analytics_ttv_daily (
  account_id TEXT NOT NULL,
  test BOOLEAN NOT NULL,
  day BIGINT NOT NULL,
  channel TEXT NOT NULL,
  country TEXT NOT NULL,
  purpose TEXT NOT NULL,
  provider TEXT NOT NULL,
  bin INTEGER NOT NULL,
  count INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, test, day, channel, country, purpose, provider, bin)
);

-- Sends refused before any request row existed: by a rate limit ('limit:<name>'), the risk
-- threshold ('risk'), a blocked contact ('blocked') or the SMS-pumping breaker ('breaker').
CREATE TABLE analytics_refusals (
  account_id TEXT NOT NULL,
  test BOOLEAN NOT NULL,
  hour BIGINT NOT NULL,
  channel TEXT NOT NULL,
  country TEXT NOT NULL,
  purpose TEXT NOT NULL,
  reason TEXT NOT NULL,
  count INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, test, hour, channel, country, purpose, reason)
);

-- A UUIDv7 for the event id: the time in ms, then gen_random_uuid()'s random bits (version 7).
CREATE FUNCTION journal_uuid7(ms BIGINT) RETURNS TEXT LANGUAGE sql VOLATILE AS $$
  SELECT substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-7' || substr(r, 16, 3) || '-' || substr(r, 20, 17)
  FROM (SELECT lpad(to_hex(ms), 12, '0') AS h, gen_random_uuid()::text AS r) x
$$;

CREATE FUNCTION journal_now() RETURNS BIGINT LANGUAGE sql VOLATILE AS $$
  SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint
$$;

CREATE FUNCTION journal_event(v verifications, kind TEXT, at BIGINT, body JSONB) RETURNS void LANGUAGE sql AS $$
  INSERT INTO events (id, account_id, test, type, request_id, group_id, channel, country, purpose, provider,
    to_masked, contact_id, status, created_at, data)
  SELECT journal_uuid7(at), v.account_id, coalesce(c.test, false), kind, v.id, v.group_id, v.channel, v.country,
    v.purpose, v.provider, c.masked, v.contact_id, v.status, at, body
  FROM (SELECT 1) one LEFT JOIN contacts c ON c.id = v.contact_id
$$;

-- Adds to the bucket of request v (its send hour, channel, country, purpose and `provider`).
CREATE FUNCTION analytics_add(v verifications, provider TEXT, d_sent INT, d_delivered INT, d_undelivered INT,
    d_verified INT, d_failed INT, d_expired INT, d_canceled INT, d_wrong INT) RETURNS void LANGUAGE sql AS $$
  INSERT INTO analytics_hourly AS a (account_id, test, hour, channel, country, purpose, provider, sent, delivered, undelivered, verified, failed, expired, canceled, wrong_codes)
  VALUES (v.account_id, coalesce((SELECT test FROM contacts WHERE id = v.contact_id), false),
    v.created_at - v.created_at % 3600000, v.channel, coalesce(v.country, ''), coalesce(v.purpose, ''), provider,
    d_sent, d_delivered, d_undelivered, d_verified, d_failed, d_expired, d_canceled, d_wrong)
  ON CONFLICT (account_id, test, hour, channel, country, purpose, provider) DO UPDATE SET sent = a.sent + d_sent, delivered = a.delivered + d_delivered,
    undelivered = a.undelivered + d_undelivered, verified = a.verified + d_verified, failed = a.failed + d_failed,
    expired = a.expired + d_expired, canceled = a.canceled + d_canceled, wrong_codes = a.wrong_codes + d_wrong;
  INSERT INTO analytics_daily AS a (account_id, test, day, channel, country, purpose, provider, sent, delivered, undelivered, verified, failed, expired, canceled, wrong_codes)
  VALUES (v.account_id, coalesce((SELECT test FROM contacts WHERE id = v.contact_id), false),
    v.created_at - v.created_at % 86400000, v.channel, coalesce(v.country, ''), coalesce(v.purpose, ''), provider,
    d_sent, d_delivered, d_undelivered, d_verified, d_failed, d_expired, d_canceled, d_wrong)
  ON CONFLICT (account_id, test, day, channel, country, purpose, provider) DO UPDATE SET sent = a.sent + d_sent, delivered = a.delivered + d_delivered,
    undelivered = a.undelivered + d_undelivered, verified = a.verified + d_verified, failed = a.failed + d_failed,
    expired = a.expired + d_expired, canceled = a.canceled + d_canceled, wrong_codes = a.wrong_codes + d_wrong;
$$;

CREATE FUNCTION journal_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM journal_event(NEW, 'verification.created', NEW.created_at,
    jsonb_build_object('expiresAt', NEW.expires_at, 'deliveryType', NEW.delivery_type, 'risk', NEW.risk::jsonb));
  PERFORM analytics_add(NEW, coalesce(NEW.provider, ''), 1, 0, 0, 0, 0, 0, 0, 0);
  RETURN NULL;
END $$;
CREATE TRIGGER journal_created AFTER INSERT ON verifications FOR EACH ROW EXECUTE FUNCTION journal_created();

CREATE FUNCTION journal_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM journal_event(NEW, 'verification.' || NEW.status, coalesce(NEW.verified_at, journal_now()),
    CASE WHEN NEW.status = 'verified' THEN jsonb_build_object('secondsToVerify', ((NEW.verified_at - NEW.created_at) / 1000.0)::float8) END);
  PERFORM analytics_add(NEW, coalesce(NEW.provider, ''), 0, 0, 0, (NEW.status = 'verified')::int,
    (NEW.status = 'failed')::int, (NEW.status = 'expired')::int, (NEW.status = 'canceled')::int, 0);
  IF NEW.status = 'verified' THEN
    INSERT INTO analytics_ttv AS t (account_id, test, hour, channel, country, purpose, provider, bin, count)
    VALUES (NEW.account_id, coalesce((SELECT test FROM contacts WHERE id = NEW.contact_id), false),
      NEW.created_at - NEW.created_at % 3600000, NEW.channel, coalesce(NEW.country, ''), coalesce(NEW.purpose, ''),
      coalesce(NEW.provider, ''), CASE WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 5 THEN 0 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 10 THEN 1 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 15 THEN 2 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 20 THEN 3 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 30 THEN 4 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 45 THEN 5 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 60 THEN 6 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 90 THEN 7 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 120 THEN 8 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 180 THEN 9 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 300 THEN 10 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 600 THEN 11 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 900 THEN 12 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 1800 THEN 13 ELSE 14 END, 1)
    ON CONFLICT (account_id, test, hour, channel, country, purpose, provider, bin) DO UPDATE SET count = t.count + 1;
    INSERT INTO analytics_ttv_daily AS t (account_id, test, day, channel, country, purpose, provider, bin, count)
    VALUES (NEW.account_id, coalesce((SELECT test FROM contacts WHERE id = NEW.contact_id), false),
      NEW.created_at - NEW.created_at % 86400000, NEW.channel, coalesce(NEW.country, ''), coalesce(NEW.purpose, ''),
      coalesce(NEW.provider, ''), CASE WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 5 THEN 0 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 10 THEN 1 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 15 THEN 2 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 20 THEN 3 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 30 THEN 4 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 45 THEN 5 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 60 THEN 6 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 90 THEN 7 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 120 THEN 8 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 180 THEN 9 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 300 THEN 10 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 600 THEN 11 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 900 THEN 12 WHEN (NEW.verified_at - NEW.created_at) / 1000.0 <= 1800 THEN 13 ELSE 14 END, 1)
    ON CONFLICT (account_id, test, day, channel, country, purpose, provider, bin) DO UPDATE SET count = t.count + 1;
  END IF;
  IF NEW.status IN ('verified', 'failed') AND NEW.contact_id IS NOT NULL THEN
    UPDATE contacts SET verified = verified + (NEW.status = 'verified')::int, failed = failed + (NEW.status = 'failed')::int
    WHERE id = NEW.contact_id;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER journal_status AFTER UPDATE OF status ON verifications FOR EACH ROW
  WHEN (OLD.status = 'pending' AND NEW.status <> 'pending') EXECUTE FUNCTION journal_status();

CREATE FUNCTION journal_delivery() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM journal_event(NEW, CASE NEW.delivery_status WHEN 'delivered' THEN 'verification.delivered'
    ELSE 'verification.undelivered' END, journal_now(), jsonb_build_object('deliveryStatus', NEW.delivery_status));
  PERFORM analytics_add(NEW, coalesce(NEW.provider, ''), 0, (NEW.delivery_status = 'delivered')::int,
    (NEW.delivery_status = 'failed')::int, 0, 0, 0, 0, 0);
  RETURN NULL;
END $$;
CREATE TRIGGER journal_delivery AFTER UPDATE OF delivery_status ON verifications FOR EACH ROW
  WHEN (NEW.delivery_status IN ('delivered', 'failed') AND OLD.delivery_status IS DISTINCT FROM NEW.delivery_status)
  EXECUTE FUNCTION journal_delivery();

-- The provider is known only once the message went out: the send moves to its provider's bucket.
CREATE FUNCTION journal_provider() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM analytics_add(NEW, '', -1, 0, 0, 0, 0, 0, 0, 0);
  PERFORM analytics_add(NEW, NEW.provider, 1, 0, 0, 0, 0, 0, 0, 0);
  RETURN NULL;
END $$;
CREATE TRIGGER journal_provider AFTER UPDATE OF provider ON verifications FOR EACH ROW
  WHEN (OLD.provider IS NULL AND NEW.provider IS NOT NULL) EXECUTE FUNCTION journal_provider();

CREATE FUNCTION journal_wrong_code() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE v verifications;
BEGIN
  SELECT * INTO v FROM verifications WHERE id = NEW.request_id;
  IF FOUND THEN
    PERFORM analytics_add(v, coalesce(v.provider, ''), 0, 0, 0, 0, 0, 0, 0, 1);
  END IF;
  UPDATE contacts SET wrong_codes = wrong_codes + 1 WHERE id = NEW.contact_id;
  RETURN NULL;
END $$;
CREATE TRIGGER journal_wrong_code AFTER INSERT ON events FOR EACH ROW
  WHEN (NEW.type = 'verification.attempt_failed') EXECUTE FUNCTION journal_wrong_code();
