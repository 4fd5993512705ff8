-- Analytics by method (GET /v1/admin/analytics?groupBy=method, docs/links.md): every bucket gains
-- a `method` key, how its requests offered to verify: `link` (the email carried a magic link
-- beside the code) or `code` (a code only). A request's sends, verifications and failures all
-- count under it, so conversion = verified / sent compares link emails with code-only sends.
-- Every bucket folded before was of code-only requests: it keeps its counts under `code`.
-- Not tolerated by a version before this one: its fold's upserts name the old key, which no longer
-- has a unique index (it refuses to start on this schema instead of failing at its first fold).
-- The twin of migrations/postgres/177_analytics_method.sql. SQLite cannot change a primary key:
-- each table is made again under its new key (with migration 176's fell_back).

CREATE TABLE analytics_hourly_by_method (
  account_id TEXT NOT NULL,
  test INTEGER NOT NULL,
  hour INTEGER NOT NULL,
  channel TEXT NOT NULL,
  country TEXT NOT NULL,
  purpose TEXT NOT NULL,
  provider TEXT NOT NULL,
  method TEXT NOT NULL DEFAULT 'code',
  sent INTEGER NOT NULL DEFAULT 0,
  delivered INTEGER NOT NULL DEFAULT 0,
  undelivered INTEGER NOT NULL DEFAULT 0,
  verified INTEGER NOT NULL DEFAULT 0,
  failed INTEGER NOT NULL DEFAULT 0,
  expired INTEGER NOT NULL DEFAULT 0,
  canceled INTEGER NOT NULL DEFAULT 0,
  wrong_codes INTEGER NOT NULL DEFAULT 0,
  fell_back INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, test, hour, channel, country, purpose, provider, method)
) WITHOUT ROWID;
INSERT INTO analytics_hourly_by_method (account_id, test, hour, channel, country, purpose, provider, sent, delivered, undelivered, verified, failed, expired, canceled, wrong_codes, fell_back) SELECT account_id, test, hour, channel, country, purpose, provider, sent, delivered, undelivered, verified, failed, expired, canceled, wrong_codes, fell_back FROM analytics_hourly;
DROP TABLE analytics_hourly;
ALTER TABLE analytics_hourly_by_method RENAME TO analytics_hourly;

CREATE TABLE analytics_daily_by_method (
  account_id TEXT NOT NULL,
  test INTEGER NOT NULL,
  day INTEGER NOT NULL,
  channel TEXT NOT NULL,
  country TEXT NOT NULL,
  purpose TEXT NOT NULL,
  provider TEXT NOT NULL,
  method TEXT NOT NULL DEFAULT 'code',
  sent INTEGER NOT NULL DEFAULT 0,
  delivered INTEGER NOT NULL DEFAULT 0,
  undelivered INTEGER NOT NULL DEFAULT 0,
  verified INTEGER NOT NULL DEFAULT 0,
  failed INTEGER NOT NULL DEFAULT 0,
  expired INTEGER NOT NULL DEFAULT 0,
  canceled INTEGER NOT NULL DEFAULT 0,
  wrong_codes INTEGER NOT NULL DEFAULT 0,
  fell_back INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, test, day, channel, country, purpose, provider, method)
) WITHOUT ROWID;
INSERT INTO analytics_daily_by_method (account_id, test, day, channel, country, purpose, provider, sent, delivered, undelivered, verified, failed, expired, canceled, wrong_codes, fell_back) SELECT account_id, test, day, channel, country, purpose, provider, sent, delivered, undelivered, verified, failed, expired, canceled, wrong_codes, fell_back FROM analytics_daily;
DROP TABLE analytics_daily;
ALTER TABLE analytics_daily_by_method RENAME TO analytics_daily;

CREATE TABLE analytics_ttv_by_method (
  account_id TEXT NOT NULL,
  test INTEGER NOT NULL,
  hour INTEGER NOT NULL,
  channel TEXT NOT NULL,
  country TEXT NOT NULL,
  purpose TEXT NOT NULL,
  provider TEXT NOT NULL,
  method TEXT NOT NULL DEFAULT 'code',
  bin INTEGER NOT NULL,
  count INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, test, hour, channel, country, purpose, provider, method, bin)
) WITHOUT ROWID;
INSERT INTO analytics_ttv_by_method (account_id, test, hour, channel, country, purpose, provider, bin, count) SELECT account_id, test, hour, channel, country, purpose, provider, bin, count FROM analytics_ttv;
DROP TABLE analytics_ttv;
ALTER TABLE analytics_ttv_by_method RENAME TO analytics_ttv;

CREATE TABLE analytics_ttv_daily_by_method (
  account_id TEXT NOT NULL,
  test INTEGER NOT NULL,
  day INTEGER NOT NULL,
  channel TEXT NOT NULL,
  country TEXT NOT NULL,
  purpose TEXT NOT NULL,
  provider TEXT NOT NULL,
  method TEXT NOT NULL DEFAULT 'code',
  bin INTEGER NOT NULL,
  count INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, test, day, channel, country, purpose, provider, method, bin)
) WITHOUT ROWID;
INSERT INTO analytics_ttv_daily_by_method (account_id, test, day, channel, country, purpose, provider, bin, count) SELECT account_id, test, day, channel, country, purpose, provider, bin, count FROM analytics_ttv_daily;
DROP TABLE analytics_ttv_daily;
ALTER TABLE analytics_ttv_daily_by_method RENAME TO analytics_ttv_daily;
