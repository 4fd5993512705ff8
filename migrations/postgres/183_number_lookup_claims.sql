-- Which instance is asking a lookup provider about a number now; the twin of
-- migrations/sqlite/183_number_lookup_claims.sql, which says what each column holds.
-- A version before this one never reads the table.
-- rollback: tolerated
CREATE TABLE number_lookup_claims (
  key TEXT PRIMARY KEY,
  until BIGINT NOT NULL
);
