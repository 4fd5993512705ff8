-- A code is needed only while its request is pending. As soon as a request leaves pending
-- (verified, expired, failed, canceled), the code in the outbox's stored content is replaced by
-- asterisks, in the statement that changed the status (this trigger is part of it), whichever
-- statement that is: verify, the sweeper's expiry, a supersede, a failed delivery.
CREATE TRIGGER verifications_erase_settled_code AFTER UPDATE OF status ON verifications
WHEN OLD.status = 'pending' AND NEW.status <> 'pending' AND NEW.outbox IS NOT NULL
BEGIN
  UPDATE verifications
  SET outbox = json_set(outbox, '$.request.code',
    substr('**********', 1, length(json_extract(outbox, '$.request.code'))))
  WHERE id = NEW.id;
END;

-- Requests settled before this migration.
UPDATE verifications
SET outbox = json_set(outbox, '$.request.code',
  substr('**********', 1, length(json_extract(outbox, '$.request.code'))))
WHERE status <> 'pending' AND outbox IS NOT NULL
  AND json_extract(outbox, '$.request.code') GLOB '*[0-9]*';
