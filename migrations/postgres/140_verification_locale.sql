-- The locale a request's message was written in (src/domain/locales.ts: negotiated from the
-- request's tag, the account's default and the phone's country), for webhooks and the resource to
-- say. Null on rows written before: their messages were written before negotiation existed.
-- A version before this one never reads the column and writes null into it.
-- rollback: tolerated
-- The twin of migrations/sqlite/140_verification_locale.sql.
ALTER TABLE verifications ADD COLUMN locale TEXT;
