-- Test and live keys are two worlds inside an account: each request records the mode of the key
-- that made it, is seen only by keys of that mode, and supersedes only requests of its own mode.
-- Analytics read the same column to keep test traffic out of live figures.
ALTER TABLE verifications ADD COLUMN test INTEGER NOT NULL DEFAULT 0;

DROP TRIGGER verifications_supersede;
CREATE TRIGGER verifications_supersede BEFORE INSERT ON verifications
BEGIN
  UPDATE verifications SET status = 'canceled'
  WHERE destination = NEW.destination AND account_id = NEW.account_id AND channel = NEW.channel
    AND test = NEW.test AND status = 'pending';
END;
