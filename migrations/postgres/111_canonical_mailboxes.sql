-- Email requests and contacts stored before migration 110 are keyed by the address as it was sent
-- (lower-cased): `jane+1@gmail.com` and `j.ane@gmail.com` are contacts of their own, and a block
-- of one of them would no longer hold once sends are keyed by the mailbox. Here they move to the
-- canonical mailbox (src/domain/mailbox.ts: no +tag, no dots in a gmail.com or googlemail.com
-- local part, googlemail.com as gmail.com; stored addresses are ASCII, so no punycode to write):
-- each request's destination becomes its mailbox, with the address kept in `address`, and the
-- contacts of one mailbox are merged into one (its counts summed, first and last seen spanning
-- them, blocked when any of them was, since the earliest block). A pending request keeps its
-- destination when another pending one of the same account, mode and channel would share the
-- mailbox (one live code per destination): it expires within minutes.
-- A version before this one runs on the result: the columns are its own, the keys only shorter.
-- rollback: tolerated
-- The twin of migrations/sqlite/111_canonical_mailboxes.sql.

-- Every stored address whose mailbox differs from it.
CREATE TABLE mailbox_migration (destination TEXT PRIMARY KEY, mailbox TEXT NOT NULL);
INSERT INTO mailbox_migration (destination, mailbox)
SELECT d, mailbox FROM (
  SELECT d, CASE WHEN dom IN ('gmail.com', 'googlemail.com')
      THEN coalesce(nullif(replace(u, '.', ''), ''), u) || '@gmail.com'
      ELSE u || '@' || dom END AS mailbox
  FROM (
    SELECT d, CASE WHEN strpos(l, '+') > 1 THEN substr(l, 1, strpos(l, '+') - 1) ELSE l END AS u, dom
    FROM (
      SELECT d, substr(lower(d), 1, strpos(d, '@') - 1) AS l, substr(lower(d), strpos(d, '@') + 1) AS dom
      FROM (
        SELECT destination AS d FROM verifications WHERE strpos(destination, '@') > 1
        UNION SELECT destination FROM contacts WHERE strpos(destination, '@') > 1
      ) a
    ) b
  ) c
) e WHERE mailbox <> d;

-- Requests: the mailbox as destination (masked as src/domain/masking.ts masks it), the address kept.
UPDATE verifications
SET address = coalesce(address, destination),
  destination = (SELECT m.mailbox FROM mailbox_migration m WHERE m.destination = verifications.destination),
  masked = (SELECT left(m.mailbox, 1) || repeat('*', greatest(1, strpos(m.mailbox, '@') - 2))
      || substr(m.mailbox, strpos(m.mailbox, '@'))
    FROM mailbox_migration m WHERE m.destination = verifications.destination)
WHERE destination IN (SELECT destination FROM mailbox_migration)
  AND (status <> 'pending' OR NOT EXISTS (
    SELECT 1 FROM verifications w LEFT JOIN mailbox_migration wm ON wm.destination = w.destination
    WHERE w.status = 'pending' AND w.id <> verifications.id AND w.account_id = verifications.account_id
      AND w.channel = verifications.channel AND w.test = verifications.test
      AND coalesce(wm.mailbox, w.destination)
        = (SELECT m.mailbox FROM mailbox_migration m WHERE m.destination = verifications.destination)
  ));

-- Contacts: each of a mailbox that has a contact to move, and the one its group merges into (the
-- contact already at the mailbox, else the first seen).
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
  masked = (SELECT left(k.mailbox, 1) || repeat('*', greatest(1, strpos(k.mailbox, '@') - 2))
      || substr(k.mailbox, strpos(k.mailbox, '@'))
    FROM contact_merge k WHERE k.id = contacts.id)
WHERE id IN (SELECT survivor FROM contact_merge)
  AND destination <> (SELECT k.mailbox FROM contact_merge k WHERE k.id = contacts.id);

DROP TABLE contact_merge;
DROP TABLE mailbox_migration;
