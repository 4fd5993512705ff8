-- Contacts leave the hot path: a send no longer upserts its contact, and no trigger counts on a
-- contact row. A send names its contact by an id computed from the destination
-- (src/domain/contact-id.ts). The batch fold (src/store/fold.ts) makes and counts the contact
-- rows from the journal: sends, first and last seen, verified, failed, wrong codes and the risk of
-- the last send. The risk score reads a destination's history from its requests, not from these
-- counters. The journal's rows take the masked destination and the mode from the request itself.
-- See docs/analytics.md. The twin of migrations/sqlite/070_contacts_folded.sql.

-- The masked destination, written with the request: the journal's rows copy it.
ALTER TABLE verifications ADD COLUMN masked TEXT;

-- The journal rows written before this migration were counted on their contacts by the old
-- triggers: the fold counts on contacts only the rows after this seq.
CREATE TABLE contacts_fold (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  from_seq BIGINT NOT NULL
);
INSERT INTO contacts_fold (id, from_seq) VALUES (1, coalesce((SELECT max(seq) FROM events), 0));

-- A request made before this migration has no masked column: its contact has it.
CREATE OR REPLACE FUNCTION journal_event(v verifications, kind TEXT, at BIGINT, body JSONB) RETURNS void LANGUAGE sql AS $$
  INSERT INTO events (id, account_id, test, type, request_id, group_id, channel, country, purpose, provider,
    to_masked, contact_id, status, created_at, data)
  VALUES (journal_uuid7(at), v.account_id, v.test, kind, v.id, v.group_id, v.channel, v.country,
    v.purpose, v.provider, coalesce(v.masked, (SELECT masked FROM contacts WHERE id = v.contact_id)),
    v.contact_id, v.status, at, body)
$$;

CREATE OR REPLACE FUNCTION journal_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM journal_event(NEW, 'verification.' || NEW.status, coalesce(NEW.verified_at, journal_now()),
    CASE WHEN NEW.status = 'verified' THEN jsonb_build_object('secondsToVerify', ((NEW.verified_at - NEW.created_at) / 1000.0)::float8) END);
  IF NEW.status = 'verified' AND NEW.country IS NOT NULL AND NEW.channel IN ('SMS', 'WHATSAPP') THEN
    UPDATE country_window SET verified = verified + 1
    WHERE account_id = NEW.account_id AND test = NEW.test AND country = NEW.country
      AND hour = NEW.created_at - NEW.created_at % 3600000;
  END IF;
  RETURN NULL;
END $$;

-- The mode from the request itself.
CREATE OR REPLACE FUNCTION analytics_add(v verifications, provider TEXT, d_sent INT, d_delivered INT, d_undelivered INT,
    d_verified INT, d_failed INT, d_expired INT, d_canceled INT, d_wrong INT) RETURNS void LANGUAGE sql AS $$
  INSERT INTO analytics_hourly AS a (account_id, test, hour, channel, country, purpose, provider, sent, delivered, undelivered, verified, failed, expired, canceled, wrong_codes)
  VALUES (v.account_id, v.test, v.created_at - v.created_at % 3600000, v.channel, coalesce(v.country, ''),
    coalesce(v.purpose, ''), provider, d_sent, d_delivered, d_undelivered, d_verified, d_failed, d_expired, d_canceled, d_wrong)
  ON CONFLICT (account_id, test, hour, channel, country, purpose, provider) DO UPDATE SET sent = a.sent + d_sent, delivered = a.delivered + d_delivered,
    undelivered = a.undelivered + d_undelivered, verified = a.verified + d_verified, failed = a.failed + d_failed,
    expired = a.expired + d_expired, canceled = a.canceled + d_canceled, wrong_codes = a.wrong_codes + d_wrong;
  INSERT INTO analytics_daily AS a (account_id, test, day, channel, country, purpose, provider, sent, delivered, undelivered, verified, failed, expired, canceled, wrong_codes)
  VALUES (v.account_id, v.test, v.created_at - v.created_at % 86400000, v.channel, coalesce(v.country, ''),
    coalesce(v.purpose, ''), provider, d_sent, d_delivered, d_undelivered, d_verified, d_failed, d_expired, d_canceled, d_wrong)
  ON CONFLICT (account_id, test, day, channel, country, purpose, provider) DO UPDATE SET sent = a.sent + d_sent, delivered = a.delivered + d_delivered,
    undelivered = a.undelivered + d_undelivered, verified = a.verified + d_verified, failed = a.failed + d_failed,
    expired = a.expired + d_expired, canceled = a.canceled + d_canceled, wrong_codes = a.wrong_codes + d_wrong;
$$;

-- Wrong codes are counted on the contact by the fold.
DROP TRIGGER journal_wrong_code ON events;
DROP FUNCTION journal_wrong_code();
