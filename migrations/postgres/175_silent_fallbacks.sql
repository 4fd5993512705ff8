-- The fallbacks of SILENT requests; the twin of migrations/sqlite/175_silent_fallbacks.sql, which
-- says what each column holds.
-- A version before this one never reads the table.
-- rollback: tolerated
CREATE TABLE silent_fallbacks (
  request_id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  test BOOLEAN NOT NULL,
  channel TEXT NOT NULL,
  due_at BIGINT NOT NULL,
  lease_until BIGINT,
  address TEXT,
  destination TEXT,
  country TEXT,
  purpose TEXT,
  custom_message TEXT,
  locale TEXT,
  state TEXT NOT NULL DEFAULT 'scheduled',
  reason TEXT,
  sibling_id TEXT,
  finished_at BIGINT
);
CREATE INDEX silent_fallbacks_due ON silent_fallbacks (due_at) WHERE state = 'scheduled';
CREATE INDEX silent_fallbacks_finished ON silent_fallbacks (finished_at) WHERE state <> 'scheduled';
