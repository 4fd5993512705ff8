-- Contacts leave the hot path: a send no longer upserts its contact, and no trigger counts on a
-- contact row. A send names its contact by an id computed from the destination
-- (src/domain/contact-id.ts). The batch fold (src/store/fold.ts) makes and counts the contact
-- rows from the journal: sends, first and last seen, verified, failed, wrong codes and the risk of
-- the last send. The risk score reads a destination's history from its requests, not from these
-- counters. The journal's rows take the masked destination and the mode from the request itself.
-- See docs/analytics.md. The twin of migrations/postgres/070_contacts_folded.sql.

-- The masked destination, written with the request: the journal's rows copy it.
ALTER TABLE verifications ADD COLUMN masked TEXT;

-- The journal rows written before this migration were counted on their contacts by the old
-- triggers: the fold counts on contacts only the rows after this seq.
CREATE TABLE contacts_fold (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  from_seq INTEGER NOT NULL
);
INSERT INTO contacts_fold (id, from_seq) VALUES (1, coalesce((SELECT max(seq) FROM events), 0));

DROP TRIGGER journal_created;
CREATE TRIGGER journal_created AFTER INSERT ON verifications
BEGIN
  INSERT INTO events (id, account_id, test, type, request_id, group_id, channel, country,
      purpose, provider, to_masked, contact_id, status, created_at, data)
    VALUES (lower(substr(printf('%012x', NEW.created_at), 1, 8) || '-' || substr(printf('%012x', NEW.created_at), 9, 4)
      || '-7' || substr(hex(randomblob(2)), 1, 3) || '-' || substr('89ab', 1 + (random() & 3), 1)
      || substr(hex(randomblob(2)), 1, 3) || '-' || hex(randomblob(6))),
      NEW.account_id, NEW.test, 'verification.created', NEW.id, NEW.group_id, NEW.channel, NEW.country,
      NEW.purpose, NEW.provider, NEW.masked, NEW.contact_id, NEW.status, NEW.created_at,
      json_object('expiresAt', NEW.expires_at, 'deliveryType', NEW.delivery_type, 'risk', json(NEW.risk)));
END;

-- A request made before this migration has no masked column: its contact has it.
DROP TRIGGER journal_status;
CREATE TRIGGER journal_status AFTER UPDATE OF status ON verifications
WHEN OLD.status = 'pending' AND NEW.status <> 'pending'
BEGIN
  INSERT INTO events (id, account_id, test, type, request_id, group_id, channel, country,
      purpose, provider, to_masked, contact_id, status, created_at, data)
    VALUES (lower(substr(printf('%012x', coalesce(NEW.verified_at, CAST(unixepoch('subsec') * 1000 AS INTEGER))), 1, 8) || '-' || substr(printf('%012x', coalesce(NEW.verified_at, CAST(unixepoch('subsec') * 1000 AS INTEGER))), 9, 4)
      || '-7' || substr(hex(randomblob(2)), 1, 3) || '-' || substr('89ab', 1 + (random() & 3), 1)
      || substr(hex(randomblob(2)), 1, 3) || '-' || hex(randomblob(6))),
      NEW.account_id, NEW.test, 'verification.' || NEW.status, NEW.id, NEW.group_id, NEW.channel, NEW.country,
      NEW.purpose, NEW.provider, coalesce(NEW.masked, (SELECT masked FROM contacts WHERE id = NEW.contact_id)),
      NEW.contact_id, NEW.status, coalesce(NEW.verified_at, CAST(unixepoch('subsec') * 1000 AS INTEGER)),
      CASE WHEN NEW.status = 'verified' THEN json_object('secondsToVerify', (NEW.verified_at - NEW.created_at) / 1000.0) END);
END;

DROP TRIGGER journal_delivery;
CREATE TRIGGER journal_delivery AFTER UPDATE OF delivery_status ON verifications
WHEN NEW.delivery_status IN ('delivered', 'failed') AND OLD.delivery_status IS NOT NEW.delivery_status
BEGIN
  INSERT INTO events (id, account_id, test, type, request_id, group_id, channel, country,
      purpose, provider, to_masked, contact_id, status, created_at, data)
    VALUES (lower(substr(printf('%012x', CAST(unixepoch('subsec') * 1000 AS INTEGER)), 1, 8) || '-' || substr(printf('%012x', CAST(unixepoch('subsec') * 1000 AS INTEGER)), 9, 4)
      || '-7' || substr(hex(randomblob(2)), 1, 3) || '-' || substr('89ab', 1 + (random() & 3), 1)
      || substr(hex(randomblob(2)), 1, 3) || '-' || hex(randomblob(6))),
      NEW.account_id, NEW.test, CASE NEW.delivery_status WHEN 'delivered' THEN 'verification.delivered' ELSE 'verification.undelivered' END,
      NEW.id, NEW.group_id, NEW.channel, NEW.country, NEW.purpose, NEW.provider,
      coalesce(NEW.masked, (SELECT masked FROM contacts WHERE id = NEW.contact_id)), NEW.contact_id, NEW.status,
      CAST(unixepoch('subsec') * 1000 AS INTEGER), json_object('deliveryStatus', NEW.delivery_status));
END;

DROP TRIGGER journal_provider;
CREATE TRIGGER journal_provider AFTER UPDATE OF provider ON verifications
WHEN OLD.provider IS NULL AND NEW.provider IS NOT NULL AND NEW.sent_unplaced = 1
BEGIN
  INSERT INTO analytics_hourly (account_id, test, hour, channel, country, purpose, provider, sent)
    SELECT NEW.account_id, NEW.test, NEW.created_at - NEW.created_at % 3600000, NEW.channel,
      coalesce(NEW.country, ''), coalesce(NEW.purpose, ''), p.provider, p.d
    FROM (SELECT '' AS provider, -1 AS d UNION ALL SELECT NEW.provider, 1) p WHERE true
    ON CONFLICT (account_id, test, hour, channel, country, purpose, provider) DO UPDATE SET sent = sent + excluded.sent;
  INSERT INTO analytics_daily (account_id, test, day, channel, country, purpose, provider, sent)
    SELECT NEW.account_id, NEW.test, NEW.created_at - NEW.created_at % 86400000, NEW.channel,
      coalesce(NEW.country, ''), coalesce(NEW.purpose, ''), p.provider, p.d
    FROM (SELECT '' AS provider, -1 AS d UNION ALL SELECT NEW.provider, 1) p WHERE true
    ON CONFLICT (account_id, test, day, channel, country, purpose, provider) DO UPDATE SET sent = sent + excluded.sent;
  UPDATE verifications SET sent_unplaced = 0 WHERE id = NEW.id;
END;

-- Wrong codes are counted on the contact by the fold.
DROP TRIGGER journal_wrong_code;
