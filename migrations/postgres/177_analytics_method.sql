-- Analytics by method (GET /v1/admin/analytics?groupBy=method, docs/links.md): every bucket gains
-- a `method` key, how its requests offered to verify: `link` (the email carried a magic link
-- beside the code) or `code` (a code only). A request's sends, verifications and failures all
-- count under it, so conversion = verified / sent compares link emails with code-only sends.
-- Every bucket folded before was of code-only requests: it keeps its counts under `code`.
-- Not tolerated by a version before this one: its fold's upserts name the old key, which no longer
-- has a unique index (it refuses to start on this schema instead of failing at its first fold).
-- The twin of migrations/sqlite/177_analytics_method.sql.

ALTER TABLE analytics_hourly ADD COLUMN method TEXT NOT NULL DEFAULT 'code';
ALTER TABLE analytics_hourly DROP CONSTRAINT analytics_hourly_pkey;
ALTER TABLE analytics_hourly ADD PRIMARY KEY (account_id, test, hour, channel, country, purpose, provider, method);

ALTER TABLE analytics_daily ADD COLUMN method TEXT NOT NULL DEFAULT 'code';
ALTER TABLE analytics_daily DROP CONSTRAINT analytics_daily_pkey;
ALTER TABLE analytics_daily ADD PRIMARY KEY (account_id, test, day, channel, country, purpose, provider, method);

ALTER TABLE analytics_ttv ADD COLUMN method TEXT NOT NULL DEFAULT 'code';
ALTER TABLE analytics_ttv DROP CONSTRAINT analytics_ttv_pkey;
ALTER TABLE analytics_ttv ADD PRIMARY KEY (account_id, test, hour, channel, country, purpose, provider, method, bin);

ALTER TABLE analytics_ttv_daily ADD COLUMN method TEXT NOT NULL DEFAULT 'code';
ALTER TABLE analytics_ttv_daily DROP CONSTRAINT analytics_ttv_daily_pkey;
ALTER TABLE analytics_ttv_daily ADD PRIMARY KEY (account_id, test, day, channel, country, purpose, provider, method, bin);
