-- SILENT requests that fell back to a code (send-code `fallback`), counted per bucket by the fold
-- from the `fallback` changes of migration 175's silent_fallbacks. Old rows count none.
-- A version before this one never reads the column, and its fold names the columns it writes.
-- rollback: tolerated
ALTER TABLE analytics_hourly ADD COLUMN fell_back INTEGER NOT NULL DEFAULT 0;
ALTER TABLE analytics_daily ADD COLUMN fell_back INTEGER NOT NULL DEFAULT 0;
