-- Magic links (EMAIL, docs/links.md): the keyed hash of a request's link token (HMAC-SHA-256
-- under CODE_SECRET, src/domain/links.ts; never the token) and where its POST redirects. Null on
-- every request sent without a link: the send path writes two more nulls, and the partial index
-- below holds only the rows that have a link, so a send without one never touches it.
-- A version before this one never reads the columns and writes null into them: its links answer
-- 404, its codes verify as before.
-- rollback: tolerated
-- The twin of migrations/postgres/155_verification_links.sql.
ALTER TABLE verifications ADD COLUMN link_hash BLOB;
ALTER TABLE verifications ADD COLUMN link_redirect TEXT;
CREATE UNIQUE INDEX verifications_link ON verifications (link_hash) WHERE link_hash IS NOT NULL;
