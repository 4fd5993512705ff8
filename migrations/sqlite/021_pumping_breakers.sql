-- The SMS-pumping breaker of each account, mode and country (src/domain/pumping-breaker.ts). Kept in
-- the database so every instance (and worker) sees one state. The twin of
-- migrations/postgres/021_pumping_breakers.sql.
CREATE TABLE pumping_breakers (
  account_id TEXT NOT NULL,
  test INTEGER NOT NULL,
  country TEXT NOT NULL,
  -- Set while tripped; NULL once reset by an operator or recovered.
  tripped_at INTEGER,
  detail TEXT,
  -- What an operator's reset left behind: the window's counts at that moment, subtracted while
  -- that window lasts, so that a reset is not undone by the very sends that tripped it.
  reset_at INTEGER,
  baseline_hour INTEGER,
  baseline_sent INTEGER NOT NULL DEFAULT 0,
  baseline_verified INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, test, country)
) WITHOUT ROWID;
