-- Test and live keys are two worlds inside an account: each request records the mode of the key
-- that made it, is seen only by keys of that mode, and supersedes only requests of its own mode.
-- Analytics read the same column to keep test traffic out of live figures.
ALTER TABLE verifications ADD COLUMN test BOOLEAN NOT NULL DEFAULT FALSE;

-- One live code per account, channel, destination and mode.
DROP INDEX verifications_one_live;
CREATE UNIQUE INDEX verifications_one_live ON verifications (destination, account_id, channel, test)
  WHERE status = 'pending';
