-- A code is needed only while its request is pending. As soon as a request leaves pending
-- (verified, expired, failed, canceled), the code in the outbox's stored content is replaced by
-- asterisks, in the statement that changed the status (this trigger is part of it), whichever
-- statement that is: verify, the sweeper's expiry, a supersede, a failed delivery.
CREATE FUNCTION verifications_erase_settled_code() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.outbox := jsonb_set(NEW.outbox::jsonb, '{request,code}',
    to_jsonb(repeat('*', length(NEW.outbox::jsonb #>> '{request,code}'))))::text;
  RETURN NEW;
END;
$$;

CREATE TRIGGER verifications_erase_settled_code BEFORE UPDATE OF status ON verifications
FOR EACH ROW
WHEN (OLD.status = 'pending' AND NEW.status <> 'pending' AND NEW.outbox IS NOT NULL)
EXECUTE FUNCTION verifications_erase_settled_code();

-- Requests settled before this migration.
UPDATE verifications
SET outbox = jsonb_set(outbox::jsonb, '{request,code}',
  to_jsonb(repeat('*', length(outbox::jsonb #>> '{request,code}'))))::text
WHERE status <> 'pending' AND outbox IS NOT NULL AND outbox::jsonb #>> '{request,code}' ~ '[0-9]';
