-- Which instance is asking a lookup provider about a number now (src/lookup/service.ts): where
-- several instances share this database, the first to claim a number's parts asks the provider and
-- the others read the cache until its answer lands or the claim lapses (`until`, epoch ms: the
-- holder's lookup budget), so a number is looked up at most once per cache period across them.
-- `key` is the number's cache key (never the number) and the parts asked. Expired claims are swept
-- with the cache.
-- A version before this one never reads the table.
-- rollback: tolerated
-- The twin of migrations/postgres/183_number_lookup_claims.sql.
CREATE TABLE number_lookup_claims (
  key TEXT PRIMARY KEY,
  until INTEGER NOT NULL
) WITHOUT ROWID;
