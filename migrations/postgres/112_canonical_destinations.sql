-- Rules of the canonical destination added after migration 111 (src/domain/mailbox.ts, phone.ts):
-- Fastmail's subdomain addressing (`shop@jane.fastmail.com` is `jane@fastmail.com`, a hyphen in the
-- subdomain an underscore of the name), Yahoo's disposable addresses (`jane-shop@yahoo.com` is
-- `jane-@yahoo.com`), and an Argentine mobile dialled without its 9 (`+541112345678` is
-- `+5491112345678`: a ten-digit national number of area 1, 2 or 3, which is what phone.ts folds for
-- every number the service accepts). Requests and contacts stored under the older key move to the
-- new one as migration 111 moved them to their mailbox: the request keeps the address or number it
-- was sent to in `address`, the contacts of one key are merged (counts summed, first and last seen
-- spanning them, blocked when any was, since the earliest block), a pending request keeps its key
-- when another pending one of its account, mode and channel would share the new one. So a block
-- made before the upgrade on `shop@evil.fastmail.com` still refuses it after. When anything moved,
-- the destination filter's secret is dropped (a new one is made at start): a filter shared in Redis
-- has never seen the new keys, and answering "never sent to" for a blocked contact's new key would
-- skip the read that finds its block; the new secret names a new key, loaded from the rows.
-- A version before this one runs on the result: the columns are its own, the keys only shorter.
-- rollback: tolerated
-- The twin of migrations/sqlite/112_canonical_destinations.sql.

-- Every stored destination whose key differs from it, with the key masked as src/domain/masking.ts
-- masks it.
CREATE TABLE mailbox_migration (destination TEXT PRIMARY KEY, mailbox TEXT NOT NULL, masked TEXT NOT NULL);
INSERT INTO mailbox_migration (destination, mailbox, masked)
SELECT d, k, CASE WHEN strpos(k, '@') > 0
    THEN left(k, 1) || repeat('*', greatest(1, strpos(k, '@') - 2)) || substr(k, strpos(k, '@'))
    ELSE left(k, 2) || repeat('*', length(k) - 6) || right(k, 4) END
FROM (
  SELECT d, CASE
      WHEN strpos(d, '@') = 0 THEN '+549' || substr(d, 4)
      WHEN sub <> '' AND base IN ('fastmail.com', 'fastmail.fm') THEN replace(sub, '-', '_') || '@' || base
      WHEN dom = 'yahoo.com' AND strpos(l, '-') > 1 THEN substr(l, 1, strpos(l, '-')) || '@yahoo.com'
      ELSE d END AS k
  FROM (
    SELECT d, l, dom, CASE WHEN strpos(dom, '.') > 1 THEN substr(dom, 1, strpos(dom, '.') - 1) ELSE '' END AS sub,
      substr(dom, strpos(dom, '.') + 1) AS base
    FROM (
      SELECT d, substr(d, 1, strpos(d, '@') - 1) AS l, substr(d, strpos(d, '@') + 1) AS dom
      FROM (
        SELECT destination AS d FROM verifications
        UNION SELECT destination FROM contacts
      ) a
      WHERE strpos(d, '@') > 1 OR d ~ '^\+54[123][0-9]{9}$'
    ) b
  ) c
) e WHERE k <> d;

-- Requests: the new key as destination, the address or number kept.
UPDATE verifications
SET address = coalesce(address, destination),
  destination = (SELECT m.mailbox FROM mailbox_migration m WHERE m.destination = verifications.destination),
  masked = (SELECT m.masked FROM mailbox_migration m WHERE m.destination = verifications.destination)
WHERE destination IN (SELECT destination FROM mailbox_migration)
  AND (status <> 'pending' OR NOT EXISTS (
    SELECT 1 FROM verifications w LEFT JOIN mailbox_migration wm ON wm.destination = w.destination
    WHERE w.status = 'pending' AND w.id <> verifications.id AND w.account_id = verifications.account_id
      AND w.channel = verifications.channel AND w.test = verifications.test
      AND coalesce(wm.mailbox, w.destination)
        = (SELECT m.mailbox FROM mailbox_migration m WHERE m.destination = verifications.destination)
  ));

-- Contacts: each of a key that has a contact to move, and the one its group merges into (the
-- contact already at the key, else the first seen).
CREATE TABLE contact_merge (id TEXT PRIMARY KEY, survivor TEXT NOT NULL, mailbox TEXT NOT NULL);
INSERT INTO contact_merge (id, survivor, mailbox)
SELECT g.id, (
    SELECT s.id FROM contacts s LEFT JOIN mailbox_migration sm ON sm.destination = s.destination
    WHERE s.account_id = g.account_id AND s.test = g.test AND coalesce(sm.mailbox, s.destination) = g.mailbox
    ORDER BY sm.mailbox IS NULL DESC, s.first_seen, s.id LIMIT 1
  ), g.mailbox
FROM (
  SELECT c.id, c.account_id, c.test, coalesce(m.mailbox, c.destination) AS mailbox
  FROM contacts c LEFT JOIN mailbox_migration m ON m.destination = c.destination
) g
WHERE EXISTS (
  SELECT 1 FROM contacts o JOIN mailbox_migration om ON om.destination = o.destination
  WHERE o.account_id = g.account_id AND o.test = g.test AND om.mailbox = g.mailbox
);

UPDATE contacts SET
  sends = (SELECT sum(c.sends) FROM contacts c JOIN contact_merge k ON k.id = c.id WHERE k.survivor = contacts.id),
  verified = (SELECT sum(c.verified) FROM contacts c JOIN contact_merge k ON k.id = c.id WHERE k.survivor = contacts.id),
  failed = (SELECT sum(c.failed) FROM contacts c JOIN contact_merge k ON k.id = c.id WHERE k.survivor = contacts.id),
  wrong_codes = (SELECT sum(c.wrong_codes) FROM contacts c JOIN contact_merge k ON k.id = c.id
    WHERE k.survivor = contacts.id),
  first_seen = (SELECT min(c.first_seen) FROM contacts c JOIN contact_merge k ON k.id = c.id
    WHERE k.survivor = contacts.id),
  last_seen = (SELECT max(c.last_seen) FROM contacts c JOIN contact_merge k ON k.id = c.id
    WHERE k.survivor = contacts.id),
  channel = (SELECT c.channel FROM contacts c JOIN contact_merge k ON k.id = c.id WHERE k.survivor = contacts.id
    ORDER BY c.last_seen DESC, c.id LIMIT 1),
  risk = (SELECT c.risk FROM contacts c JOIN contact_merge k ON k.id = c.id WHERE k.survivor = contacts.id
    ORDER BY c.last_seen DESC, c.id LIMIT 1),
  blocked_reason = (SELECT c.blocked_reason FROM contacts c JOIN contact_merge k ON k.id = c.id
    WHERE k.survivor = contacts.id AND c.blocked_at IS NOT NULL ORDER BY c.blocked_at, c.id LIMIT 1),
  blocked_at = (SELECT min(c.blocked_at) FROM contacts c JOIN contact_merge k ON k.id = c.id
    WHERE k.survivor = contacts.id)
WHERE id IN (SELECT survivor FROM contact_merge);

-- A block or unblock not folded yet names its contact by id: the merged one.
UPDATE changes SET contact_id = (SELECT k.survivor FROM contact_merge k WHERE k.id = changes.contact_id)
WHERE contact_id IN (SELECT id FROM contact_merge WHERE id <> survivor);
DELETE FROM contacts WHERE id IN (SELECT id FROM contact_merge WHERE id <> survivor);
UPDATE contacts SET
  destination = (SELECT k.mailbox FROM contact_merge k WHERE k.id = contacts.id),
  masked = (SELECT m.masked FROM contact_merge k JOIN mailbox_migration m ON m.mailbox = k.mailbox
    WHERE k.id = contacts.id LIMIT 1)
WHERE id IN (SELECT survivor FROM contact_merge)
  AND destination <> (SELECT k.mailbox FROM contact_merge k WHERE k.id = contacts.id);

DROP TABLE contact_merge;

-- A shared destination filter never saw the new keys: a new secret names a new one, loaded anew.
DELETE FROM settings WHERE name = 'destination_filter_key' AND EXISTS (SELECT 1 FROM mailbox_migration);
DROP TABLE mailbox_migration;
