-- The fallback of a SILENT request (send-code `fallback`: SMS, WHATSAPP or VOICE): a code sent as
-- the request's dual sibling when the silent check fails, or after the account's
-- silentTimeoutSeconds. Kept here rather than in a timer so that a timeout fires after a restart,
-- on whichever instance claims it first. The twin of migrations/postgres/175_silent_fallbacks.sql.
-- A version before this one never reads the table.
-- rollback: tolerated
CREATE TABLE silent_fallbacks (
  -- The SILENT request.
  request_id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  test INTEGER NOT NULL,
  -- The channel the fallback code goes by.
  channel TEXT NOT NULL,
  -- When the timeout fires, epoch ms.
  due_at INTEGER NOT NULL,
  -- A claim's end: a claimer that died lets the fallback come back after it.
  lease_until INTEGER,
  -- What the fallback's message needs; erased once it is finished.
  address TEXT,
  destination TEXT,
  country TEXT,
  purpose TEXT,
  custom_message TEXT,
  locale TEXT,
  -- scheduled | fired | dropped (the silent request settled first).
  state TEXT NOT NULL DEFAULT 'scheduled',
  -- provider_failed | rejected | timeout
  reason TEXT,
  -- The fallback code's request, once fired.
  sibling_id TEXT,
  finished_at INTEGER
);
CREATE INDEX silent_fallbacks_due ON silent_fallbacks (due_at) WHERE state = 'scheduled';
CREATE INDEX silent_fallbacks_finished ON silent_fallbacks (finished_at) WHERE state <> 'scheduled';
