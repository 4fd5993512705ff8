-- A verification request as a resource (GET /v1/contact/verifications/{requestId}): how it was
-- verified (src/domain/verification/method.ts: `code`, and the ways later versions add), written
-- by the statement that verifies it; and when its delivery state last moved, written with every
-- move. Both null on rows written before: those read as verified by code (they could be verified
-- no other way) and as delivered when they were made.
-- A version before this one never reads the columns and leaves them null.
-- rollback: tolerated
-- The twin of migrations/postgres/150_verification_resource.sql.
ALTER TABLE verifications ADD COLUMN method TEXT;
ALTER TABLE verifications ADD COLUMN delivery_updated_at INTEGER;
