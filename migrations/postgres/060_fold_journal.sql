-- The analytics buckets leave the hot path: the triggers of 020 keep journaling every change in
-- the statement that makes it (and keep the contacts' counters, which the risk score reads at
-- send time), but the hourly/daily buckets and the seconds-to-verify histograms are now added by
-- a batch fold of the journal (src/store/postgres/fold.ts): one grouped upsert per table per
-- batch instead of two to six upserts per change. See docs/analytics.md. The twin of
-- migrations/sqlite/060_fold_journal.sql.

-- Whether the fold counted the row. seq values are taken before commit, so a cursor on seq could
-- skip a row: each row carries its flag, set by the fan-out in the same rewrite that publishes it.
-- Rows journaled before this migration were folded by the old triggers (the default true, applied
-- without rewriting the table); new rows start unfolded. No index of its own (one more B-tree per
-- journal row): an unfolded row is always unpublished, so events_unpublished finds them.
ALTER TABLE events ADD COLUMN folded BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE events ALTER COLUMN folded SET DEFAULT false;

-- Set by the fold on a request whose send it counted before a provider took the message (under
-- provider ''): when the provider comes, trigger journal_provider moves that send to its bucket.
-- The old triggers counted every send without a provider under '', so those are marked here
-- (but those the outbox kept, which no provider will take).
ALTER TABLE verifications ADD COLUMN sent_unplaced BOOLEAN NOT NULL DEFAULT false;
UPDATE verifications SET sent_unplaced = true WHERE provider IS NULL AND delivery_status <> 'outbox';

-- The SMS-pumping breaker and the risk signal country_conversion read the last two hours of sends
-- to a country at send time, and must see the send just made: a narrow counter kept in the same
-- statement, for phone sends with a country only (an email send pays nothing).
CREATE TABLE country_window (
  account_id TEXT NOT NULL,
  test BOOLEAN NOT NULL,
  country TEXT NOT NULL,
  hour BIGINT NOT NULL,
  sent INTEGER NOT NULL DEFAULT 0,
  verified INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, test, country, hour)
);
INSERT INTO country_window (account_id, test, country, hour, sent, verified)
  SELECT account_id, test, country, hour, sum(sent), sum(verified) FROM analytics_hourly
  WHERE channel IN ('SMS', 'WHATSAPP') AND country <> ''
    AND hour >= (extract(epoch FROM now()) * 1000)::bigint - 3 * 3600000
  GROUP BY account_id, test, country, hour;

CREATE OR REPLACE FUNCTION journal_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM journal_event(NEW, 'verification.created', NEW.created_at,
    jsonb_build_object('expiresAt', NEW.expires_at, 'deliveryType', NEW.delivery_type, 'risk', NEW.risk::jsonb));
  IF NEW.country IS NOT NULL AND NEW.channel IN ('SMS', 'WHATSAPP') THEN
    INSERT INTO country_window AS w (account_id, test, country, hour, sent)
    VALUES (NEW.account_id, NEW.test, NEW.country, NEW.created_at - NEW.created_at % 3600000, 1)
    ON CONFLICT (account_id, test, country, hour) DO UPDATE SET sent = w.sent + 1;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION journal_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM journal_event(NEW, 'verification.' || NEW.status, coalesce(NEW.verified_at, journal_now()),
    CASE WHEN NEW.status = 'verified' THEN jsonb_build_object('secondsToVerify', ((NEW.verified_at - NEW.created_at) / 1000.0)::float8) END);
  IF NEW.status IN ('verified', 'failed') AND NEW.contact_id IS NOT NULL THEN
    UPDATE contacts SET verified = verified + (NEW.status = 'verified')::int, failed = failed + (NEW.status = 'failed')::int
    WHERE id = NEW.contact_id;
  END IF;
  IF NEW.status = 'verified' AND NEW.country IS NOT NULL AND NEW.channel IN ('SMS', 'WHATSAPP') THEN
    UPDATE country_window SET verified = verified + 1
    WHERE account_id = NEW.account_id AND test = NEW.test AND country = NEW.country
      AND hour = NEW.created_at - NEW.created_at % 3600000;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION journal_delivery() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM journal_event(NEW, CASE NEW.delivery_status WHEN 'delivered' THEN 'verification.delivered'
    ELSE 'verification.undelivered' END, journal_now(), jsonb_build_object('deliveryStatus', NEW.delivery_status));
  RETURN NULL;
END $$;

-- Only a send the fold already counted under no provider moves; one not yet folded is counted
-- under its provider by the fold itself.
CREATE OR REPLACE FUNCTION journal_provider() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM analytics_add(NEW, '', -1, 0, 0, 0, 0, 0, 0, 0);
  PERFORM analytics_add(NEW, NEW.provider, 1, 0, 0, 0, 0, 0, 0, 0);
  UPDATE verifications SET sent_unplaced = false WHERE id = NEW.id;
  RETURN NULL;
END $$;
DROP TRIGGER journal_provider ON verifications;
CREATE TRIGGER journal_provider AFTER UPDATE OF provider ON verifications FOR EACH ROW
  WHEN (OLD.provider IS NULL AND NEW.provider IS NOT NULL AND NEW.sent_unplaced)
  EXECUTE FUNCTION journal_provider();

CREATE OR REPLACE FUNCTION journal_wrong_code() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE contacts SET wrong_codes = wrong_codes + 1 WHERE id = NEW.contact_id;
  RETURN NULL;
END $$;
