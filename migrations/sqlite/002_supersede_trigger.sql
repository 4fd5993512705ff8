-- A send writes to every index of this table, so it keeps only the indexes a request needs.
-- verifications_created served nothing but the retention sweep, which now walks the primary key
-- instead: ids are UUIDv7, ordered by creation time.
DROP INDEX verifications_created;

-- A new code for a destination and channel cancels the pending one before it. As a trigger the
-- cancel runs inside the INSERT itself: a send is one statement, atomic on its own, with no
-- savepoint around two.
CREATE TRIGGER verifications_supersede BEFORE INSERT ON verifications
BEGIN
  UPDATE verifications SET status = 'canceled'
  WHERE destination = NEW.destination AND account_id = NEW.account_id AND channel = NEW.channel
    AND status = 'pending';
END;
