-- A wrong code is counted on the request it was made on, in the statement unit that counts the
-- attempt, instead of a journal row of its own (verification.attempt_failed): the batch fold adds
-- a request's wrong codes to the analytics and its contact when the request settles (its
-- verified, failed, expired or canceled row), and analytics and contact reads add those of
-- requests not settled or not folded yet. Rows journaled before this migration are still folded
-- as they were; a request's counter starts at 0 here, so none is counted twice. See
-- docs/analytics.md. The twin of migrations/sqlite/080_wrong_codes_counted.sql.
ALTER TABLE verifications ADD COLUMN wrong_codes INTEGER NOT NULL DEFAULT 0;
