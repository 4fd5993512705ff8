-- Email requests are keyed by their canonical mailbox (src/domain/mailbox.ts): `destination`
-- holds it, so contacts, blocks, the risk screen's history and the one live code per destination
-- hold for the mailbox, not for one way of writing it. The message goes to the address as given:
-- kept here when it differs from `destination` (null otherwise, and on every row written before).
-- A version before this one never reads the column and writes null into it; its rows read as
-- addressed to their destination.
-- rollback: tolerated
-- The twin of migrations/postgres/110_mailbox_address.sql.
ALTER TABLE verifications ADD COLUMN address TEXT;
